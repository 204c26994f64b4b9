"""Clauses about the user's things, places and groups: "my <thing> ..." rewritten with the thing as holder.

"Our startup sells refurbished lab equipment" forms "User's startup sells refurbished lab equipment.", and
"my sleep schedule is a mess" forms "User's sleep schedule is a mess.": whatever the noun, a clause that
opens with "my"/"our" and a short noun phrase, then a finite verb, says something about what the user has,
runs or belongs to. Relatives are read by relatives (with their own kind). The people of the user's work
and life are held the same way ("my landlord is raising the rent" forms "User's landlord is raising the
rent."), and so is their dated change ("my boss quit last week"), but not their words or thoughts ("my boss
said ...", "my friend thinks I should ...") nor their life's record ("my coach has trained most of his
life", "my friend restarted 5x5 after years of calisthenics"). The words that name the conversation ("my
question is ...", "my guess is ...") form nothing, nor does the body (possessives reads a condition only
when it recurs).
"""

from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_words import LIFE_EVENT_DATES, PAST_MARKERS, SAME_FORM_PAST
from domain.formation.deterministic.coordination import participle
from domain.formation.deterministic.possessives import BODY_HINTS
from domain.formation.deterministic.relatives import KIN, held_claims
from domain.formation.deterministic.topic_words import OCCUPATIONS, POSITIONS
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import third_person

_MAX_NOUN_PHRASE = 3
_DATED = LIFE_EVENT_DATES | PAST_MARKERS
_OPENERS = frozenset({"my", "our"})
_CLAUSE_STARTS = frozenset({"and", "so", "but", "ugh", "well", "oh", "now", "also", "plus", "because"})
_FINITE = frozenset({"is", "are", "was", "were", "has", "have", "had", "'s", "keeps", "needs"})
# People of the user's life a noun after "my" may name.
PEOPLE = (
    OCCUPATIONS
    | POSITIONS
    | {"boss", "friend", "neighbor", "neighbour", "landlord", "landlady", "advisor", "adviser", "colleague"}
    | {"coworker", "co-worker", "roommate", "flatmate", "housemate", "mentor", "supervisor", "client"}
    | {"customer", "tenant", "vet", "gp", "tutor", "instructor", "employer", "buddy", "mate", "pal"}
)
# Nouns about the conversation or a passing thought, and the body (read by possessives when it recurs);
# sleep, energy and mood are the user's own ("my sleep schedule is a mess").
_NOT_HELD = (BODY_HINTS - {"sleep", "energy", "mood"}) | frozenset(
    {
        "question",
        "point",
        "guess",
        "bad",
        "thought",
        "idea",
        "concern",
        "issue",
        "problem",
        "error",
        "message",
        "answer",
        "reply",
        "response",
        "request",
        "prompt",
        "opinion",
        "understanding",
        "impression",
        "take",
        "apology",
        "favorite",
        "favourite",
        "goal",
        "aim",
        "plan",
        "objective",
        "hope",
        "dream",
        "wish",
        "worry",
        "fear",
    }
)


def _not_a_thing(token: Token) -> bool:
    """A relative (read by relatives) or a word the clause holds nothing of."""
    return token.lemma in KIN or token.lemma in _NOT_HELD or token.lower in _NOT_HELD


def _verb_at(tokens: list[Token], start: int) -> int | None:
    """Where the finite verb after a short noun phrase stands, or None."""
    for at in range(start + 1, min(start + 1 + _MAX_NOUN_PHRASE, len(tokens))):
        token = tokens[at]
        if token.lower in _FINITE:
            return at
        if token.lower in STOPWORDS and token.lower not in ("'s",):
            return None
        lemma = verb_lemma(token)
        following = tokens[at + 1].lower if at + 1 < len(tokens) else ""
        # "sells" after the noun, where a plural noun ("my kids are") would be followed by its own verb.
        if token.lower != lemma and token.lower == third_person(lemma) and following not in _FINITE:
            return at if at > start + 1 else None
        # A past is the verb even before another ("my friend asked 'are you ...'"): the noun phrase ends
        # there.
        if at > start + 1 and _past(token):
            return at
    return None


def _past(token: Token) -> bool:
    """A past after the noun: "my boss quit", "my landlord sold ..."; right after "my" it would be the noun's
    adjective ("my used car", "my best friend")."""
    return token.lower not in _FINITE and (participle(token) or token.lower in SAME_FORM_PAST)


def _named(tokens: list[Token], at: int) -> list[Token]:
    """The short noun phrase after "my" at at, up to its first function word: "my commute" -> commute."""
    end = at + 1
    while end < min(at + 1 + _MAX_NOUN_PHRASE, len(tokens)) and tokens[end].lower not in STOPWORDS:
        end += 1
    return tokens[at + 1 : end]


def _holder(noun: list[Token]) -> str:
    """ "User's" and the noun phrase, lower-cased but for a name ("my friend Dan" -> "User's friend Dan"):
    after "my" no word is capitalised for opening a sentence."""
    words = (t.text if t.text[:1].isupper() and not t.text.isupper() else t.lower for t in noun)
    return "User's " + " ".join(words)


def belonging_claims(text: str, tokens: list[Token], formed: set[str]) -> list[Claim]:
    """Claims about the things a clause names with "my"/"our" at a clause's start, or names anywhere and
    then calls "it" after a comma ("I'm so tired of my commute, it's 90 minutes each way"); holders in
    formed (by the possessive patterns) are left to them."""
    claims: list[Claim] = []
    mentioned: list[Token] = []  # the last thing named with "my" inside the clause
    for at, token in enumerate(tokens):
        if token.lower == "it" and mentioned and at and "," in text[tokens[at - 1].end : token.start]:
            holder = _holder(mentioned)
            claims.extend(held_claims(text, tokens[at + 1 :], holder, False, kin=False))
            mentioned = []
            continue
        if token.lower not in _OPENERS:
            continue
        named = _named(tokens, at)
        if named and not any(_not_a_thing(t) or t.lemma in PEOPLE or t.lower in PEOPLE for t in named):
            mentioned = named
        starts = (
            at == 0 or tokens[at - 1].lower in _CLAUSE_STARTS or "," in text[tokens[at - 1].end : token.start]
        )
        verb = _verb_at(tokens, at) if starts else None
        if verb is None:
            continue
        noun = tokens[at + 1 : verb]
        head = noun[-1]
        if any(_not_a_thing(t) for t in noun):
            continue
        holder = _holder(noun)
        if holder in formed:
            continue
        plural = head.lower.endswith("s") and head.lemma != head.lower
        # What a person of the user's life is doing or is now bears on the user; their life's record
        # ("my coach has trained most of his life", "my mentor has written four books") is their own.
        person = any(t.lemma in PEOPLE or t.lower in PEOPLE for t in noun)
        if person and _past(tokens[verb]) and not any(t.lower in _DATED for t in tokens[verb + 1 :]):
            # A person's dated change bears on the user ("my boss quit last week"); their undated past is
            # their own story ("my friend restarted 5x5 after years of calisthenics").
            continue
        claims.extend(held_claims(text, tokens[verb:], holder, plural, kin=False, record=not person))
    return claims
