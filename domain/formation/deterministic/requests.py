"""Standing requests to the agent: an instruction that says it holds beyond this answer forms the stated wish.

"Please never book me flights before 9am" forms "User wants the assistant never to book them flights
before 9am."; "Always answer me in bullet points" forms "User wants the assistant to always answer them in
bullet points."; "please keep recipe suggestions low-sugar" and "Use metric units please" form "User wants the
assistant to keep recipe suggestions low-sugar." and "... to use metric units."; "Could you stop adding
summaries?" forms "User does not want the assistant to add summaries."; "so no milk in recipes please"
forms "User does not want milk in recipes."; "Vegan recipes please", with no verb, forms "User wants vegan
recipes.". A polite instruction is standing
when its object is a kind of thing ("charts", "metric units"), not one thing of this conversation ("explain
that again", "write me a cover letter", "make it shorter"), and an instruction about the current answer
alone ("Give me three ideas") carries no such marker and forms nothing.
"""

import re

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_words import ITEM_VERBS
from domain.formation.deterministic.coordination import is_number, items_of
from domain.formation.deterministic.parsing import phrase_of
from domain.formation.deterministic.predicate_words import LIMIT_TARGETS
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key

_MAX_KIND_WORDS = 4
_POLITE = frozenset({"please", "pls", "plz", "and", "also", "oh", "ok", "okay", "so", "just"})
_PLEASE = frozenset({"please", "pls", "plz"})
_ASKING_YOU = frozenset({"could", "can", "would", "will"})
_FROM_NOW_ON = (("from", "now", "on"), ("going", "forward"), ("in", "future"), ("in", "the", "future"))
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
)
# "No worries", "no problem": a formula of the conversation, not a refusal.
_FORMULAS = frozenset(
    {"worries", "worry", "problem", "problems", "thanks", "idea", "way", "rush", "pressure", "clue", "need"}
    | {"offense", "offence", "biggie", "doubt", "matter", "prob", "probs", "kidding", "joke", "one"}
)
_YOUR = re.compile(r"\byour\b", re.IGNORECASE)
# Hints of the forms read here, on the clause folded to lower case (the always/never forms are hinted by
# the former).
HINTS = ("please", "pls", "plz", "stop")


def _standing(tokens: list[Token]) -> bool:
    lowers = [t.lower for t in tokens]
    return any(
        tuple(lowers[i : i + len(marker)]) == marker for marker in _FROM_NOW_ON for i in range(len(lowers))
    )


def _lowered(words: str) -> str:
    """An imperative's capital is the sentence's, not the word's: "Keep it short" -> "keep it short"."""
    return words[:1].lower() + words[1:] if words[1:2].islower() else words


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
    if at + 1 >= len(rest) or not any(t.lower in _PLEASE for t in tokens):
        return None
    first, second = rest[at], rest[at + 1].lower
    if first.lower not in _INSTRUCTING or not _imperative(first) or first.lower in _TASKS:
        return None
    if second in _THIS_ONE or second in _PLEASE:
        return None
    if "," in text[first.end : rest[at + 1].start]:
        return None  # "Hey, quick question": a greeting, not a verb
    return negation, at


def _named_kind(text: str, rest: list[Token], tokens: list[Token]) -> Claim | None:
    """ "Vegan recipes please", "Short answers please": a polite request with no verb wants the kind of
    thing it names; one thing of this conversation ("the check please", "two more please") is no kind."""
    if not any(t.lower in _PLEASE for t in tokens) or rest[0].lower in _INSTRUCTING:
        return None
    words: list[Token] = []
    for token in rest:
        if token.lower in _PLEASE:
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
    return _wish("wants", _lowered(phrase_of(text, words)), [t.lemma for t in words])


def _opening(text: str, tokens: list[Token]) -> int:
    """Where an instruction starts: after "could you", at the clause's start, or after "please"."""
    lowers = [t.lower for t in tokens]
    for at, low in enumerate(lowers[:-2]):
        if low in _ASKING_YOU and lowers[at + 1] == "you":
            return at + 2
    # "Use metric units please, I'm in Germany"; "Hey, ..." is a greeting, not a verb.
    if _imperative(tokens[0]) and (len(tokens) < 2 or "," not in text[tokens[0].end : tokens[1].start]):
        return 0
    return next((at for at, low in enumerate(lowers) if low in _PLEASE and at + 2 < len(lowers)), 0)


def _refusal(text: str, tokens: list[Token]) -> list[Claim]:
    """ "..., so no milk in recipes please": a polite "no" and what it refuses, from now on."""
    if not any(t.lower in _PLEASE for t in tokens):
        return []
    for at, token in enumerate(tokens[:-1]):
        opens = (
            at == 0
            or tokens[at - 1].lower in ("so", "and", "but")
            or "," in text[tokens[at - 1].end : token.start]
        )
        following = tokens[at + 1].lower
        if token.lower != "no" or not opens or following in _THIS_ONE | _PLEASE | _FORMULAS:
            continue
        items = items_of(text, tokens[at + 1 :])
        if not items:
            return []
        return [_wish("does not want", phrase_of(text, items[0]), ["no", *(t.lemma for t in items[0])])]
    return []


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


def request_claims(text: str, tokens: list[Token]) -> list[Claim]:
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
    elif first == "do" and second == "not" and _standing(tokens):
        how, verb_at = "not to", 2
    elif _standing(tokens) and rest[0].lemma == rest[0].lower and rest[0].lower not in STOPWORDS:
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
    if how == "to" and wants != "wants" and words[0].lower.endswith("ing"):
        # "stop adding summaries": the wish is that the assistant not add them.
        action = f"{_base(words[0])} {phrase_of(text, words[1:])}".strip()
    else:
        action = _lowered(phrase_of(text, words))
    return [_wish(wants, f"the assistant {how} {action}", [t.lemma for t in words])]
