"""What the user is, said before the clause's subject: "As the treasurer of our association, I ...", "As
someone who's been in HR for fifteen years, I ...", "In my role as a school counselor I ...".

The opening phrase states a position held or an experience; the rest of the clause ("I can tell you most
résumés are terrible") is read on its own. "As someone who ..." carries a predicate of its own, rewritten
through the clause-first path as if it opened with "I".
"""

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_first import clause_first_claims
from domain.formation.deterministic.clause_words import MAX_ITEM_WORDS
from domain.formation.deterministic.parsing import parse_predicate, phrase_of
from domain.formation.deterministic.topic_words import MORE_OCCUPATIONS, OCCUPATIONS, PARENTS, names_a_person
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key

_SOMEONE = frozenset({"someone", "somebody", "one", "a person", "person"})
_WHO = frozenset({"who", "that"})
_CAPACITIES = frozenset({"role", "job", "work", "capacity", "position"})
# A phrase closed by a comma names a position in at most this many words.
_MAX_CLOSED_WORDS = 6
# "As a result", "As a side note", "As a kid I ...", "As a family, we ...": the discourse's phrases, a
# childhood and a group the user belongs to, not a position the user holds.
_NOT_POSITIONS = frozenset(
    {"result", "matter", "reminder", "example", "rule", "whole", "note", "aside", "consequence", "fact"}
    | {"kid", "child", "teenager", "teen", "boy", "girl", "baby", "youngster", "toddler"}
    | {"family", "couple", "team", "group", "company", "society", "country", "nation", "household"}
)


def _introduction(text: str, tokens: list[Token], start: int) -> int | None:
    """Where an "As ..." phrase ends: at the subject after it, with or without a comma ("As a mom I worry"),
    or at its comma whatever follows ("As a nurse, what's the best way ...?"), or None."""
    for index in range(start + 1, min(len(tokens), MAX_ITEM_WORDS)):
        if tokens[index].lower in ("i", "im") and tokens[index].text[:1] in ("I", "i"):
            return index
        if "," in text[tokens[index - 1].end : tokens[index].start]:
            return index if index - start <= _MAX_CLOSED_WORDS else None
    return None


def _as_at(tokens: list[Token]) -> int | None:
    """Where the phrase's "as" stands: first, or after "In my role"/"In my job" ("In my role as a school
    counselor I see ..."); "Being" before a role stands for it."""
    if tokens[0].lower == "as":
        return 0
    if tokens[0].lower == "being" and _names_a_role(tokens[1:4]):
        return 0  # "Being a teacher, I have summers off"; not "Being a pain, I know, ..."
    lowers = [t.lower for t in tokens[:4]]
    if lowers[:2] == ["in", "my"] and lowers[2] in _CAPACITIES and lowers[3] == "as":
        return 3
    return None


def _names_a_role(words: list[Token]) -> bool:
    return any(
        t.lemma in OCCUPATIONS or t.lemma in MORE_OCCUPATIONS or t.lower in PARENTS or names_a_person(t.lower)
        for t in words
    )


def _participle(token: Token) -> bool:
    low = token.lower
    return low == "been" or verb_lemma(token) != low and not low.endswith(("ing", "s"))


def _experience(text: str, words: list[Token]) -> list[Claim]:
    """ "someone who's been in HR for fifteen years": the relative clause's predicate, the user its subject."""
    at = 2 if words[0].lower in ("a", "an") else 1
    if len(words) <= at + 1 or words[at].lower not in _WHO:
        return []
    predicate = words[at + 1 :]
    if predicate[0].lower == "'s":
        # "who's been", "who's lived" are "who has ..."; "who's a nurse" is "who is a nurse".
        lemma = "have" if len(predicate) > 1 and _participle(predicate[1]) else "be"
        predicate = [
            predicate[0]._replace(lower="has" if lemma == "have" else "is", lemma=lemma),
            *predicate[1:],
        ]
    parse = parse_predicate(predicate)
    return clause_first_claims(text, parse) if parse is not None else []


def position_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """A position held or an experience, introduced before the clause's subject."""
    if len(tokens) < 4 or tokens[0].lower not in ("as", "in", "being"):
        return []
    at = _as_at(tokens)
    subject = _introduction(text, tokens, at + 1) if at is not None else None
    if at is None or subject is None:
        return []
    words = tokens[at + 1 : subject]
    if words[0].lower in _SOMEONE or words[0].lower in ("a", "an") and words[1].lower in _SOMEONE:
        return _experience(text, words)
    if words[0].lower not in ("a", "an", "the", "my") or any(t.lemma in _NOT_POSITIONS for t in words):
        return []
    lemmas = [t.lemma for t in words if t.lemma not in STOPWORDS]
    predicate = Predicate("be", "is", Aspect.BARE, phrase_of(text, words))
    return [
        Claim(
            ClaimKind.ROLE,
            Derivation.DIRECT,
            Longevity.ONGOING,
            Polarity.ASSERT,
            conflict_key("role", lemmas),
            predicate,
        )
    ]
