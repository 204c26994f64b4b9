"""Standing requests to the agent: an instruction that says it holds beyond this answer forms the stated wish.

A wish is rendered as a person would write it, what it is about and then what is to be done with it: "Please
never schedule meetings on Fridays" forms "User does not want meetings scheduled on Fridays."; "please keep
recipe suggestions low-sugar" forms "User wants recipe suggestions kept low-sugar."; "Could you stop adding
summaries?" forms "User does not want summaries added."; "Always include the sources" forms "User wants the
sources always included.". An instruction with no noun phrase after its verb stays one: "Always answer me in
bullet points" forms "User wants the assistant to always answer them in bullet points.". "so no milk in
recipes please" forms "User does not want milk in recipes."; "Vegan recipes please" and "short answers from
now on", with no verb, form "User wants vegan recipes." and "User wants short answers."; "just call me Jo"
forms "User wants to be called Jo.". A polite instruction is standing when its object is a kind of thing
("charts", "metric units"), not one thing of this conversation ("explain that again", "write me a cover
letter", "make it shorter"), or when it refuses ("please don't recommend chain restaurants"); an instruction
about the current answer alone ("Give me three ideas") carries no such marker and forms nothing."""

import re

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_words import ITEM_VERBS
from domain.formation.deterministic.coordination import items_of
from domain.formation.deterministic.inflection import past_participle
from domain.formation.deterministic.parsing import is_number, lowered, phrase_of, plural_noun
from domain.formation.deterministic.patterns import hinted
from domain.formation.deterministic.predicate_words import LIMIT_TARGETS
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key

_MAX_KIND_WORDS = 4
_POLITE = frozenset({"please", "pls", "plz", "and", "also", "oh", "ok", "okay", "so", "just"})
_PLEASE = frozenset({"please", "pls", "plz"})
_ASKING_YOU = frozenset({"could", "can", "would", "will"})
_FROM_NOW_ON = (("from", "now", "on"), ("going", "forward"), ("in", "future"), ("in", "the", "future"))
_MARKER_OPENERS = frozenset(marker[0] for marker in _FROM_NOW_ON)
# After the verb these name one thing of this conversation, not a kind of thing: "explain that again".
_THIS_ONE = frozenset(
    {"it", "that", "this", "these", "those", "them", "me", "us", "a", "an", "the", "my", "one", "some"}
    | {"more", "another", "something", "anything", "up", "out", "again"}
)
# Verbs that ask for one piece of work ("please list options for a laptop"), not a way of answering.
_TASKS = frozenset(
    {"give", "show", "tell", "find", "write", "make", "suggest", "recommend", "help", "explain", "list"}
    | {"check", "fix", "draft", "create", "generate", "plan", "compare", "calculate", "convert", "send"}
    | {"book", "look", "search", "summarize", "summarise", "translate", "read", "go", "continue", "try"}
)
# The verbs a way of answering is asked with. Any other first word of a polite request may be an adjective
# or a noun ("Vegan recipes please"), never read as a verb ("User wants the assistant to vegan recipes").
_INSTRUCTING = (
    _TASKS
    | LIMIT_TARGETS
    | ITEM_VERBS
    | {"use", "include", "add", "cite", "answer", "reply", "respond", "format", "mention", "spell", "label"}
    | {"round", "put", "remember", "remind", "call", "address", "assume", "describe", "define", "link"}
    | {"quote", "stop", "start", "talk", "speak", "ask", "flag", "warn", "note", "be", "default", "bold"}
    | {"message", "text", "email", "ping"}
)
# "No worries", "no problem": a formula of the conversation, not a refusal.
_FORMULAS = frozenset(
    {"worries", "worry", "problem", "problems", "thanks", "idea", "way", "rush", "pressure", "clue", "need"}
    | {"offense", "offence", "biggie", "doubt", "matter", "prob", "probs", "kidding", "joke", "one"}
)
# A wish's object ends where the verb's own phrase begins: "describe injuries | in detail"; a phrase of the
# object's own ("recipes with peanuts", "anything from Amazon") is part of it.
_OBJECT_ENDS = frozenset(
    {"in", "on", "at", "for", "to", "before", "after", "about", "by", "under", "over", "when", "if"}
    | {"unless", "as", "like", "so", "because", "and", "or", "but", "again", "anymore", "ever", "until"}
    | _PLEASE
)
_WITH = frozenset({"with", "without", "containing"})
_NOUN_PHRASES = _WITH | {"of", "from"}
# A "with" phrase after what these offer describes the thing ("recipes with peanuts"); after any other verb
# it says how to do it ("end every reply | with a question").
_OFFERING = frozenset({"suggest", "recommend", "show", "give", "send", "include", "mention", "list", "offer"})
# The stopwords a noun phrase may hold: "the sources", "my full name", "anything from Amazon".
_NOUN_WORDS = (
    _NOUN_PHRASES
    | {"the", "a", "an", "my", "our", "your", "any", "every", "all", "each", "such"}
    | {
        "anything",
        "everything",
    }
)
_NO_OBJECT_VERBS = frozenset(
    {"be", "go", "talk", "speak", "answer", "reply", "respond", "ask", "look", "try"}
)
_GIVING = frozenset({"give", "send", "show", "message", "text", "email"})
_RECEIVERS = frozenset({"me", "us"})
# Verbs whose object is followed by what it is to be: "keep replies | under five lines".
_COMPLEMENTED = frozenset({"keep", "make", "leave", "get"})
_REFUSAL_OPENERS = frozenset({"so", "and", "but", "also"}) | _PLEASE
_REFUSALS = frozenset({"no", "nothing"})
_YOUR = re.compile(r"\byour\b", re.IGNORECASE)
# How the agent is to treat the user holds beyond this answer: "remind me to ...", "fix my typos", "be
# patient with me", "go easy on me"; "so" asks it as plainly as "please" when it does ("I'm a slow reader so
# go easy on me"). A task for the user ("give me a hint", "send me the file") is one piece of work.
_USER_OBJECTS = frozenset({"me", "my"})
_TREATING = frozenset({"with", "on"})
_MANNER_WORDS = 2
_SO = "so"
_ANY_KIND = frozenset({"any"})
# After "remind me" these ask about this conversation: "remind me what you said".
_ASKING_WORDS = frozenset({"what", "how", "where", "when", "who", "which", "why", "if", "whether"})
# Hints of the forms read here, on the clause folded to lower case (the always/never forms are hinted by
# the former).
# A "don't" may refuse a kind of thing without "please".
_HINTS = ("please", "pls", "plz", "stop", "call me", "don't ", "do not ", "dont ")
_USER_HINTS = (" me", " my ")


def hints_request(low: str) -> bool:
    """Whether a clause folded to lower case may hold a request read here: a hint word, "so" with the user
    as an object ("so go easy on me"), or a "don't"."""
    return hinted(low, _HINTS) or "so " in low and hinted(low, _USER_HINTS)


def _standing(tokens: list[Token]) -> int | None:
    """Where a "from now on" marker starts, if the clause has one."""
    lowers = [t.lower for t in tokens]
    # Markers are compared only where one can open: a slice and a tuple a word for every marker cost tens of
    # microseconds a long clause.
    for i, low in enumerate(lowers):
        if low in _MARKER_OPENERS:
            for marker in _FROM_NOW_ON:
                if tuple(lowers[i : i + len(marker)]) == marker:
                    return i
    return None


def _imperative(token: Token) -> bool:
    return token.lemma == token.lower and token.lower not in STOPWORDS and verb_lemma(token) == token.lower


def _base(gerund: Token) -> str:
    """A gerund's verb; the lemmatizer reads some as nouns ("ending"), whose verb is the word without -ing."""
    lemma = verb_lemma(gerund)
    return lemma.removesuffix("ing") if lemma == gerund.lower else lemma


def _polite(text: str, rest: list[Token], tokens: list[Token]) -> tuple[str, int] | None:
    """ "please keep recipe suggestions low-sugar", "Use metric units please", "(could you) stop adding
    summaries": the wish and where its verb stands, when the instruction reaches beyond this answer."""
    if rest[0].lower == "stop" and rest[1].lower.endswith("ing"):
        return "not", 1
    negation, at = ("not", 2) if rest[0].lower == "do" and rest[1].lower == "not" else ("", 0)
    if at + 1 >= len(rest):
        return None
    first, second = rest[at], rest[at + 1].lower
    # Without "please", only right after "so": "Remind me to call the bank so I don't forget" is one errand.
    opened = len(tokens) - len(rest)
    asked_so = opened > 0 and tokens[opened - 1].lower == _SO
    pleased = not _PLEASE.isdisjoint(t.lower for t in tokens)
    if not negation and _treats_user(text, rest, at) and (asked_so or pleased):
        return negation, at
    if not pleased and not (negation and _refuses_a_kind(rest, at)):
        return None
    # "please don't suggest chain restaurants" refuses a kind of thing; "please suggest a name" is one task.
    if first.lower not in _INSTRUCTING or not _imperative(first) or first.lower in _TASKS and not negation:
        return None
    if negation and second in _RECEIVERS and at + 2 < len(rest):
        second = rest[at + 2].lower  # "please don't give me the lecture": what would be given
    # "please don't give me the answer, just a hint" is about this answer, as "the ..." mostly is.
    if second in _THIS_ONE or second in _PLEASE:
        return None
    if "," in text[first.end : rest[at + 1].start]:
        return None  # "Hey, quick question": a greeting, not a verb
    return negation, at


def _refuses_a_kind(rest: list[Token], at: int) -> bool:
    """ "Don't give me recipes with mushrooms", "Don't suggest any podcasts": a "don't" before a kind
    of thing holds from now on even without "please"; "Don't tell me the ending" is about this answer."""
    thing = at + 1
    if thing < len(rest) and rest[thing].lower in _RECEIVERS:
        thing += 1
    if thing >= len(rest):
        return False
    word = rest[thing]
    return word.lower in _ANY_KIND or plural_noun(word) and word.lower not in STOPWORDS


def _treats_user(text: str, rest: list[Token], at: int) -> bool:
    """Whether an instruction tells how to treat the user: its verb in the base form with the user as its
    object ("remind me to ...", "fix my typos") or after a manner word ("be patient with me"), not a task,
    nor about what is asked now ("remind me what you said", "be honest with me, is it good?")."""
    verb = rest[at]
    if verb.lemma != verb.lower or verb.lower in _PLEASE or "?" in text[verb.start : rest[-1].end + 1]:
        return False
    after = [t.lower for t in rest[at + 1 : at + 2 + _MANNER_WORDS]]
    if after[0] in _USER_OBJECTS:
        said = after[0] == "me" and (len(after) < 2 or after[1] in _ASKING_WORDS)
        return (
            not said
            and verb.lower not in STOPWORDS
            and verb.lower not in _TASKS
            and verb_lemma(verb) == verb.lower
        )
    return any(
        word in _TREATING and after[i + 1 : i + 2] == ["me"] and not _USER_OBJECTS.isdisjoint(after[i + 1 :])
        for i, word in enumerate(after)
        if i
    )


def _named_kind(text: str, rest: list[Token], tokens: list[Token]) -> Claim | None:
    """ "Vegan recipes please", "short answers from now on": a polite or standing request with no verb wants
    the kind of thing it names; one thing of this conversation ("the check please", "two more please") is
    no kind."""
    marker = _standing(rest)
    if marker is None and not any(t.lower in _PLEASE for t in tokens) or rest[0].lower in _INSTRUCTING:
        return None
    words: list[Token] = []
    for at, token in enumerate(rest):
        if token.lower in _PLEASE or at == marker:
            break
        if (
            token.lower in STOPWORDS
            or token.lower in _THIS_ONE
            or is_number(token)
            or len(words) == _MAX_KIND_WORDS
        ):
            return None
        words.append(token)
    # A kind is named in the plural ("recipes", "answers"); "Coffee please" asks for one.
    if not words or words[-1].lemma == words[-1].lower or not words[-1].lower.endswith("s"):
        return None
    return _wish("wants", lowered(phrase_of(text, words)), [t.lemma for t in words])


def _opening(text: str, tokens: list[Token]) -> int:
    """Where an instruction starts: after "could you", at the clause's start, or after "please"."""
    lowers = [t.lower for t in tokens]
    for at, low in enumerate(lowers[:-2]):
        if low in _ASKING_YOU and lowers[at + 1] == "you":
            return at + 2
    if lowers[:2] == ["do", "not"]:
        return 0  # "Don't give me the lecture please": the clause opens with its instruction
    asked = next((at for at in range(len(lowers) - 2) if _asks_from(text, tokens, lowers, at)), None)
    # "Use metric units please, I'm in Germany", "Don't give me the lecture please"; "Hey, ..." is a
    # greeting, not a verb. A first word that only looks like a verb yields to a later "please" that opens an
    # instruction ("Btw I'm colorblind so pls don't ...": "btw" is its own lemma, as a verb's base form is),
    # not one that closes a request ("Metric units please, I'm in Germany").
    opens = asked is not None and "," not in text[tokens[asked].end : tokens[asked + 1].start]
    if (
        _imperative(tokens[0])
        and (not opens or lowers[0] in _INSTRUCTING)
        and (len(tokens) < 2 or "," not in text[tokens[0].end : tokens[1].start])
    ):
        return 0
    return asked or 0


def _asks_from(text: str, tokens: list[Token], lowers: list[str], at: int) -> bool:
    """Whether the word at `at` may open an instruction: "please", "so" before how to treat
    the user, or a "don't" after a comma ("I sleep till 2pm, dont message me ...": a clause of its own)."""
    low = lowers[at]
    if low in _PLEASE:
        return True
    if low == _SO:
        return _treats_user(text, tokens, at + 1)
    return low == "do" and lowers[at + 1] == "not" and "," in text[tokens[at - 1].end : tokens[at].start]


def _refusal(text: str, tokens: list[Token]) -> list[Claim]:
    """ "..., so no milk in recipes please", "please no emojis", "No emojis please, and no exclamation
    marks": each polite "no" and what it refuses, from now on."""
    if not any(t.lower in _PLEASE for t in tokens):
        return []
    refused: list[Claim] = []
    for at, token in enumerate(tokens[:-1]):
        opens = (
            at == 0
            or tokens[at - 1].lower in _REFUSAL_OPENERS
            or "," in text[tokens[at - 1].end : token.start]
        )
        following = tokens[at + 1].lower
        if token.lower not in _REFUSALS or not opens or following in _THIS_ONE | _PLEASE | _FORMULAS:
            continue
        items = items_of(text, tokens[at + 1 :])
        if not items:
            continue
        lemmas = ["no", *(t.lemma for t in items[0])]
        if token.lower == "nothing":
            # "so nothing with shrimp please": what is refused is anything of the kind its phrase names.
            if following in _WITH:
                refused.append(_wish("wants", f"nothing {phrase_of(text, items[0])}", lemmas))
            continue
        refused.append(_wish("does not want", phrase_of(text, items[0]), lemmas))
    return refused


def _done(text: str, verb: str, after: list[Token], how: str) -> str | None:
    """ "describe charts with words" -> "charts described with words": what the wish is about, then what is
    to be done with it, as a person would write the wish. None when the verb has no noun-phrase
    object ("answer in French", "call me Jo", "keep it short")."""
    if verb in _NO_OBJECT_VERBS:
        return None
    if verb in _GIVING and after and after[0].lower in _RECEIVERS:
        # "don't give me the sleep hygiene lecture": the wish is about what the user would receive.
        return _done_to_user(text, after[1:])
    own = _NOUN_PHRASES if verb in _OFFERING else _NOUN_PHRASES - _WITH
    end = len(after)
    for at, token in enumerate(after):
        if at and "," in text[after[at - 1].end : token.start]:
            end = at
            break
        if token.lower in _OBJECT_ENDS or token.lower in _WITH - own:
            end = at
            break
        # "keep recipe suggestions | low-sugar": a plural noun ends the object unless a phrase of its own
        # follows it ("recipes with peanuts").
        if (
            plural_noun(token)
            and token.lower not in STOPWORDS
            and at + 1 < len(after)
            and after[at + 1].lower not in own
        ):
            end = at + 1
            break
    obj = after[:end]
    if not obj or any(t.lower in STOPWORDS and t.lower not in _NOUN_WORDS for t in obj):
        return None
    if obj[-1].lower in _NOUN_WORDS or verb in _COMPLEMENTED and end == len(after):
        return None  # "keep the tone casual": where the object ends is not known
    rest = phrase_of(text, after[end:])
    return " ".join(w for w in (phrase_of(text, obj), f"{how}{past_participle(verb)}", rest) if w)


def _done_to_user(text: str, after: list[Token]) -> str | None:
    items = items_of(text, after)
    if not items or items[0][0].lower in _THIS_ONE - _NOUN_WORDS:
        return None
    return phrase_of(text, items[0])


def _wish(wants: str, complement: str, lemmas: list[str]) -> Claim:
    """The stated wish, "in your answers" read as the assistant's own, filed under the request's words."""
    # "in your answers": the assistant's own answers, in the third person like the assistant.
    predicate = Predicate("want", wants, Aspect.BARE, _YOUR.sub("its", complement))
    return Claim(
        ClaimKind.PREFERENCE,
        Derivation.DIRECT,
        Longevity.DURABLE,
        Polarity.ASSERT,
        conflict_key("preference", ["request", *(w for w in lemmas if w not in STOPWORDS)]),
        predicate,
    )


def _called(text: str, tokens: list[Token]) -> list[Claim]:
    """ "just call me Jo", "Call me Sam, everyone does": the name the user wants to be called by."""
    for at in range(len(tokens) - 2):
        call, me, name = tokens[at : at + 3]
        if call.lower != "call" or me.lower != "me" or not name.text[:1].isupper() or name.lower in STOPWORDS:
            continue
        if at == 0 or tokens[at - 1].lower in _POLITE or "," in text[tokens[at - 1].end : call.start]:
            return [_wish("wants", f"to be called {name.text}", ["called", name.lower])]
    return []


def request_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """The wishes a standing instruction to the agent states, or nothing."""
    return [*_instruction_claims(text, tokens), *_called(text, tokens)]


def _instruction_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """The wish a standing instruction to the agent states, or nothing."""
    refused = _refusal(text, tokens)
    if refused:
        return refused
    at = _opening(text, tokens)
    while at < len(tokens) and tokens[at].lower in _POLITE:
        at += 1
    lowers = tuple(t.lower for t in tokens[at : at + 3])
    # "Going forward, don't suggest ...": the marker opens the instruction; the rest is read as it follows.
    at += next((len(marker) for marker in _FROM_NOW_ON if lowers[: len(marker)] == marker), 0)
    rest = tokens[at:]
    if len(rest) < 2:
        return []
    first, second = rest[0].lower, rest[1].lower
    wants = "wants"
    if first == "always":
        how, verb_at = "to always", 1
    elif first == "never":
        how, verb_at = "never to", 1
    elif first == "do" and second == "not" and len(rest) > 2 and rest[2].lower == "ever":
        how, verb_at = "never to", 3
    elif first == "do" and second == "not" and _standing(tokens) is not None:
        how, verb_at = "not to", 2
    elif _standing(tokens) is not None and first in _INSTRUCTING and _imperative(rest[0]):
        how, verb_at = "to", 0
    elif (kind := _named_kind(text, rest, tokens)) is not None:
        return [kind]
    elif (polite := _polite(text, rest, tokens)) is not None:
        negation, verb_at = polite
        how, wants = "to", ("does not want" if negation else "wants")
    else:
        return []
    items = items_of(text, rest[verb_at:])
    if not items:
        return []
    words = items[0]
    lemmas = [t.lemma for t in words]
    gerund = how == "to" and wants != "wants" and words[0].lower.endswith("ing")
    verb = _base(words[0]) if gerund else verb_lemma(words[0])
    refusing = wants != "wants" or how in ("never to", "not to")
    done = _done(text, verb, words[1:], "always " if how == "to always" else "")
    if done is not None:
        return [_wish("does not want" if refusing else "wants", done, lemmas)]
    if verb in _COMPLEMENTED:
        return []  # "make the font so small" cut before its complement says nothing whole
    # "stop adding summaries": the wish is that the assistant not add them.
    action = f"{verb} {phrase_of(text, words[1:])}".strip() if gerund else lowered(phrase_of(text, words))
    return [_wish(wants, f"the assistant {how} {action}", lemmas)]
