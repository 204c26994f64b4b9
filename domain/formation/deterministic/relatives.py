"""Clauses about the user's family: "my <relative> ..." rewritten with the relative as the holder, also when
phone typing leaves the "my" out ("Grandkids are coming this weekend", "Wife teaches third grade").

"My daughter just started university in Leeds" forms "User's daughter just started university in Leeds."
through the clause-first rewrite, and "she"/"he" later in the clause keeps that holder ("... and she works
crazy hours"), as does one after a comma once the relative's own predicate stated something ("My son is
autistic, he's 7"). A relative the user mentions in a statement also forms that the user has one ("my wife and
I ...", "my sister's wedding"), except parents, which everyone has. Someone else's words ("my boss said
...") and clauses that open a question form nothing.
"""

import re

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_first import (
    item_claim,
    opens_question,
    predicate_items,
)
from domain.formation.deterministic.clause_words import NOT_ASSERTING
from domain.formation.deterministic.inflection import simple_past
from domain.formation.deterministic.parsing import is_number, parse_predicate, plural_noun
from domain.formation.deterministic.topic_words import RELATIVES
from domain.formation.equivalence import NUMBER_WORDS
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key, third_person

KIN = RELATIVES | frozenset(
    {
        "kid",
        "twin",
        "grandkid",
        "grandchild",
        "grandson",
        "granddaughter",
        "grandma",
        "grandpa",
        "grandparent",
        "fiance",
        "fiancé",
        "fiancee",
        "ex",
        "stepson",
        "stepdad",
        "stepmom",
        "stepmum",
        "stepfather",
        "stepmother",
        "stepbrother",
        "stepsister",
        "stepdaughter",
        "niece",
        "nephew",
        "cousin",
        "aunt",
        "uncle",
        "brother-in-law",
        "sister-in-law",
        "mother-in-law",
        "father-in-law",
        "baby",
        "toddler",
        "teen",
        "teenager",
    }
)
# Everyone has these: mentioning one says nothing new about the user.
_PARENTS = frozenset(
    {"mother", "mom", "mum", "father", "dad", "parent", "grandmother", "grandfather", "grandma", "grandpa"}
    | {"grandparent", "aunt", "uncle", "cousin", "mother-in-law", "father-in-law", "ex"}
)
_PRONOUNS = frozenset({"she", "he", "they"})
_AFTER_COMPLEMENT = frozenset(
    {"with", "about", "at", "in", "on", "from", "for", "to", "and", "but", "so", "again", "now", "today"}
)
_MALE = frozenset(
    {"father", "dad", "grandfather", "grandpa", "son", "brother", "husband", "boyfriend", "uncle", "nephew"}
    | {"stepson", "grandson", "fiance", "stepdad", "stepfather", "stepbrother"}
)
_FEMALE = frozenset(
    {"mother", "mom", "mum", "grandmother", "grandma", "daughter", "sister", "wife", "girlfriend", "aunt"}
    | {"niece", "stepdaughter", "granddaughter", "fiancee", "stepmom", "stepmum", "stepmother", "stepsister"}
)
_FIRST_WORD = re.compile(r"\W*([A-Za-z-]+)")
_STATING = frozenset({"is", "are", "was", "were", "has", "have", "'s"})
_ADVERBS = frozenset({"just", "still", "finally", "also", "recently", "now", "usually", "always", "never"})
_PLURAL_AUX = {"is": "are", "has": "have", "was": "were", "does": "do"}
# Adverbs a verb phrase may open with before the verb that agrees: "still live", "usually go".
_BEFORE_VERB = frozenset(
    {"still", "also", "usually", "always", "never", "often", "sometimes", "just", "both", "all", "now"}
    | {"mostly", "only", "really", "even", "already"}
)
_MAX_NOUN_PHRASE = 3
# After these a fitting pronoun is still the relative whose statement they qualify: "My dad still helps
# out at planting even though he's 81".
_REASONS = frozenset({"though", "although", "because", "since", "cause", "cuz"})
_PHRASE_ENDS = (",", ";", ":", "(", ")", ".", "!", "?")
# One of the user's children or grandchildren by age, standing for the noun: "my youngest", "the eldest".
_ORDINALS = frozenset({"youngest", "eldest", "oldest"})
_DYING = frozenset({"die", "pass"})
_BEFORE_DYING = frozenset({"has", "had", "just", "sadly", "recently"})
# What opens the object of "passed" when the relative passed something ("passed his test", "passed the bar").
_OBJECT_OPENERS = frozenset({"a", "an", "the", "his", "her", "their", "my", "our", "its", "all", "both"})
# What opens a clause whose statement holds, unlike "if" or "when" ("if my wife finds out").
_ASSERTING_SUBORDINATORS = frozenset({"since", "because", "cause", "cuz", "after"})


_COPULA_NEXT = frozenset(
    {"a", "an", "the", "been", "not", "so", "very", "really", "still", "always", "never"}
    # A preposition never follows a possessive "'s": "she's with me on weekdays", "he's in college".
    | {"with", "in", "at", "from", "on", "home", "away", "back", "out"}
)


def verb_start(tokens: list[Token]) -> list[Token] | None:
    """The predicate after a holder, with "'s" read as "is" where a complement follows ("my husband's a
    firefighter", "he's 7") and as a possessive otherwise ("my sister's wedding"); None when no verb follows."""
    if not tokens or tokens[0].lower in ("and", "or", "&", "who", "that", "which"):
        return None
    if tokens[0].lower != "'s":
        return tokens
    after = tokens[1] if len(tokens) > 1 else None
    # "my wife's pregnant with our second", "my dad's retired": a word that ends the phrase or takes a
    # preposition is a complement; "my sister's wedding was ..." is a possessive.
    closing = len(tokens) == 2 or tokens[2].lower in _AFTER_COMPLEMENT
    # A noun in -ing with its own verb after it is possessed: "my sister's wedding was lovely".
    gerund = (
        after is not None
        and after.lower.endswith("ing")
        and not (len(tokens) > 2 and tokens[2].lemma in ("be", "have"))
    )
    if after is None or not (after.lower in _COPULA_NEXT or gerund or after.lower.isdigit() or closing):
        return None
    return [tokens[0]._replace(lower="is", lemma="be"), *tokens[1:]]


def _gone(named: list[Token], tokens: list[Token], head: int) -> bool:
    """ "my late husband", "my wife died", "my husband Ted passed in 2019": a relative who died is no longer
    had; "my son passed his driving test" passed something."""
    if any(t.lower == "late" for t in named):
        return True
    at = head + 1
    while at < len(tokens) and (
        tokens[at].text[:1].isupper() and tokens[at].lower != "i" or tokens[at].lower in _BEFORE_DYING
    ):
        at += 1  # the relative's name, "has", "just"
    if at == len(tokens) or tokens[at].lemma not in _DYING:
        return False
    return at + 1 == len(tokens) or tokens[at + 1].lower not in _OBJECT_OPENERS


def _has_claim(words: list[Token], name: str = "") -> Claim:
    """ "User has a teenage daughter." from "my teenage daughter", with the words the user put before them;
    "User has a brother named Omar." from "my brother Omar"."""
    word = words[-1]
    noun = " ".join(t.lower for t in words) + (f" named {name}" if name else "")
    plural = word.lower.endswith("s") and word.lemma != word.lower or words[0].lower.isdigit()
    article = "" if plural or words[0].lower in NUMBER_WORDS else "an " if noun[:1] in "aeiou" else "a "
    predicate = Predicate("have", "has", Aspect.SIMPLE, f"{article}{noun}")
    return Claim(
        ClaimKind.RELATIONSHIP,
        Derivation.DIRECT,
        Longevity.DURABLE,
        Polarity.ASSERT,
        conflict_key("relationship", [word.lemma]),
        predicate,
    )


def _name_after(text: str, tokens: list[Token], head: int) -> str:
    """The name the user gives a relative right after the relative's word ("with my brother Omar"), if one;
    "my brother, Persian pastries mostly" names none."""
    if head + 1 >= len(tokens) or not text[tokens[head].end : tokens[head + 1].start].isspace():
        return ""
    typed = tokens[head + 1].text
    named = typed.isalpha() and typed[:1].isupper() and typed[1:].islower() and typed != "I"
    return typed if named and (head + 2 == len(tokens) or not tokens[head + 2].text[:1].isupper()) else ""


_OWN_WISHES = frozenset({"want", "need"})
_ABOUT_OTHERS = frozenset({"me", "us", "you", "him", "her", "them"})
_ASKING = frozenset({"know", "see", "talk", "ask", "speak", "hear", "meet", "say", "tell"})


def _pronoun_of(relative: str) -> str | None:
    return "he" if relative in _MALE else "she" if relative in _FEMALE else None


def _said(tokens: list[Token]) -> bool:
    """Whether the holder's predicate is words or thoughts, not a fact: "says ...", "thinks ..."; a want or a
    need of their own is a fact about them ("wants to take over the farm", "needs a new hip"), one about the
    user or the conversation ("wants me to ...", "wants to know ...") is not."""
    for at, token in enumerate(tokens[:2]):
        if token.lemma not in NOT_ASSERTING:
            continue
        if token.lemma not in _OWN_WISHES or at + 1 >= len(tokens):
            return True
        after = [t.lower for t in tokens[at + 1 : at + 3]]
        if after[0] in _ABOUT_OTHERS or after[0] == "to" and after[1:2] and after[1] in _ASKING:
            return True
    return False


def held_claims(
    text: str, tokens: list[Token], holder: str, plural: bool, kin: bool = True, record: bool = True
) -> list[Claim]:
    """The claims of the predicate after a holder ("User's daughter", "User's band"), its verb agreeing
    with a plural holder ("User's kids are 4 and 7"); without record, a perfect that sums up the holder's
    own past ("has trained most of his life") states nothing."""
    predicate = verb_start(tokens)
    if predicate is None or _said(predicate):
        return []
    parse = parse_predicate(predicate)
    if parse is None:
        return []
    items = [item for item in predicate_items(text, parse) if record or item.aspect is not Aspect.PERFECT]
    if plural:
        for item in items:
            item.verb_phrase = _plural(item.verb_phrase, item.lemma)
    return [item_claim(text, item, holder=holder, kin=kin) for item in items]


def _plural(verb_phrase: str, lemma: str) -> str:
    """The verb agreeing with a plural holder, past the adverbs before it ("User's parents still live")."""
    words = verb_phrase.split(" ")
    at = 0
    while at + 1 < len(words) and words[at] in _BEFORE_VERB:
        at += 1
    head = words[at]
    if head in _PLURAL_AUX:
        words[at] = _PLURAL_AUX[head]
    elif head == third_person(lemma) and head != lemma:
        words[at] = lemma
    else:
        return verb_phrase
    return " ".join(words).strip()


def _continues(text: str, before: Token, pronoun: Token, stated: bool) -> bool:
    """A pronoun continues the relative's statement after "and"/"but" ("... and she works crazy hours"), or
    after a comma once the relative's own predicate stated something ("My son is autistic, he's 7"); a
    relative in a compound subject ("My ex and I share custody of our daughter, she's ...") states nothing
    of its own, and the pronoun may be someone else."""
    return (
        before.lower in ("and", "but")
        or stated
        and ("," in text[before.end : pronoun.start] or before.lower in _REASONS)
    )


def _had(tokens: list[Token], at: int) -> tuple[str, str | None] | None:
    """The relatives "I have" names at at ("I have two daughters, twins, they are 5"), and the pronoun a
    later statement about them after a comma would use; None when no relative follows."""
    words: list[Token] = []
    for token in tokens[at + 1 : at + 1 + _MAX_NOUN_PHRASE]:
        if token.lemma in KIN:
            plural = plural_noun(token)
            noun = " ".join([*(t.lower for t in words), token.lower])
            return f"User's {noun}", "they" if plural else _pronoun_of(token.lemma)
        if token.lower not in ("a", "an") and not is_number(token):
            words.append(token)
    return None


def _the_eldest(tokens: list[Token], at: int) -> bool:
    """ "I have three kids and the youngest has a peanut allergy": "the" before an ordinal stands for "my"
    once the clause has named the user's relatives."""
    return (
        tokens[at].lower == "the"
        and at + 1 < len(tokens)
        and tokens[at + 1].lower in _ORDINALS
        and any(t.lemma in KIN for t in tokens[:at])
    )


def opens_with_kin(body: str) -> bool:
    """The cheap test before tokenizing: whether a clause's first word names a relative ("Grandkids are
    ...", "Wife works nights")."""
    match = _FIRST_WORD.match(body)
    return match is not None and (match[1].lower() in KIN or match[1].lower().removesuffix("s") in KIN)


def _fits(pronoun: str, relative: Token) -> bool:
    """Whether a pronoun may stand for the relative: "they" for relatives in the plural ("my sister has two
    boys, they are 4 and 7" is the boys), the fitting one for a relative of known sex, any for a partner."""
    if pronoun not in _PRONOUNS:
        return False
    if plural_noun(relative):
        return pronoun == "they"
    sex = _pronoun_of(relative.lemma)
    return pronoun == sex if sex is not None else True


def _particular(relative: Token, predicate: list[Token]) -> bool:
    """Whether a bare relative's noun names the user's own: a singular one always ("Wife teaches ..."); a
    plural one when what follows is an age or what they are doing ("Twins are 18 months", "Grandkids are
    coming"), not a remark on all of them ("Kids are so expensive", "Teenagers are the worst")."""
    if not plural_noun(relative):
        return True
    following = predicate[1] if len(predicate) > 1 else None
    return following is not None and (following.lower.endswith("ing") or is_number(following))


def _states(predicate: list[Token]) -> bool:
    """A finite verb right after a bare relative's noun, an adverb allowed before it: "are", "has", or a
    verb in -s or a past with words after it ("Husband works nights", "Stepson just turned 15"; "Baby
    steps." is a noun)."""
    if predicate[0].lower in _ADVERBS and len(predicate) > 1:
        predicate = predicate[1:]
    token = predicate[0]
    if token.lower in _STATING:
        return True
    lemma = verb_lemma(token)
    past = token.lower.endswith("ed") or token.lower == simple_past(lemma)
    tensed = token.lower == third_person(lemma) or past
    return token.lower != lemma and token.lower not in STOPWORDS and tensed and len(predicate) > 1


def relative_claims(text: str, tokens: list[Token]) -> list[Claim]:
    """Claims about the relatives a clause names with "my" (or "our": "Our daughter starts college in the
    fall"), and that the user has them."""
    # Every claim below follows a relative's word; most clauses with "my" name none.
    if KIN.isdisjoint([t.lemma for t in tokens]) or opens_question(tokens):
        return []
    claims: list[Claim] = []
    holder = ""
    noun: Token | None = None  # the holder's relative word, which a continuing pronoun must fit
    stated = False  # whether the relative's own predicate formed a claim, so a later "he" is likely them
    first = tokens[0]
    if first.lemma in KIN and len(tokens) > 1 and _states(tokens[1:]) and _particular(first, tokens[1:]):
        # "Grandkids are coming this weekend", "Twins are 18 months now": phone typing leaves out "my".
        if first.lemma not in _PARENTS:
            claims.append(_has_claim([first]))
        holder, noun = f"User's {first.lower}", first
        held = held_claims(text, tokens[1:], holder, plural_noun(first))
        stated = bool(held)
        claims.extend(held)
    mentioned: tuple[str, str | None] | None = None  # a relative named inside the clause, and their pronoun
    for at, token in enumerate(tokens):
        if (
            noun is not None
            and _fits(token.lower, noun)
            and at
            and _continues(text, tokens[at - 1], token, stated)
        ):
            # The verb agrees with the relative: a partner's singular "they work" is "User's partner works".
            claims.extend(held_claims(text, tokens[at + 1 :], holder, plural_noun(noun)))
            continue
        if (
            mentioned is not None
            and token.lower == mentioned[1]
            and at
            and "," in text[tokens[at - 1].end : token.start]
        ):
            claims.extend(held_claims(text, tokens[at + 1 :], mentioned[0], mentioned[1] == "they"))
            mentioned = None
            continue
        if token.lower in ("have", "has") and at and tokens[at - 1].lower == "i":
            mentioned = _had(tokens, at) or mentioned
            continue
        if token.lower not in ("my", "our") and not _the_eldest(tokens, at):
            continue
        head = next(
            (
                j
                for j in range(at + 1, min(at + 1 + _MAX_NOUN_PHRASE, len(tokens)))
                if tokens[j].lemma in KIN
                or tokens[j].lower in _ORDINALS
                and _states(tokens[j + 1 :] or [tokens[j]])
            ),
            None,
        )
        if head is not None and any(mark in text[token.end : tokens[head].start] for mark in _PHRASE_ENDS):
            continue  # "my apartment, mostly kids": the relative is not in this noun phrase
        if head is None:
            continue
        named = tokens[at + 1 : head + 1]
        if any(t.lower == "'s" for t in named):
            continue  # "my roommate's sister" is someone else's relative
        if (
            tokens[head].lemma not in _PARENTS
            and tokens[head].lower not in _ORDINALS
            and not _gone(named, tokens, head)
        ):
            claims.append(_has_claim(named, _name_after(text, tokens, head)))
        # "Since my wife died two years ago I live alone": a reason or a time asserts its own clause, which
        # ends where the user's own begins.
        subordinate = at > 0 and tokens[at - 1].lower in _ASSERTING_SUBORDINATORS
        starts_clause = (
            at == 0
            or subordinate
            or tokens[at - 1].lower in ("and", "so", "but", "ugh", "well", "oh", "now")
            or any(mark in text[tokens[at - 1].end : token.start] for mark in (",", ":"))
        )
        if not starts_clause and not stated:
            # "I'm the caretaker for my grandfather, he has Parkinson's": a later "he" or "she" after a
            # comma is this relative when the pronoun fits them.
            mentioned = ("User's " + " ".join(t.lower for t in named), _pronoun_of(tokens[head].lemma))
        if starts_clause:
            # "My partner Sam is a chef": the name after the relative is theirs, not a verb.
            end = head + 1
            while (
                end < min(head + 3, len(tokens))
                and tokens[end].text[:1].isupper()
                and tokens[end].lower != "i"
            ):
                end += 1
            noun = tokens[head]
            holder = "User's " + " ".join(t.lower for t in tokens[at + 1 : head + 1])
            holder = " ".join([holder, *(t.text for t in tokens[head + 1 : end])])
            stop = len(tokens)
            if subordinate:
                stop = next((j for j in range(end, len(tokens)) if tokens[j].lower == "i"), stop)
            held = held_claims(text, tokens[end:stop], holder, plural_noun(tokens[head]))
            stated = bool(held)
            claims.extend(held)
    return claims
