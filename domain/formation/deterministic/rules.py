"""The claim rules over one affirmative first-person predicate, in the order they are tried."""

from collections.abc import Callable

from domain.formation.clauses import Clause
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.habits import habit_claims, history_claims
from domain.formation.deterministic.identity import (
    household_claims,
    occupation_claims,
    relationship_claims,
    resource_claims,
    role_claims,
    skill_claims,
)
from domain.formation.deterministic.parsing import Parse
from domain.formation.deterministic.predicate_words import (
    DISLIKE_VERBS,
    ROLE_VERBS,
    SOFTWARE_GERUNDS,
    STATE_VERBS,
    TEACHING_VERBS,
)
from domain.formation.deterministic.preferences import (
    interest_claims,
    interest_more_claims,
    preference_claims,
)
from domain.formation.deterministic.pursuits import goal_claims, project_claims, status_claims
from domain.formation.deterministic.states import limit_claims, state_claims
from domain.formation.rendering import Aspect

_ALWAYS = None
# Each rule with the verb lemmas it can fire on (None: it reads every predicate). A copula ("I am ...",
# also behind an adverb) is tried by the rules that read it; the rest are skipped by one set lookup, which
# keeps the added vocabulary from costing throughput.
_RULES: tuple[tuple[Callable[[str, Parse], list[Claim]], frozenset[str] | None, bool], ...] = (
    (project_claims, _ALWAYS, False),
    (limit_claims, frozenset({"avoid", "have", "need"}), False),
    (goal_claims, _ALWAYS, False),
    (occupation_claims, frozenset({"work", "be"}), False),
    (role_claims, ROLE_VERBS | TEACHING_VERBS, True),
    (interest_claims, _ALWAYS, False),
    (interest_more_claims, frozenset({"get"}), True),
    (relationship_claims, frozenset({"have"}), False),
    (household_claims, frozenset({"live"}), True),
    (preference_claims, DISLIKE_VERBS | {"prefer", "rather"}, False),
    (skill_claims, SOFTWARE_GERUNDS | {"learn", "speak", "know", "have", "spend"}, True),
)
_STATE_LEMMAS = STATE_VERBS | {"get", "feel"}


def predicate_claims(text: str, clause: Clause, parse: Parse, region_end: int) -> list[Claim]:
    """Every rule over one affirmative first-person predicate, most specific first."""
    lemma = parse.lemma
    copula = lemma == "be" or parse.progressive and not parse.verb.lower.endswith("ing")
    limited = "only" in parse.adverbs
    for rule, lemmas, reads_copula in _RULES:
        # "I can only ..." and "I only have ..." are limits whatever the verb; "rather" is in the
        # preference rule's own lemmas.
        if lemmas is None or lemma in lemmas or reads_copula and copula or limited and rule is limit_claims:
            claims = rule(text, parse)
            if claims:
                return claims
    if lemma in _STATE_LEMMAS:
        claims = state_claims(text, parse, region_end)
        if claims:
            return claims
    claims = status_claims(text, clause, parse)
    if claims:
        return claims
    claims = history_claims(text, parse, region_end)
    habits = (
        habit_claims(text, parse, region_end)
        if not any(c.predicate.aspect is not Aspect.SIMPLE for c in claims if c.predicate.verb != "have")
        else []
    )
    claims.extend(habits)
    if claims:
        return claims
    return resource_claims(text, parse)
