"""Clause predicate parsing: one first-person predicate (its auxiliaries, main verb and the tokens after it),
where its phrase ends, and its aspect."""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.formation.deterministic.predicate_words import TRIGGERS
from domain.formation.equivalence import NUMBER_WORDS
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, third_person

AUX = frozenset(
    {"be", "have", "do", "will", "would", "can", "could", "should", "might", "may", "must", "shall"}
)
_MODALS = frozenset({"will", "would", "could", "should", "might", "may", "must", "shall"})
_ADVERBS = frozenset(
    {
        "still",
        "currently",
        "also",
        "usually",
        "regularly",
        "really",
        "just",
        "now",
        "always",
        "mostly",
        "often",
        "recently",
        "already",
        "actually",
        "basically",
        "generally",
        "sometimes",
        "typically",
        "normally",
        "mainly",
        "definitely",
        "personally",
        "honestly",
        "even",
        "only",
        "again",
        "frequently",
        "occasionally",
        "consistently",
        "probably",
        "maybe",
        "possibly",
        "perhaps",
        "kinda",
        "sorta",
    }
)
# Verbs that end like an adverb.
_LY_VERBS = frozenset(
    {"reply", "apply", "rely", "supply", "fly", "bully", "rally", "tally", "multiply", "ally"}
)
_CUT_WORDS = frozenset(
    {
        "and",
        "but",
        "because",
        "so",
        "which",
        "that",
        "since",
        "while",
        "although",
        "though",
        "who",
        "whether",
        "if",
        "what",
        "when",
        "where",
        "how",
        "or",
        "except",
    }
)
_CORRECTION_TAIL = frozenset({"anymore"})
# Right after the verb these still end its statement, which has no object: "I used to smoke but quit".
# An age the user was since ("since I was little"): "since I was laid off" opens a clause of its own.
_YOUNG = frozenset({"little", "young", "small", "tiny", "born"})
_OPENING_CUTS = frozenset({"but", "because", "so", "although", "though"})
# Not "every" or "each", which open a time ("Every Friday I call my mom").
_DETERMINERS = frozenset({"the", "a", "an", "any", "some", "no", "all", "only", "that"})
# Words that join or open a clause: "the kids and I", "the day when I".
_JOINING = frozenset(
    {"and", "or", "but", "so", "then", "because", "when", "if", "as", "while", "than", "now"}
)
_FRONTING = frozenset({"in", "at", "on", "for", "with", "during", "after", "before", "from", "by", "to"})
WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"})
TIME_NOUNS = frozenset(
    {"day", "morning", "night", "evening", "afternoon", "week", "weekend", "month", "year", "summer"}
    | {"winter", "spring", "fall", "autumn", "time", "semester", "season", "moment", "hour", "minute"}
    | {"holiday"}
    | WEEKDAYS
)
# Past forms the lemmatizer keeps as they are (its table is frozen: stored match keys depend on it), with
# the verb they are the past of: "I left to start a company" is "leave", not a present "lefts".
PAST_FORMS = {"left": "leave", "won": "win", "felt": "feel", "broke": "break", "shook": "shake"}
# "learn how to swim", "decide what to study": a question word before an infinitive is part of the object.
ASKING = frozenset({"how", "what", "where", "when", "whether", "which"})


@dataclass(slots=True)
class Parse:
    """One first-person predicate: its auxiliaries, main verb and the tokens after it."""

    tokens: list[Token]
    verb_at: int
    negated: bool
    modal: str | None
    perfect: bool
    progressive: bool
    used_to: bool
    no_longer: bool
    been: bool
    adverbs: list[str] = field(default_factory=list)
    lead: str = ""  # a schedule stated before the subject: "Every Friday I call my mom"
    _lemma: str | None = None
    _rest: list[Token] | None = None
    _aspect: tuple[Aspect, str] | None = None
    _kept: list[Token] | None = None

    @property
    def verb(self) -> Token:
        return self.tokens[self.verb_at]

    @property
    def lemma(self) -> str:
        # Rules ask for the verb's lemma many times per predicate; compute it once.
        if self._lemma is None:
            self._lemma = PAST_FORMS.get(self.verb.lower) or verb_lemma(self.verb)
        return self._lemma

    @property
    def rest(self) -> list[Token]:
        # Read by every rule; no rule changes the list, so one slice serves them all.
        if self._rest is None:
            self._rest = self.tokens[self.verb_at + 1 :]
        return self._rest


def parse_predicate(tokens: list[Token]) -> Parse | None:
    i = 0
    negated = perfect = progressive = used_to = no_longer = been = False
    modal: str | None = None
    adverbs: list[str] = []
    while i < len(tokens):
        tok = tokens[i]
        low = tok.lower
        if low in ("not", "never"):
            negated = True
        elif low == "no" and i + 1 < len(tokens) and tokens[i + 1].lower == "longer":
            negated = no_longer = True
            i += 1
        elif low == "used" and i + 1 < len(tokens) and tokens[i + 1].lower == "to":
            used_to = True
            i += 1
        elif low in _ADVERBS or low.endswith("ly") and low not in _LY_VERBS and i + 1 < len(tokens):
            # "I absolutely love rainy days": a manner or degree adverb before the verb, not the verb.
            adverbs.append(low)
        elif low in ("kind", "sort") and i + 2 < len(tokens) and tokens[i + 1].lower == "of":
            # "I kind of hate it": a hedge before the verb, not the verb.
            adverbs.append(f"{low} of")
            i += 1
        elif tok.lemma in AUX and i + 1 < len(tokens) and _continues_aux(tokens, i):
            if low in _MODALS:
                modal = low
            elif tok.lemma == "have":
                perfect = True
            elif low == "been":
                been = True
            elif tok.lemma == "be":
                progressive = True
        else:
            break
        i += 1
    if i >= len(tokens):
        return None
    parse = Parse(tokens, i, negated, modal, perfect, progressive, used_to, no_longer, been, adverbs)
    if perfect and not been and tokens[i].lower == "got":
        # "I've got a bike" states possession: "have", not the perfect of "get".
        parse.perfect = False
        parse._lemma = "have"
    return parse


def _continues_aux(tokens: list[Token], i: int) -> bool:
    """An auxiliary is followed by another verb form; "I have a bike" and "I am 44" are main verbs."""
    nxt = tokens[i + 1]
    if nxt.lower in ("not", "never", "no") or nxt.lower in _ADVERBS or nxt.lemma in AUX:
        return True
    low = tokens[i].lower
    if low in _MODALS or low == "can":
        return True
    if tokens[i].lemma == "do":
        # "I do a 5x5 routine" has "do" as its main verb; only "I do not ..." makes it an auxiliary.
        return False
    if tokens[i].lemma == "have":
        # "have trained" (participle) versus "have two kids" (object).
        return (
            nxt.lower != nxt.lemma
            and not nxt.lower.endswith("s")
            or nxt.lower in ("been", "done", "had", "made", "got")
        )
    if tokens[i].lemma == "be":
        return nxt.lower.endswith("ing") and nxt.lower not in (
            "something",
            "nothing",
            "anything",
            "everything",
        )
    return False


_TRAILING = frozenset(
    {"for", "to", "of", "in", "on", "at", "with", "a", "an", "the", "my", "as", "by", "from", "than", "about"}
    | {"even"}
)
_COORDINATORS = frozenset({"and", "or"})
# "either" after a correction's "anymore" ("can't do gluten anymore either") says only that it is not the first.
_TAIL_WORDS = _CORRECTION_TAIL | {"any", "more", "either"}
_CUT_GAP = re.compile(r'[,;:—–()"“”]')


def is_number(token: Token) -> bool:
    return token.lower.isdigit() or token.lower in NUMBER_WORDS


def corrected_count(tokens: list[Token], index: int) -> bool:
    """ "three grandkids not four", "37 not 38": a "not" between two counts ends the statement at the first;
    what follows is the count the user corrects, not more of it."""
    return index + 1 < len(tokens) and is_number(tokens[index + 1]) and any(map(is_number, tokens[:index]))


def since_age(tokens: list[Token], at: int) -> int:
    """Where "since I was 12", "since I was a kid" ends when the "since" at at dates the statement by the
    user's age, or 0: "since I was laid off" opens a clause of its own."""
    end = at + 4
    if end > len(tokens) or tokens[at + 1].lower != "i" or tokens[at + 2].lower != "was":
        return 0
    age = tokens[at + 3]
    if is_number(age) or age.lower in _YOUNG:
        return end
    return end + 1 if age.lower == "a" and end < len(tokens) else 0


def cut(tokens: list[Token], text: str, keep_and: bool = False) -> list[Token]:
    """Tokens up to the first clause-internal boundary: a comma, a dash, or a subordinating word.

    keep_and keeps a coordinated noun phrase whole ("web search and web fetch").
    """
    kept: list[Token] = []
    last = len(tokens) - 1
    for index, tok in enumerate(tokens):
        low = tok.lower
        if low == "since" and (dated := since_age(tokens, index)):
            kept.extend(tokens[index:dated])  # "since I was 19": the statement's time ends it
            break
        # The neighbours are read only for the few words that need them.
        if low in _CUT_WORDS and (index or low in _OPENING_CUTS):
            nxt = tokens[index + 1].lower if index < last else ""
            if not (
                low == "while"
                and tokens[index - 1].lower == "a"
                or low in ASKING
                and nxt == "to"
                or keep_and
                and low in _COORDINATORS
                and nxt not in ("i", "then", "also", "so", "but", "")
            ):
                break
        if (
            low == "as"
            and index < last
            and tokens[index + 1].lower in ("long", "soon", "far", "much", "well")
            or low == "not"
            and corrected_count(tokens, index)
        ):
            break
        if kept:
            gap = text[kept[-1].end : tok.start]
            if (
                gap
                and gap != " "
                and (_CUT_GAP.search(gap) is not None or " - " in gap)
                and not clock_time(gap, kept[-1], tok)
            ):
                break
        kept.append(tok)
    while kept and kept[-1].lower in _TAIL_WORDS:
        if kept[-1].lower == "more" and (len(kept) < 2 or kept[-2].lower != "any"):
            break
        if kept[-1].lower == "either" and (len(kept) < 2 or kept[-2].lower not in _CORRECTION_TAIL):
            break
        kept.pop()
        if kept and kept[-1].lower == "any":
            kept.pop()
    while kept and kept[-1].lower in _TRAILING:
        kept.pop()
    return kept


def object_gap(text: str, tokens: list[Token], at: int) -> bool:
    """Whether the subject at at opens a relative clause about the noun before it ("the last thing I want
    to do", "two chapters I'm happy with"), which states nothing of its own: a noun right before the
    subject, opened by a determiner or a number, with no preposition fronting it ("At the gym I lift") and
    no time noun ("Every morning I run")."""
    noun = tokens[at - 1]
    if (
        not noun.lower.isalpha()
        or noun.lower in _JOINING
        or noun.lemma in TIME_NOUNS
        or noun.lower == "ago"  # "Two years ago I moved": a time fronted, not a noun the "I" is about
        or text[noun.end : tokens[at].start] != " "
    ):
        return False
    for j in range(at - 2, max(-1, at - 5), -1):
        word = tokens[j]
        if text[word.end : tokens[j + 1].start] != " ":
            return False
        if word.lower in _DETERMINERS or word.lower.isdigit() or word.lower in NUMBER_WORDS:
            return j == 0 or tokens[j - 1].lower not in _FRONTING
    return False


def kept_rest(parse: Parse, text: str) -> list[Token]:
    """cut(parse.rest, text), which several rules ask of one predicate; none changes the list."""
    if parse._kept is None:
        parse._kept = cut(parse.rest, text)
    return parse._kept


def clock_time(gap: str, before: Token, after: Token) -> bool:
    """Whether a colon joins the two halves of a time ("the 7:15 train"), which no boundary splits."""
    return gap == ":" and before.lower.isdigit() and after.lower.isdigit()


def phrase_of(text: str, tokens: list[Token]) -> str:
    if not tokens:
        return ""
    end = tokens[-1].end
    # "%" is no token of its own, and a phrase that ends on its number keeps it ("by 20%").
    return text[tokens[0].start : end + 1 if text[end : end + 1] == "%" else end]


def lowered(words: str) -> str:
    """A phrase that opened its sentence without its capital, unless the capital is the word's own: "Keep it
    short" -> "keep it short", "Sous chef" -> "sous chef", "IT" stays."""
    return words[:1].lower() + words[1:] if words[1:2].islower() else words


def plural_noun(token: Token) -> bool:
    """A noun in the plural: ends in "s" and its lemma is another word ("kids", not "news" or "bus")."""
    return token.lower.endswith("s") and token.lemma != token.lower


def content_words(tokens: Sequence[Token]) -> list[str]:
    return [
        t.lemma if not t.text.isupper() else t.lower
        for t in tokens
        if t.lemma not in STOPWORDS and t.lower not in STOPWORDS
    ]


def aspect_of(parse: Parse) -> tuple[Aspect, str]:
    # Both the history and the habit rules ask; a predicate's aspect never changes, so compute it once.
    if parse._aspect is None:
        parse._aspect = _compute_aspect(parse)
    return parse._aspect


def _compute_aspect(parse: Parse) -> tuple[Aspect, str]:
    verb = parse.verb
    if parse.perfect and parse.been:
        return Aspect.PERFECT, f"been {verb.text}"
    if parse.perfect:
        return Aspect.PERFECT, verb.text
    if parse.progressive:
        return Aspect.PROGRESSIVE, verb.text
    if parse.used_to:
        return Aspect.PAST, f"used to {verb.lower}"
    if verb.lower in PAST_FORMS or (
        verb.lower != verb.lemma and not verb.lower.endswith("ing") and verb.lower != third_person(verb.lemma)
    ):
        return Aspect.PAST, verb.text
    return Aspect.SIMPLE, verb.text


def copula_rest(parse: Parse) -> list[Token] | None:
    """The complement of "I am ...", also when an adverb made "am" read as an auxiliary."""
    if parse.lemma == "be" and not parse.progressive:
        return parse.rest
    if parse.progressive and not parse.verb.lower.endswith("ing"):
        return [parse.verb, *parse.rest]
    return None


def through_trigger(text: str, tokens: list[Token], stop: int) -> list[Token]:
    """Tokens up to the first boundary, carried past a trigger word ("when", "after") to the next one."""
    kept = cut(tokens, text)
    after = len(kept)
    if after < len(tokens) and tokens[after].lower in TRIGGERS:
        tail = cut(tokens[after + 1 :], text)
        kept = tokens[: after + 1 + len(tail)] if tail else kept
    return [t for t in kept if t.end <= stop]
