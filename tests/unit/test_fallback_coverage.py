"""Table-driven recall of the formation@9 deterministic fallback over ordinary first-person statements.

Every expectation was written by hand from the utterance, not copied from the former's output: it names the
claim kind (the primary kind of the spec's claim-shape table first, then the kinds it lists as compatible),
the derivation, and words the canonical statement must carry. Near-miss negatives must form nothing.
"""

from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.candidates import ClaimKind, Derivation, MemoryCandidate, Polarity
from domain.events import SourceEvent, SourceEventKind
from domain.formation.deterministic.former import fallback_candidates
from domain.formation.rendering import has_uncertainty

SESSION = UUID("22222222-3333-4444-8555-666666666666")
AT = datetime(2026, 9, 2, 10, 0, tzinfo=UTC)

K = ClaimKind
DIRECT = Derivation.DIRECT
HYPOTHESIS = Derivation.HYPOTHESIS

# Kinds a belief of each shape may carry (spec, "Evaluation and activation evidence", claim-shape table).
PROJECT = (K.ONGOING_PROJECT, K.PROJECT_FACT, K.GOAL)
GOAL = (K.GOAL, K.ONGOING_PROJECT)
ROLE = (K.ROLE, K.SKILL, K.PROJECT_FACT)
SKILL = (K.SKILL, K.PROJECT_FACT)
LEARNING = (K.SKILL, K.ONGOING_PROJECT, K.GOAL)
INTEREST = (K.INTEREST, K.PREFERENCE)
HABIT = (K.HABIT, K.PROJECT_FACT, K.RECURRING_STATE)
CONSTRAINT = (K.CONSTRAINT, K.PREFERENCE, K.PROJECT_FACT)
STATE = (K.RECURRING_STATE, K.PROJECT_FACT, K.HABIT)
RELATIONSHIP = (K.RELATIONSHIP, K.PROJECT_FACT, K.RECURRING_STATE)
PREFERENCE = (K.PREFERENCE, K.CONSTRAINT, K.GOAL)
RESOURCE = (K.RESOURCE, K.PROJECT_FACT)
PROJECT_FACT = (K.PROJECT_FACT, K.RESOURCE)


@dataclass(frozen=True, slots=True)
class Case:
    label: str  # the primary kind the case exercises, for the per-kind report
    text: str
    kinds: tuple[ClaimKind, ...]
    derivation: Derivation
    words: tuple[str, ...]  # lower-case words the statement must carry


CASES: list[Case] = [
    # --- ongoing_project ----------------------------------------------------------------------------
    Case("ongoing_project", "I'm building a personal AI agent.", PROJECT, DIRECT, ("building", "ai agent")),
    Case(
        "ongoing_project",
        "I'm working on a mobile app for tracking my runs.",
        PROJECT,
        DIRECT,
        ("working on", "mobile app"),
    ),
    Case(
        "ongoing_project", "Right now I'm renovating our kitchen.", PROJECT, DIRECT, ("renovating", "kitchen")
    ),
    Case(
        "ongoing_project",
        "Can you help with the outline? I'm writing a novel about my grandmother.",
        PROJECT,
        DIRECT,
        ("writing a novel", "grandmother"),
    ),
    Case(
        "ongoing_project",
        "I've been restoring an old sailboat since last summer.",
        PROJECT,
        DIRECT,
        ("restoring", "sailboat"),
    ),
    Case(
        "ongoing_project",
        "I'm currently setting up a home lab with two Raspberry Pis.",
        PROJECT,
        DIRECT,
        ("setting up", "home lab"),
    ),
    # --- goal ---------------------------------------------------------------------------------------
    Case(
        "goal",
        "Today I want it to help me with my training. I'm training for a half marathon in October.",
        GOAL,
        DIRECT,
        ("training for", "half marathon", "october"),
    ),
    Case("goal", "I want to learn Spanish before my trip to Peru.", GOAL, DIRECT, ("learn spanish",)),
    Case("goal", "My goal is to lose ten pounds by summer.", GOAL, DIRECT, ("lose ten pounds",)),
    Case(
        "goal",
        "I'm trying to get better at public speaking.",
        GOAL,
        DIRECT,
        ("get better at public speaking",),
    ),
    Case("goal", "I hope to run a marathon under four hours next year.", GOAL, DIRECT, ("run a marathon",)),
    Case("goal", "I'm saving up for a house.", GOAL, DIRECT, ("saving", "house")),
    Case(
        "goal",
        "Is it realistic that I'm aiming to read 30 books this year?",
        GOAL,
        DIRECT,
        ("read 30 books",),
    ),
    # --- role ---------------------------------------------------------------------------------------
    Case("role", "I work as a nurse at the city hospital.", ROLE, DIRECT, ("nurse",)),
    Case("role", "I'm a product manager at a fintech startup.", ROLE, DIRECT, ("product manager",)),
    Case("role", "I'm the treasurer of my running club.", ROLE, DIRECT, ("treasurer", "running club")),
    Case("role", "I lead the data platform team at Acme.", ROLE, DIRECT, ("leads", "data platform team")),
    Case(
        "role",
        "For context, I teach high school chemistry, so keep it practical.",
        ROLE,
        DIRECT,
        ("teaches", "chemistry"),
    ),
    Case("role", "I'm a software engineer.", ROLE, DIRECT, ("software engineer",)),
    # --- skill --------------------------------------------------------------------------------------
    Case("skill", "I've been playing guitar for ten years.", SKILL, DIRECT, ("guitar", "ten years")),
    Case("skill", "I speak fluent German.", SKILL, DIRECT, ("speaks", "german")),
    Case("skill", "I'm fluent in Spanish and Portuguese.", SKILL, DIRECT, ("fluent", "spanish")),
    Case("skill", "I have a black belt in judo.", SKILL, DIRECT, ("black belt", "judo")),
    Case("skill", "I know Python and SQL pretty well.", SKILL, DIRECT, ("knows", "python")),
    Case("skill", "I'm learning to play the piano.", LEARNING, DIRECT, ("learning", "piano")),
    Case(
        "skill",
        "I spend my days debugging Kubernetes clusters.",
        SKILL,
        HYPOTHESIS,
        ("software",),
    ),
    Case(
        "skill",
        "I'm building a personal AI agent.",
        SKILL,
        HYPOTHESIS,
        ("likely", "software-development"),
    ),
    Case(
        "skill",
        "Grading is taking forever, my students keep missing the deadline.",
        SKILL,
        HYPOTHESIS,
        ("teaching",),
    ),
    # --- interest -----------------------------------------------------------------------------------
    Case("interest", "I'm really interested in bird photography.", INTEREST, DIRECT, ("bird photography",)),
    Case(
        "interest", "I love Japanese jazz from the seventies.", INTEREST, DIRECT, ("loves", "japanese jazz")
    ),
    Case("interest", "I'm into bouldering these days.", INTEREST, DIRECT, ("bouldering",)),
    Case(
        "interest", "I'm a big fan of science fiction novels.", INTEREST, DIRECT, ("fan", "science fiction")
    ),
    Case("interest", "Lately I've been getting into woodworking.", INTEREST, DIRECT, ("woodworking",)),
    Case("interest", "I enjoy cooking Thai food.", INTEREST, DIRECT, ("enjoys", "thai food")),
    Case("interest", "I'm fascinated by black holes.", INTEREST, DIRECT, ("fascinated", "black holes")),
    # --- habit --------------------------------------------------------------------------------------
    Case(
        "habit",
        "I run four times a week, and I do a long run every Sunday morning.",
        HABIT,
        DIRECT,
        ("long run", "every sunday morning"),
    ),
    Case(
        "habit",
        "I run four times a week, and I do a long run every Sunday morning.",
        HABIT,
        DIRECT,
        ("runs", "four times a week"),
    ),
    Case("habit", "I meditate for ten minutes every morning.", HABIT, DIRECT, ("meditates", "every morning")),
    Case("habit", "I usually go to bed around 11.", HABIT, DIRECT, ("usually", "bed")),
    Case("habit", "Every Friday I call my mom.", HABIT, DIRECT, ("calls", "mom", "friday")),
    Case("habit", "I walk the dog twice a day.", HABIT, DIRECT, ("walks the dog", "twice a day")),
    Case("habit", "I always take the train to work.", HABIT, DIRECT, ("always", "train to work")),
    Case(
        "habit",
        "I drink coffee every morning and I go to the gym on weekends.",
        HABIT,
        DIRECT,
        ("coffee", "every morning"),
    ),
    Case(
        "habit",
        "I drink coffee every morning and I go to the gym on weekends.",
        HABIT,
        DIRECT,
        ("gym", "weekends"),
    ),
    # --- constraint ---------------------------------------------------------------------------------
    Case("constraint", "I can't take meetings on Fridays.", CONSTRAINT, DIRECT, ("cannot", "fridays")),
    Case("constraint", "I'm allergic to peanuts.", CONSTRAINT, DIRECT, ("allergic", "peanuts")),
    Case(
        "constraint",
        "My left knee gets sore after long downhill runs, so I avoid steep descents.",
        CONSTRAINT + (K.HABIT,),
        DIRECT,
        ("avoids", "steep descents"),
    ),
    Case("constraint", "I don't eat meat.", CONSTRAINT, DIRECT, ("meat",)),
    Case(
        "constraint",
        "I have to pick up my kids at 3 pm on weekdays.",
        CONSTRAINT,
        DIRECT,
        ("pick up", "kids"),
    ),
    Case("constraint", "I need to avoid gluten.", CONSTRAINT, DIRECT, ("avoid", "gluten")),
    Case("constraint", "I'm lactose intolerant.", CONSTRAINT, DIRECT, ("lactose intolerant",)),
    Case("constraint", "I only have 30 minutes a day for workouts.", CONSTRAINT, DIRECT, ("30 minutes",)),
    # --- recurring_state ----------------------------------------------------------------------------
    Case(
        "recurring_state",
        "My left knee gets sore after long downhill runs, so I avoid steep descents.",
        STATE,
        DIRECT,
        ("knee", "sore", "downhill"),
    ),
    Case(
        "recurring_state",
        "I get migraines when I don't sleep enough.",
        STATE,
        DIRECT,
        ("migraines",),
    ),
    Case(
        "recurring_state",
        "My back hurts after sitting for long periods.",
        STATE,
        DIRECT,
        ("back hurts", "sitting"),
    ),
    Case("recurring_state", "I often feel tired in the afternoons.", STATE, DIRECT, ("tired", "afternoons")),
    Case("recurring_state", "I struggle with insomnia.", STATE, DIRECT, ("struggles", "insomnia")),
    Case("recurring_state", "I suffer from hay fever every spring.", STATE, DIRECT, ("hay fever",)),
    Case(
        "recurring_state", "My asthma flares up in cold weather.", STATE, DIRECT, ("asthma", "cold weather")
    ),
    # --- relationship -------------------------------------------------------------------------------
    Case("relationship", "I have two kids.", RELATIONSHIP, DIRECT, ("two kids",)),
    Case(
        "relationship", "My daughter plays tennis on Saturdays.", RELATIONSHIP, DIRECT, ("daughter", "tennis")
    ),
    Case("relationship", "My wife is a doctor.", RELATIONSHIP, DIRECT, ("wife", "doctor")),
    Case(
        "relationship",
        "My son just started kindergarten.",
        RELATIONSHIP,
        DIRECT,
        ("son", "started kindergarten"),
    ),
    Case("relationship", "I'm married to a teacher.", RELATIONSHIP, DIRECT, ("married",)),
    Case("relationship", "I live with my partner and our two cats.", RELATIONSHIP, DIRECT, ("partner",)),
    Case("relationship", "I have a sister who lives in Berlin.", RELATIONSHIP, DIRECT, ("sister",)),
    # --- preference ---------------------------------------------------------------------------------
    Case(
        "preference",
        "I prefer running early in the morning before work.",
        PREFERENCE,
        DIRECT,
        ("prefers", "running early in the morning"),
    ),
    Case(
        "preference",
        "I'd rather get short answers with bullet points.",
        PREFERENCE,
        DIRECT,
        ("rather", "short answers"),
    ),
    Case("preference", "I prefer tea over coffee.", PREFERENCE, DIRECT, ("prefers", "tea")),
    Case("preference", "My favorite cuisine is Thai.", PREFERENCE, DIRECT, ("favorite cuisine", "thai")),
    Case("preference", "I hate long meetings.", PREFERENCE, DIRECT, ("long meetings",)),
    Case(
        "preference",
        "When you suggest recipes, I'd prefer vegetarian options.",
        PREFERENCE,
        DIRECT,
        ("vegetarian options",),
    ),
    Case(
        "preference",
        "Please take my age into account in your recommendations.",
        PREFERENCE,
        DIRECT,
        ("recommendations", "their age"),
    ),
    # --- resource -----------------------------------------------------------------------------------
    Case(
        "resource",
        "I have a Garmin watch that tracks my runs.",
        RESOURCE,
        DIRECT,
        ("garmin watch",),
    ),
    Case(
        "resource",
        "I have a treadmill in my garage.",
        RESOURCE,
        DIRECT,
        ("treadmill", "garage"),
    ),
    Case("resource", "I drive a 2015 Toyota Corolla.", RESOURCE, DIRECT, ("toyota corolla",)),
    Case("resource", "I own a Raspberry Pi 4.", RESOURCE, DIRECT, ("raspberry pi",)),
    Case("resource", "I use Obsidian for my notes.", RESOURCE, DIRECT, ("obsidian",)),
    Case("resource", "I've got a gym membership at my office.", RESOURCE, DIRECT, ("gym membership",)),
    # --- project_fact -------------------------------------------------------------------------------
    Case("project_fact", "My project uses Postgres and FastAPI.", PROJECT_FACT, DIRECT, ("postgres",)),
    Case(
        "project_fact",
        "My agent stores memories in Postgres.",
        PROJECT_FACT,
        DIRECT,
        ("stores memories", "postgres"),
    ),
    Case("project_fact", "Our backend runs on AWS Lambda.", PROJECT_FACT, DIRECT, ("backend", "aws lambda")),
    Case(
        "project_fact",
        "How do I cache this? My app is written in TypeScript.",
        PROJECT_FACT,
        DIRECT,
        ("app", "typescript"),
    ),
    Case("project_fact", "My thesis is due in June.", PROJECT_FACT, DIRECT, ("thesis", "june")),
    Case(
        "project_fact",
        "My repo has about 40k lines of Python, mostly Django.",
        PROJECT_FACT,
        DIRECT,
        ("40k lines",),
    ),
]

# Near misses: questions without a fact, hypotheticals, other people's words, transient remarks.
NEGATIVES: list[str] = [
    "Should I start running?",
    "If I had a dog, I would walk it every morning.",
    "What's the best way to train for a half marathon?",
    "My friend says she prefers running in the evening.",
    "Do you think I should learn Spanish?",
    "I wonder whether I should buy a treadmill.",
    "Would I need a Garmin watch for this?",
    "Imagine I worked as a nurse.",
    "My coach thinks I should avoid steep descents.",
    "People who are allergic to peanuts should avoid this.",
    'He said "I love jazz" but I doubt it.',
    "Can you recommend a good book about sailing?",
    "Suppose I wanted to build an app, where would I start?",
    "I'm not sure what to eat tonight.",
    "Maybe I should try yoga.",
    "What if I trained for a marathon?",
    "I'd like to know how long a half marathon is.",
    "I'm going to ask you something.",
    "I think so.",
    "I see what you mean.",
    "I'm so tired today.",
    "I had pasta for lunch.",
    "I went to the store yesterday.",
    "I'm fine, thanks.",
    "I need to think about it.",
    "I love that idea!",
    "I prefer not to say.",
    "I have a question about knee pain.",
    "Is it true that runners get sore knees?",
    "I'm running late, sorry.",
]

ASSISTANT_TEXTS: list[str] = [
    "You prefer running early in the morning before work.",
    "I love helping you with your training, and I work as your assistant.",
    "Your left knee gets sore after long downhill runs, so avoid steep descents.",
]


def _event(text: str, kind: SourceEventKind = SourceEventKind.USER_MESSAGE) -> SourceEvent:
    return SourceEvent(
        tenant_id="t1", principal_id="p1", session_id=SESSION, seq=1, kind=kind, text=text, occurred_at=AT
    )


def _matches(case: Case, formed: list[MemoryCandidate]) -> list[MemoryCandidate]:
    return [
        c
        for c in formed
        if c.claim_kind in case.kinds
        and c.derivation is case.derivation
        and c.polarity is Polarity.ASSERT
        and all(word in c.statement.lower() for word in case.words)
    ]


def recall_by_kind() -> dict[str, tuple[int, int]]:
    """(formed, expected) per labelled kind over CASES; used by the report, not by the assertions."""
    out: dict[str, tuple[int, int]] = {}
    for case in CASES:
        hit = bool(_matches(case, fallback_candidates([_event(case.text)])))
        formed, expected = out.get(case.label, (0, 0))
        out[case.label] = (formed + hit, expected + 1)
    return out


def test_every_claim_kind_has_several_cases() -> None:
    per_kind = recall_by_kind()
    assert set(per_kind) == {k.value for k in ClaimKind}
    assert all(expected >= 5 for _, expected in per_kind.values())


@pytest.mark.parametrize("case", CASES, ids=[f"{c.label}:{c.text[:40]}" for c in CASES])
def test_ordinary_statement_forms_its_claim(case: Case) -> None:
    event = _event(case.text)
    formed = fallback_candidates([event])
    matches = _matches(case, formed)
    assert matches, [(c.claim_kind.value, c.derivation.value, c.statement) for c in formed]
    for candidate in formed:
        # Grounded, specifically keyed, and hypotheses hedged, for every candidate the utterance forms.
        assert ":" in candidate.subject and candidate.subject.split(":", 1)[0] not in {"user", ""}
        assert candidate.statement.startswith("User")
        assert all(span.text and span.text in event.text for span in candidate.evidence_spans)
        assert candidate.source_event_ids == (1,)
        if candidate.derivation is Derivation.HYPOTHESIS:
            assert has_uncertainty(candidate.statement)
            assert candidate.claim_kind is ClaimKind.SKILL


@pytest.mark.parametrize("text", NEGATIVES)
def test_near_miss_forms_nothing(text: str) -> None:
    formed = fallback_candidates([_event(text)])
    assert formed == [], [c.statement for c in formed]


@pytest.mark.parametrize("text", ASSISTANT_TEXTS)
def test_assistant_text_forms_nothing(text: str) -> None:
    assert fallback_candidates([_event(text, SourceEventKind.ASSISTANT_MESSAGE)]) == []


def test_an_occupation_cue_is_never_a_direct_occupation() -> None:
    for text in ("I'm building a personal AI agent.", "I spend my days debugging Kubernetes clusters."):
        for candidate in fallback_candidates([_event(text)]):
            if candidate.claim_kind in (ClaimKind.ROLE, ClaimKind.SKILL):
                assert candidate.derivation is Derivation.HYPOTHESIS, candidate.statement


@pytest.mark.parametrize(
    "assertion,correction",
    [
        ("I prefer running early in the morning.", "I no longer prefer running early in the morning."),
        ("I work as a nurse.", "I don't work as a nurse anymore."),
        ("I use Obsidian for my notes.", "I don't use Obsidian anymore."),
    ],
)
def test_corrections_of_new_kinds_retract_only(assertion: str, correction: str) -> None:
    asserted = fallback_candidates([_event(assertion)])
    retracted = fallback_candidates([_event(correction)])
    assert asserted and retracted
    assert all(c.polarity is Polarity.RETRACT for c in retracted)
    assert {c.subject for c in retracted} <= {c.subject for c in asserted}
    assert all("no longer" in c.statement for c in retracted)


def test_uncertainty_is_kept() -> None:
    formed = fallback_candidates([_event("I think I'm allergic to cats.")])
    assert formed, "a hedged constraint still forms"
    assert all(has_uncertainty(c.statement) and c.derivation is Derivation.DIRECT for c in formed)
