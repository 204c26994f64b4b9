"""gate.memory.scorer_symmetric: distillation-scorer@7 cannot be fooled.

A belief that elaborates beyond, negates, recounts, reverses the direction of, swaps the arguments of, or
names a sibling activity of a gold claim never matches, in either direction (each row is scored with either
statement as the gold), and a generic user subject never matches a specific conflict key. The positive table
keeps the scorer honest the other way: inflections, compound subjects, lemma variants, qualifiers, a
negation inside a subordinate circumstance and the three-quarters rule still match.

Watched failing on purpose, each break undone after: with absence_conditions (domain/formation/negation.py)
returning an empty set, the four absence and exception rows failed; with denies() reading every negation
word of the statement instead of its main clause, the "negation moved out of the circumstance" row and the
"negation inside a circumstance qualifies" positive row failed; with the one-for-one swap check of
evals/claim_statement.py skipped, the five sibling and other-object rows matched through the three-quarters
rule and failed.
"""

import pytest
from pydantic import ValidationError

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.policy.versions import DISTILLATION_SCORER
from evals.reasons import Reason
from evals.scorer import FormedBelief, GoldExpectation, score, score_statement

# (what the pair tries, subject key both sides carry, one statement, the other, the reason expected)
ADVERSARIAL: list[tuple[str, str, str, str, Reason]] = [
    # Elaborations that change the claim.
    ("added frequency", "activity:lifting", "User lifts weights.", "User lifts weights twice a week.",
     Reason.COUNT_DIFFERS),
    ("added time target", "goal:marathon", "User wants to run a marathon.",
     "User wants to run a marathon in under four hours.", Reason.COUNT_DIFFERS),
    ("added exception", "activity:coffee", "User drinks coffee every morning.",
     "User drinks coffee every morning except on weekends.", Reason.ABSENCE_CONDITION_DIFFERS),
    # Negations, scoped to the main clause.
    ("plain negation", "activity:cycling", "User cycles to work.", "User does not cycle to work.",
     Reason.NEGATION_DIFFERS),
    ("no longer", "constraint:meat", "User no longer eats meat.", "User eats meat.", Reason.NEGATION_DIFFERS),
    # "cannot" is one word: no apostrophe splits it into "can" + "not".
    ("cannot", "skill:swimming", "User cannot swim.", "User can swim.", Reason.NEGATION_DIFFERS),
    ("fronted circumstance without comma", "habit:cooking", "When travelling User does not cook.",
     "When travelling User cooks.", Reason.NEGATION_DIFFERS),
    ("negation moved out of the circumstance", "activity:cycling",
     "User cycles to work when it is not raining.", "User does not cycle to work when it is raining.",
     Reason.NEGATION_DIFFERS),
    # Added or removed absence conditions.
    ("without", "preference:coffee", "User drinks coffee.", "User drinks coffee without sugar.",
     Reason.ABSENCE_CONDITION_DIFFERS),
    ("-free", "habit:baking", "User bakes bread on Sundays.", "User bakes gluten-free bread on Sundays.",
     Reason.ABSENCE_CONDITION_DIFFERS),
    ("another absence", "preference:coffee", "User drinks coffee without sugar.",
     "User drinks coffee without milk.", Reason.ABSENCE_CONDITION_DIFFERS),
    # Different counts or distances.
    ("distance", "activity:running", "User runs 5 km every Sunday.", "User runs 10 km every Sunday.",
     Reason.COUNT_DIFFERS),
    ("frequency", "habit:training", "User trains three times a week.", "User trains twice a week.",
     Reason.COUNT_DIFFERS),
    ("large number", "project-fact:startup-customers", "User's startup has 5,000 customers.",
     "User's startup has 50,000 customers.", Reason.LARGE_NUMBER_DIFFERS),
    # Reversed comparisons or origins.
    ("more or less", "goal:outdoor-time", "User wants to spend more time outdoors with their kids on weekends.",
     "User wants to spend less time outdoors with their kids on weekends.", Reason.COMPARISON_REVERSED),
    ("before or after", "habit:sleep", "User sleeps before midnight on weeknights.",
     "User sleeps after midnight on weeknights.", Reason.COMPARISON_REVERSED),
    ("preferred over", "preference:tea", "User prefers tea over coffee.", "User prefers coffee over tea.",
     Reason.COMPARISON_REVERSED),
    ("origin", "project-fact:move-berlin", "User moved from Munich to Berlin in 2019.",
     "User moved from Berlin to Munich in 2019.", Reason.ORIGIN_REVERSED),
    # Swapped arguments.
    ("who tutors whom", "relationship:son", "User's son tutors user's niece in math.",
     "User's niece tutors user's son in math.", Reason.ARGUMENTS_SWAPPED),
    ("who earns more", "relationship:brother", "User earns more than their brother.",
     "User's brother earns more than user.", Reason.ARGUMENTS_SWAPPED),
    ("who taught whom", "relationship:wife", "User's wife taught user to climb.",
     "User taught their wife to climb.", Reason.ARGUMENTS_SWAPPED),
    # Sibling activities, in statements long enough that three quarters of the lemmas are shared.
    ("swim or run", "activity:laps", "User swims laps at the community pool every Tuesday and Thursday morning.",
     "User runs laps at the community pool every Tuesday and Thursday morning.", Reason.SIBLING_ACTIVITY),
    ("tennis or squash", "activity:racket-sports", "User plays tennis with their brother on Saturday mornings.",
     "User plays squash with their brother on Saturday mornings.", Reason.SIBLING_ACTIVITY),
    ("yoga or pilates", "habit:monday-class", "User does yoga on Monday evenings.",
     "User does pilates on Monday evenings.", Reason.SIBLING_ACTIVITY),
    ("piano or violin", "relationship:daughter", "User's daughter practises piano every evening.",
     "User's daughter practises violin every evening.", Reason.SIBLING_ACTIVITY),
    ("another city", "project-fact:home-city", "User lives in Berlin with their partner and two cats near the river.",
     "User lives in Munich with their partner and two cats near the river.", Reason.OBJECT_DIFFERS),
]  # fmt: skip

# (what the pair shows, gold subject, gold statement, belief subject, belief statement)
POSITIVE: list[tuple[str, str, str, str, str]] = [
    ("progressive and simple", "project:personal-ai-agent", "User is building a personal AI agent.",
     "project:personal-ai-agent", "User builds a personal AI agent."),
    ("perfect and perfect progressive", "activity:weightlifting", "User has been lifting weights for six years.",
     "activity:weightlifting", "User has lifted weights for six years."),
    ("compound subject", "activity:lifting-weights", "User lifts weights three times a week.",
     "activity:weightlifting", "User lifts weights three times a week."),
    ("compound subject, reversed", "activity:weightlifting", "User lifts weights three times a week.",
     "activity:lifting-weights", "User lifts weights three times a week."),
    ("inflected subject", "activity:swimming", "User swims on Sundays.", "activity:swim",
     "User goes swimming on Sundays."),
    ("hyphenated compound", "skill:software-development", "User likely has software-development experience.",
     "skill:software-development", "User likely has software development experience."),
    ("bare qualifier", "project:personal-ai-agent", "User is building a personal AI agent.",
     "project:personal-ai-agent", "User is currently building a personal AI agent."),
    ("richer wording", "activity:cycling", "User cycles to work.", "activity:cycling",
     "User cycles to work along the canal."),
    ("negation inside a circumstance qualifies", "activity:cycling", "User cycles to work.",
     "activity:cycling", "User cycles to work when it is not raining."),
    ("three quarters, one dropped", "project:personal-ai-agent",
     "User is building a personal AI agent to manage their calendar and email.", "project:personal-ai-agent",
     "User is building a personal AI agent to manage their calendar."),
    ("three quarters, one dropped and one added", "habit:gym",
     "User lifts heavy weights at the gym three times a week.", "habit:gym",
     "User lifts weights at their local gym three times a week."),
    ("large number on one side only", "habit:lifting", "User has been lifting weights since 2019.",
     "habit:lifting", "User has been lifting weights since 2019 at home."),
]  # fmt: skip


def _gold(subject: str, statement: str) -> GoldExpectation:
    return GoldExpectation(
        claim_kind=ClaimKind.HABIT,
        derivation=Derivation.DIRECT,
        longevity=Longevity.ONGOING,
        subject=subject,
        statements=(statement,),
        compatible_kinds=(ClaimKind.PROJECT_FACT, ClaimKind.ONGOING_PROJECT),
    )


def _belief(subject: str, statement: str, **fields: object) -> FormedBelief:
    values: dict[str, object] = {
        "claim_kind": ClaimKind.HABIT,
        "derivation": Derivation.DIRECT,
        "longevity": Longevity.ONGOING,
        "subject": subject,
        "statement": statement,
        "polarity": Polarity.ASSERT,
    }
    return FormedBelief.model_validate(values | fields)


@pytest.mark.parametrize(
    ("tries", "subject", "one", "other", "reason"), ADVERSARIAL, ids=[r[0] for r in ADVERSARIAL]
)
def test_adversarial_pair_never_matches_in_either_direction(
    tries: str, subject: str, one: str, other: str, reason: Reason
) -> None:
    for gold, belief in ((one, other), (other, one)):
        assert score(_gold(subject, gold), _belief(subject, belief)).reason is reason, tries
        assert score_statement(_gold(subject, gold), _belief(subject, belief)).reason is reason, tries


def test_every_listed_kind_of_adversarial_pair_is_in_the_table() -> None:
    listed = {
        Reason.COUNT_DIFFERS,
        Reason.LARGE_NUMBER_DIFFERS,
        Reason.NEGATION_DIFFERS,
        Reason.ABSENCE_CONDITION_DIFFERS,
        Reason.COMPARISON_REVERSED,
        Reason.ORIGIN_REVERSED,
        Reason.ARGUMENTS_SWAPPED,
        Reason.SIBLING_ACTIVITY,
        Reason.OBJECT_DIFFERS,
    }
    assert {row[4] for row in ADVERSARIAL} == listed


@pytest.mark.parametrize(
    ("shows", "gold_subject", "gold", "belief_subject", "belief"), POSITIVE, ids=[r[0] for r in POSITIVE]
)
def test_the_claim_stated_another_way_matches(
    shows: str, gold_subject: str, gold: str, belief_subject: str, belief: str
) -> None:
    result = score(_gold(gold_subject, gold), _belief(belief_subject, belief))
    assert (result.match, result.reason) == (True, Reason.MATCH), shows
    assert result.scorer == DISTILLATION_SCORER == "distillation-scorer@7"


@pytest.mark.parametrize("subject", ["user", "User", "the user", "me", "person:user", "profile:self"])
def test_the_user_bucket_never_names_a_specific_key(subject: str) -> None:
    statement = "User swims laps at the community pool every Tuesday morning."
    result = score(_gold("activity:swimming", statement), _belief(subject, statement))
    assert (result.match, result.reason) == (False, Reason.USER_SUBJECT)
    with pytest.raises(ValidationError):
        _gold(subject, statement)


def test_sibling_activity_under_its_own_key_is_another_subject_both_ways() -> None:
    swims, runs = "User swims three times a week.", "User runs three times a week."
    assert score(_gold("activity:swimming", swims), _belief("activity:running", runs)).reason is (
        Reason.SUBJECT_DIFFERS
    )
    assert score(_gold("activity:running", runs), _belief("activity:swimming", swims)).reason is (
        Reason.SUBJECT_DIFFERS
    )
    assert score_statement(_gold("activity:swimming", swims), _belief("activity:running", runs)).reason is (
        Reason.SIBLING_ACTIVITY
    )


def test_closed_fields_decide_before_the_statement() -> None:
    subject, statement = "habit:gym", "User lifts weights at the gym three times a week."
    gold = _gold(subject, statement)
    hypothesis: dict[str, object] = {"derivation": Derivation.HYPOTHESIS, "longevity": Longevity.TENTATIVE}
    cases: list[tuple[dict[str, object], Reason]] = [
        (hypothesis, Reason.DERIVATION_DIFFERS),
        ({"longevity": Longevity.DURABLE}, Reason.LONGEVITY_DIFFERS),
        ({"claim_kind": ClaimKind.SKILL}, Reason.KIND_INCOMPATIBLE),
        ({"claim_kind": ClaimKind.PROJECT_FACT, "longevity": Longevity.DURABLE}, Reason.MATCH),
        ({"polarity": Polarity.RETRACT}, Reason.POLARITY_DIFFERS),
    ]
    for fields, reason in cases:
        assert score(gold, _belief(subject, statement, **fields)).reason is reason, fields
    assert score(gold, _belief("activity:painting", statement)).reason is Reason.SUBJECT_DIFFERS
    # The controls are scored on the statement alone: the closed fields do not count.
    assert score_statement(gold, _belief("user", statement, claim_kind=ClaimKind.SKILL)).match


def test_any_statement_alternative_matches() -> None:
    gold = _gold("habit:gym", "User lifts weights three times a week.").model_copy(
        update={
            "statements": (
                "User lifts weights three times a week.",
                "User trains at the gym three times a week.",
            )
        }
    )
    assert score(gold, _belief("habit:gym", "User trains at the gym three times a week.")).match
    result = score(gold, _belief("habit:gym", "User trains at the gym twice a week."))
    assert (result.match, result.reason) == (False, Reason.COUNT_DIFFERS)


def test_gold_labels_follow_the_reference() -> None:
    with pytest.raises(ValidationError):
        GoldExpectation(
            claim_kind=ClaimKind.SKILL,
            derivation=Derivation.HYPOTHESIS,
            longevity=Longevity.TENTATIVE,
            subject="skill:software-development",
            statements=("User likely has software-development experience.",),
            compatible_kinds=(ClaimKind.PROJECT_FACT,),
        )
    four_kinds = [ClaimKind.PROJECT_FACT, ClaimKind.ONGOING_PROJECT, ClaimKind.GOAL, ClaimKind.RESOURCE]
    with pytest.raises(ValidationError):
        GoldExpectation.model_validate(
            _gold("habit:gym", "User lifts weights.").model_dump() | {"compatible_kinds": four_kinds}
        )
