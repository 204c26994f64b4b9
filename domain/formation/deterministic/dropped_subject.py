"""Clauses that drop their "I": "Grew up in Lagos, moved to Manchester in 2015", "been restoring a 1972 bronco
with my dad", "Saving up for a house".

People leave the subject out when it is obviously themselves, mostly with a past ("grew up", "moved",
"worked"), a perfect progressive ("been restoring") or a progressive ("saving up"), unless it narrates the
moment ("Heading out", "Running late"). A clause opening with such a verb is read as if it opened with "I" and
goes through the clause-first path. The same opening with "it" left out ("Worked like a charm", "Broke again")
is told apart by what follows the verb: an object pronoun, "me", or a comparison means the thing, not the
user, did it. A base form opens an instruction ("Use metric units") and a third-person form a remark ("Sounds
good"); neither is read here, except a verb of feeling, which is the speaker's ("Hate winter.", "Love hiking";
not "Love it", "Love you guys"). A clause opening with a role ("Sous chef at a seafood place", "Retired nurse
here") is read as "I'm a ..." when nothing but a comma or a place follows the role, and one opening with a
limit ("Type 2 diabetic, ...", "Vegan.") as "I'm ...".
"""

import functools
import re
from enum import Enum

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_first import NAMESPACES, clause_first_claims
from domain.formation.deterministic.clause_words import FEELINGS, FILLERS
from domain.formation.deterministic.coordination import participle
from domain.formation.deterministic.inflection import IRREGULAR_PASTS
from domain.formation.deterministic.kinds import DEFAULT, classify
from domain.formation.deterministic.lexicon import names_an_occupation, persons
from domain.formation.deterministic.parsing import (
    PAST_FORMS,
    TIME_NOUNS,
    cut,
    is_number,
    lowered,
    parse_predicate,
    phrase_of,
    plural_noun,
)
from domain.formation.deterministic.topic_words import (
    LIMIT_ADJECTIVES,
    MORE_OCCUPATIONS,
    OCCUPATIONS,
    PARENTS,
    RELATIVES,
    names_a_person,
    names_an_agent,
)
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key

# The first word after a filler (of either case: "Just moved ..."), read before tokenizing: most clauses that
# get here open with no past.
_FIRST_WORD = re.compile(
    r"(?:(?i:so|and|also|oh|well|honestly|actually|ugh|yeah|then|btw|anyway|plus|ok|okay|k|just|recently|finally"
    r"|still)\b[\s,.]*)*"
    r"(?P<word>[A-Za-z]+)"
)
# Past forms that open a clause with its "I" left out, with the participles "been" and "born".
_OPENING_PASTS = IRREGULAR_PASTS | {"been", "born"}
# Verbs of feeling in their base form leave out "I": "Hate winter.", "Love hiking"; "like" is a filler.
_FEELINGS = FEELINGS - {"like"}
# Base forms that leave out "I" when they say where or how the user lives or works, with the words that may
# follow them so: "Live on a narrowboat", "Work from home", "Work nights".
_LIVING: dict[str, frozenset[str]] = {
    "live": frozenset({"in", "on", "at", "near", "with", "alone", "abroad", "outside"}),
    "work": frozenset(
        {"in", "at", "from", "as", "for", "nights", "days", "evenings", "weekends", "remotely"}
    ),
}
# Participles that leave out "I was": "Born and raised in Glasgow".
_PASSIVES = frozenset({"born", "raised"})
_FILLERS = frozenset(
    {
        "so",
        "and",
        "also",
        "oh",
        "well",
        "honestly",
        "actually",
        "ugh",
        "yeah",
        "then",
        "btw",
        "anyway",
        "plus",
    }
    | {"ok", "okay", "k"}
    # An adverb of time before the verb: "Just moved to Denver", "Still living with my parents".
    | {"just", "recently", "finally", "still"}
)
# After the verb these mean something else was the subject: "Worked like a charm", "Fixed it".
_NOT_THE_USER = frozenset(
    {"it", "that", "this", "these", "those", "them", "him", "her", "you", "your", "me", "like", "fine"}
    | {"great", "well", "out", "off"}
)
# Pasts that narrate a moment or an errand, or whose left-out subject is a thing ("Happened to me too").
_MOMENT = frozenset(
    {"get", "go", "see", "say", "tell", "try", "forget", "mean", "think", "ask", "find", "happen", "seem"}
    | {"look", "sound", "turn", "end", "fail", "crash", "break"}
)


# A gerund opens a dropped "I'm" only before its object or particle ("Saving up", "Training for a 10k");
# before anything else it is a noun ("birdwatching and chess", "gaming mostly").
_GERUND_OBJECTS = frozenset(
    {"to", "for", "up", "on", "a", "an", "the", "my", "our", "some", "with", "out", "into", "at", "in"}
    | {"about", "through", "towards", "toward", "this", "two", "three"}
)
_ROLES = OCCUPATIONS | MORE_OCCUPATIONS
# What may follow a limit the user lives within: "Allergic to shellfish", "Vegan here".
_LIMIT_NEXT = frozenset({"to", "here", "btw", "now", "since"})
_ROLE_WORDS = 3
# What may follow a role: where it is done ("at a seafood place") or the speaker's "here".
_ROLE_PLACES = frozenset({"at", "in", "for", "here", "from", "with", "by", "on"})
_OPENING_WORDS = _ROLES | LIMIT_ADJECTIVES | PARENTS
# The prepositions of a role's place that also say when ("at 3", "on Friday"), and times without a number.
_WHEN = frozenset({"at", "on", "in"})
_CLOCK = frozenset({"noon", "midday", "midnight", "lunch", "lunchtime", "tomorrow", "tonight"})
_TIME_DETERMINERS = frozenset({"the", "this", "next"})
_OWN = frozenset({"my", "our"})
_WORD = re.compile(r"[a-z]+")
# Distinct opening words remembered: a user's vocabulary, bounded so a stream of new words cannot grow it.
_WORD_CACHE = 65_536
# Three words of a role phrase fit in this many characters of the clause's opening.
_ROLE_CHARS = 60
_SPANS = frozenset({"year", "decade", "month", "yr", "yrs"})
_SPAN_WORDS = 4  # "for a couple of years"
# "Been there for 5 years": a pointer, not a state.
_POINTING = frozenset({"there", "here", "it", "that"})
# Gerunds only an infinitive follows, whose "to" opens an aim: "Trying to ...", "Hoping to ...".
_AIMING = frozenset({"trying", "hoping"})
# What "trying to" works out in the moment: "Trying to figure out ...", "Trying to remember ...".
_WORKING_OUT = frozenset(
    {"figure", "remember", "recall", "decide", "understand", "find", "think", "work"}
    | {"hear", "see", "talk", "chat", "meet"}  # "Hoping to hear back soon"
)
# Gerunds that narrate the moment when their "I'm" is left out: "Heading out", "Running late".
_PASSING = frozenset({"head", "run", "wait", "come", "leave", "be", "check", "feel", "wonder", "hope"})


def opens_with_past(body: str) -> bool:
    """Whether a clause may open with a verb or a role whose "I" was left out: the cheap test before
    tokenizing."""
    match = _FIRST_WORD.match(body)
    if match is None:
        return False
    word = match["word"].lower()
    if word.endswith(("ed", "ing")) or word in _OPENING_PASTS or word in _FEELINGS or word in _LIVING:
        return True
    # A role among the first words, or a kind of person before any function word ("Security guard at ...",
    # not "some old soul"): one cached reading a word, since this runs for most clauses without "I".
    open_phrase = True
    for word in _WORD.findall(body[:_ROLE_CHARS].lower())[:_ROLE_WORDS]:
        reading = _opening_word(word)
        if reading is _Opening.ROLE:
            return True
        if open_phrase:
            if reading is _Opening.FUNCTION:
                open_phrase = False
            elif reading is _Opening.PERSON:
                return True
    return False


class _Opening(Enum):
    """What one of a clause's first words says about a left-out "I'm"."""

    ROLE = 1  # a role, a limit or a parent wherever it stands among the first words
    PERSON = 2  # a kind of person (not a relative), a role only before any function word
    FUNCTION = 3  # a function word, which ends the phrase a kind of person may open
    OTHER = 4


@functools.lru_cache(maxsize=_WORD_CACHE)
def _opening_word(word: str) -> _Opening:
    """The reading of a lower-cased word, once per word: names_an_agent lemmatizes two or three forms of it."""
    if word in _OPENING_WORDS or names_a_person(word) or names_an_agent(word):
        return _Opening.ROLE
    if word in STOPWORDS:
        return _Opening.FUNCTION
    return _Opening.PERSON if _a_kind_of_person(word) else _Opening.OTHER


def _a_kind_of_person(word: str) -> bool:
    """ "guard", "picker", "cpa": a noun whose most frequent sense is a kind of person, a role when the user
    is one; a relative is a person of the user's ("Husband at work"), not what they are."""
    return word in persons() and word not in RELATIVES


def _role(text: str, tokens: list[Token], at: int) -> list[Claim]:
    """ "Sous chef at a seafood place in Portland", "Retired nurse here": a role with "I'm a" left out, its
    noun phrase (at most three words, the role last) followed by nothing, a comma or a place; or a limit
    with "I'm" left out ("Type 2 diabetic, ...", "Allergic to shellfish")."""
    for end in range(at, min(at + _ROLE_WORDS, len(tokens))):
        token = tokens[end]
        limit = token.lower in LIMIT_ADJECTIVES
        parent = _parent_of_some(tokens, end)  # "dad of 3 boys": the role's phrase goes on after "of"
        # A capital inside the phrase is a people's or a place's name ("Mostly Basque, some Catalan").
        person = _a_kind_of_person(token.lower) and (
            end == at or not token.text[:1].isupper() or token.text.isupper()
        )
        named = token.lemma in _ROLES or token.lower in _ROLES or names_a_person(token.lower) or person
        # An agent noun not named as a role ("Bus driver, 14 years") is no job when placed by the user's own
        # thing: "Charger for my laptop" is "charge" + "-er".
        agent = not named and names_an_agent(token.lower) and not _by_own_thing(tokens, end)
        if parent or limit or named or agent:
            after = tokens[end + 1] if end + 1 < len(tokens) else None
            if (
                not parent
                and after is not None
                and after.lower not in (_LIMIT_NEXT if limit else _ROLE_PLACES)
                and "," not in text[token.end : after.start]
            ) or _appointment(tokens, end + 1):
                return []
            kept = cut(tokens[at:], text)
            while kept and (kept[-1].lower in FILLERS or kept[-1].lower == "here"):
                kept.pop()
            # "Type 1 diabetic since I was 8": the role or limit itself, not since when.
            kept = kept[: next((i for i, t in enumerate(kept) if t.lower == "since"), len(kept))]
            if any(t.lemma == "be" for t in kept[end - at + 1 :]):
                return []  # "Nurse at the desk was rude", "Chef at a bistro is my dream": the role is a subject
            words = [t.lemma for t in kept if t.lemma not in STOPWORDS]
            kind, longevity = classify("be", Aspect.SIMPLE, frozenset(words))
            if person and (kind, longevity) == DEFAULT and names_an_occupation(token.lower):
                # "Locksmith, 20 years": a position held; "Introvert." is a kind of person too, but no position.
                kind, longevity = ClaimKind.ROLE, Longevity.ONGOING
            noun = lowered(phrase_of(text, kept))
            article = "" if limit else "an " if noun[:1].lower() in "aeiou" else "a "
            predicate = Predicate("be", "is", Aspect.BARE, f"{article}{noun}")
            subject = conflict_key(NAMESPACES[kind], ["be", *words])
            return [Claim(kind, Derivation.DIRECT, longevity, Polarity.ASSERT, subject, predicate)]
        if token.lower in STOPWORDS:
            return []
    return []


def _appointment(tokens: list[Token], at: int) -> bool:
    """ "Dentist at 3, then groceries", "Hairdresser on Friday": a role's noun followed by when, not where, is
    an appointment with one, not what the user is."""
    if at + 1 >= len(tokens) or tokens[at].lower not in _WHEN:
        return False
    when = tokens[at + 1]
    if when.lower in _TIME_DETERMINERS and at + 2 < len(tokens):
        when = tokens[at + 2]  # "in the morning", "on the weekend"
    return when.lower[:1].isdigit() or is_number(when) or when.lemma in TIME_NOUNS or when.lower in _CLOCK


def _by_own_thing(tokens: list[Token], at: int) -> bool:
    """ "... for my laptop", "... on our fridge": a place that is the user's own thing."""
    return at + 2 < len(tokens) and tokens[at + 2].lower in _OWN


def _parent_of_some(tokens: list[Token], at: int) -> bool:
    """ "dad of 3 boys", "mum of twins": a parent of some the user has, not of someone ("Dad of the bride")."""
    if tokens[at].lower not in PARENTS or at + 2 >= len(tokens) or tokens[at + 1].lower != "of":
        return False
    count = tokens[at + 2]
    return is_number(count) or plural_noun(count) and count.lower not in STOPWORDS


def _opening(tokens: list[Token]) -> int | None:
    at = 0
    while at < len(tokens) and tokens[at].lower in _FILLERS:
        at += 1
    if at + 1 >= len(tokens):
        return None
    first = tokens[at]
    # "Got laid off last spring": "got" before a participle is a change of state, not an errand, and its
    # particle is the participle's.
    changed = first.lower == "got" and participle(tokens[at + 1])
    if not changed and any(t.lower in _NOT_THE_USER for t in tokens[at + 1 : at + 4]):
        return None
    if first.lower in _PASSIVES:
        return at
    if first.lower == "been":
        # "been restoring a '68 Mustang"; "Been a smoker for 20 years": a state since some time ("Been a
        # while" has none).
        if tokens[at + 1].lower.endswith("ing"):
            return at
        return at if tokens[at + 1].lower not in _POINTING and _lasting(tokens[at + 2 :]) else None
    if first.lower.endswith("ing"):
        # "Saving up for a house": what the user is doing these days, not "Speaking of which".
        lemma = verb_lemma(first)
        ongoing = (
            lemma != first.lower and lemma not in _MOMENT and lemma not in _PASSING or _aiming(tokens, at)
        )
        return at if ongoing and tokens[at + 1].lower in _GERUND_OBJECTS else None
    if first.lower in _LIVING:
        # "Live on a narrowboat", "Work from home mostly": where or how the user lives or works, which no
        # instruction to the agent asks ("Work through this with me" is one).
        return at if tokens[at + 1].lower in _LIVING[first.lower] else None
    if first.lower in _FEELINGS:
        # "Hate winter.": a feeling is the speaker's, never an instruction; "Hate to bother you" is a formula.
        return at if tokens[at + 1].lower != "to" else None
    lemma = PAST_FORMS.get(first.lower) or verb_lemma(first)
    if lemma == first.lower or lemma in _MOMENT and not changed or first.lower.endswith(("s", "ing")):
        return None
    return at


def _lasting(words: list[Token]) -> bool:
    """Whether a phrase says how long in the units of a life: "for 20 years", "for a few months", "since
    2015"; not "for 20 minutes"."""
    for at, token in enumerate(words[:-1]):
        if (
            token.lower == "since"
            or token.lower == "for"
            and any(t.lemma in _SPANS for t in words[at + 1 : at + 1 + _SPAN_WORDS])
        ):
            return True
    return False


def _aiming(tokens: list[Token], at: int) -> bool:
    """ "Trying to eat better on the road", "Hoping to retire at 55": an aim the user pursues, not the
    moment's errand ("Trying the app now", "Trying to figure out what to cook tonight")."""
    return (
        tokens[at].lower in _AIMING
        and at + 2 < len(tokens)
        and tokens[at + 1].lower == "to"
        and tokens[at + 2].lemma not in _WORKING_OUT
    )


def dropped_subject_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """The claims of a clause whose "I" was left out, or nothing."""
    start = next((i for i, t in enumerate(tokens) if t.lower not in _FILLERS), len(tokens))
    # A role first: "Retired nurse here" is "I'm a retired nurse", not "I retired ...".
    role = _role(text, tokens, start)
    at = _opening(tokens) if not role else None
    if at is None:
        return role
    # The verb opens a sentence: its capital is the sentence's ("Grew up in Lagos"). Only the clause is
    # copied to lower it, with its tokens' offsets moved to the copy: copying the whole event for each such
    # clause cost quadratic time on a long turn of them.
    first = tokens[at]
    base = first.start
    text = text[base].lower() + text[base + 1 : tokens[-1].end]
    # Built as tuples directly, the verb already lowered: a named tuple's _replace, or a second copy of the
    # list to replace its first word, costs several times as much.
    predicate = [tuple.__new__(Token, (first.lower, first.lower, first.lemma, 0, first.end - base))]
    predicate += [
        tuple.__new__(Token, (t[0], t[1], t[2], t[3] - base, t[4] - base)) for t in tokens[at + 1 :]
    ]
    if predicate[0].lower in _PASSIVES:
        # "Born and raised in Glasgow" is "I was born and raised in Glasgow".
        predicate = [predicate[0]._replace(lower="was", lemma="be"), *predicate]
    elif predicate[0].lower == "been":
        # "been restoring ..." is "I've been restoring ...".
        predicate = [predicate[0]._replace(lower="have", lemma="have"), *predicate]
    elif predicate[0].lower.endswith("ing"):
        # "Saving up for a house" is "I'm saving up for a house".
        predicate = [predicate[0]._replace(lower="am", lemma="be"), *predicate]
    parse = parse_predicate(predicate)
    if parse is None or parse.modal is not None or parse.negated:
        return []
    return clause_first_claims(text, parse)
