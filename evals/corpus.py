"""The authored formation corpora as frozen values: cases, their gold expectations, and seed pools.

A case is a conversation in the source-event wire format (one or more sessions, consolidated in order) with
the claims formation should, may, or must not form from it. Every rule one case or one file can check on its
own is a validator here; the counts and coverage each corpus must reach are in evals.corpus_rules.

What the fields ask of the evaluator:
- `seed_pool` names prior beliefs the evaluator writes through the governed service, in a separate earlier
  session, before the case consolidates. An expectation with `restates_seed` restates one of them, so its
  clause lies in a later segment than the memory it restates: formed again or verifiably represented by an
  anticipation attributed to that seed both count.
- `citations` are faithful model citations of the belief an expectation formed, made at the given time.
- `checks` are the lifecycle facts the case pins: live or retired at a time, promoted from hypothesis to
  direct without a second live belief, superseded by the case's retraction, corroborated by distinct sessions.

Errors name cases, indexes and rules, never event text or statements: a corpus is people's conversations.
"""

import re
from enum import StrEnum
from typing import Self
from uuid import UUID

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt, model_validator

from domain.candidates import (
    ALLOWED_LONGEVITY,
    GENERIC_SUBJECTS,
    MAX_STATEMENT_CHARS,
    MAX_SUBJECT_CHARS,
    ClaimKind,
    Derivation,
    Longevity,
    Polarity,
)
from domain.events import SourceEvent
from domain.owner import Owner
from evals.claim_shapes import CLAIM_SHAPES, ClaimShape

# Every case speaks for this owner; events of any other principal or tenant are foreign content.
CASE_OWNER = Owner(tenant_id="eval", principal_id="owner")
MAX_COMPATIBLE_KINDS = 3

# The reference's uncertainty language: a hypothesis never reads as a fact.
_UNCERTAIN = re.compile(r"\b(likely|may|tentatively)\b", re.IGNORECASE)
# A retraction states the negated claim.
_NEGATED = re.compile(r"\b(no longer|not|never)\b|n't\b", re.IGNORECASE)

_FROZEN = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)


class Label(StrEnum):
    MUST_FORM = "must_form"
    REASONABLE_TO_FORM = "reasonable_to_form"
    MUST_NOT_FORM = "must_not_form"


POSITIVE_LABELS = frozenset({Label.MUST_FORM, Label.REASONABLE_TO_FORM})


class CoreScenario(StrEnum):
    """The reference's seven core scenarios."""

    PERSONAL_AGENT = "personal_agent"
    BROAD_COMPOUND = "broad_compound"
    MISLEADING_PROFESSIONAL_CUE = "misleading_professional_cue"
    SUPPORT_PROMOTES = "support_promotes"
    UNSUPPORTED_RETIRES = "unsupported_retires"
    CITATIONS_DO_NOT_EXTEND = "citations_do_not_extend"
    TRAINING_CONVERSATION = "training_conversation"


class Coverage(StrEnum):
    COMPOUND = "compound"
    CORROBORATION = "corroboration"
    PROMOTION = "promotion"
    CORRECTION = "correction"
    RETIREMENT = "retirement"
    SELF_CITATION = "self_citation"


class CheckKind(StrEnum):
    LIVE = "live"
    RETIRED = "retired"
    PROMOTED = "promoted"
    SUPERSEDED = "superseded"
    CORROBORATED = "corroborated"


_TIMED_CHECKS = frozenset({CheckKind.LIVE, CheckKind.RETIRED})


class EvidenceText(BaseModel):
    """Exact text of one event; `session_id` may be left out when the case has one session."""

    model_config = _FROZEN

    session_id: UUID | None = None
    seq: PositiveInt
    text: str = Field(min_length=1)


class Expectation(BaseModel):
    model_config = _FROZEN

    label: Label
    claim_kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    polarity: Polarity = Polarity.ASSERT
    shape: ClaimShape | None = None
    subject: str = Field(min_length=1, max_length=MAX_SUBJECT_CHARS)
    statements: tuple[str, ...] = Field(min_length=1)
    evidence: tuple[EvidenceText, ...] = Field(min_length=1)
    compatible_kinds: tuple[ClaimKind, ...] = Field(default=(), max_length=MAX_COMPATIBLE_KINDS)
    restates_seed: str | None = None

    @property
    def is_positive(self) -> bool:
        return self.label in POSITIVE_LABELS

    @model_validator(mode="after")
    def _closed_claim(self) -> Self:
        if self.longevity not in ALLOWED_LONGEVITY[self.derivation]:
            raise ValueError(f"longevity {self.longevity} is not allowed for derivation {self.derivation}")
        if self.subject.strip().lower() in GENERIC_SUBJECTS or self.subject != self.subject.strip():
            raise ValueError("subject must be a specific, trimmed conflict key, never the user")
        if len(set(self.statements)) != len(self.statements):
            raise ValueError("statement alternatives must be distinct")
        for statement in self.statements:
            if not statement.strip() or len(statement) > MAX_STATEMENT_CHARS:
                raise ValueError("a statement alternative is blank or too long")
            if self.derivation is Derivation.HYPOTHESIS and not _UNCERTAIN.search(statement):
                raise ValueError("a hypothesis statement must carry uncertainty language")
            if self.polarity is Polarity.RETRACT and not _NEGATED.search(statement):
                raise ValueError("a retraction statement must state the negated claim")
        if self.polarity is Polarity.RETRACT and (
            self.derivation is not Derivation.DIRECT or not self.is_positive
        ):
            raise ValueError("a retraction is an expected direct correction")
        if self.restates_seed is not None and not self.is_positive:
            raise ValueError("only a positive expectation restates a seed")
        self._shape_allows_kinds()
        return self

    def _shape_allows_kinds(self) -> None:
        compatible = frozenset(self.compatible_kinds)
        if len(compatible) != len(self.compatible_kinds):
            raise ValueError("compatible kinds must be distinct")
        if self.derivation is Derivation.HYPOTHESIS:
            if compatible:
                raise ValueError("a hypothesis declares no compatible kinds")
            return
        if self.shape is None:
            raise ValueError("a direct expectation names its claim shape")
        admitted = CLAIM_SHAPES[self.shape].get(self.claim_kind)
        if admitted is None:
            raise ValueError(f"claim kind {self.claim_kind} is not a primary kind of shape {self.shape}")
        if not compatible <= admitted:
            raise ValueError(f"compatible kinds are not all in the claim-shape table for shape {self.shape}")


class Citation(BaseModel):
    """A faithful model citation of the belief expectation `expectation` formed, made at `at`."""

    model_config = _FROZEN

    expectation: NonNegativeInt
    at: AwareDatetime


class LifecycleCheck(BaseModel):
    model_config = _FROZEN

    check: CheckKind
    expectation: NonNegativeInt
    at: AwareDatetime | None = None
    sessions: int | None = Field(default=None, ge=2)

    @model_validator(mode="after")
    def _arguments(self) -> Self:
        if (self.at is not None) != (self.check in _TIMED_CHECKS):
            raise ValueError(
                f"a {self.check} check {'needs' if self.check in _TIMED_CHECKS else 'takes no'} time"
            )
        if (self.sessions is not None) != (self.check is CheckKind.CORROBORATED):
            raise ValueError("only a corroborated check, and every one, names its distinct session count")
        return self


class Case(BaseModel):
    model_config = _FROZEN

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=80)
    title: str = Field(min_length=1, max_length=200)
    label: Label
    scenario: CoreScenario | None = None
    covers: tuple[Coverage, ...] = ()
    seed_pool: str | None = None
    events: tuple[SourceEvent, ...] = Field(min_length=1)
    expectations: tuple[Expectation, ...] = Field(min_length=1)
    citations: tuple[Citation, ...] = ()
    checks: tuple[LifecycleCheck, ...] = ()

    @property
    def is_positive(self) -> bool:
        return self.label in POSITIVE_LABELS

    @property
    def sessions(self) -> tuple[UUID, ...]:
        """Session ids in the order the evaluator consolidates them."""
        return tuple(dict.fromkeys(event.session_id for event in self.events))

    @property
    def owner_turns(self) -> tuple[SourceEvent, ...]:
        return tuple(event for event in self.events if _is_owner_assertion(event))

    @property
    def is_multi_turn(self) -> bool:
        """At least two owner turns with the agent answering in between, as real conversations go."""
        owner_seen = 0
        answered = False
        for event in self.events:
            if _is_owner_assertion(event):
                owner_seen += 1
                if owner_seen >= 2 and answered:
                    return True
            elif owner_seen and not event.is_owner_assertion:
                answered = True
        return False

    @property
    def restated_seeds(self) -> tuple[str, ...]:
        return tuple(e.restates_seed for e in self.expectations if e.restates_seed is not None)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        self._events_ordered()
        self._label_matches_expectations()
        for index, expectation in enumerate(self.expectations):
            for span in expectation.evidence:
                self._evidence_exact(index, expectation, span)
        self._references_resolve()
        self._coverage_holds()
        return self

    def _events_ordered(self) -> None:
        if len({event.tenant_id for event in self.events}) != 1:
            raise ValueError(f"case {self.id}: every event belongs to one tenant")
        last: dict[UUID, SourceEvent] = {}
        for event in self.events:
            previous = last.get(event.session_id)
            if previous is not None and (
                event.seq <= previous.seq or event.occurred_at < previous.occurred_at
            ):
                raise ValueError(f"case {self.id}: session events must ascend in seq and time")
            last[event.session_id] = event
        if not self.owner_turns:
            raise ValueError(f"case {self.id}: the case owner says something")

    def _label_matches_expectations(self) -> None:
        positive = {e.label for e in self.expectations if e.is_positive}
        if self.label is Label.MUST_NOT_FORM:
            expected = not positive
        elif self.label is Label.MUST_FORM:
            expected = Label.MUST_FORM in positive
        else:
            expected = positive == {Label.REASONABLE_TO_FORM}
        if not expected:
            raise ValueError(f"case {self.id}: label {self.label} does not match its expectations' labels")

    def _evidence_exact(self, index: int, expectation: Expectation, span: EvidenceText) -> None:
        sessions = self.sessions
        if span.session_id is None and len(sessions) > 1:
            raise ValueError(f"case {self.id} expectation {index}: name the session of seq {span.seq}")
        session = span.session_id or sessions[0]
        event = next((e for e in self.events if e.session_id == session and e.seq == span.seq), None)
        if event is None:
            raise ValueError(f"case {self.id} expectation {index}: no event at seq {span.seq}")
        if span.text not in event.text:
            raise ValueError(
                f"case {self.id} expectation {index}: evidence is not exact text of seq {span.seq}"
            )
        if expectation.is_positive and not _is_owner_assertion(event):
            raise ValueError(
                f"case {self.id} expectation {index}: seq {span.seq} is not the owner's assertion"
            )

    def _references_resolve(self) -> None:
        count = len(self.expectations)
        named = [citation.expectation for citation in self.citations] + [
            check.expectation for check in self.checks
        ]
        for index in named:
            if index >= count or not self.expectations[index].is_positive:
                raise ValueError(f"case {self.id}: citations and checks name a positive expectation")
        if self.restated_seeds and self.seed_pool is None:
            raise ValueError(f"case {self.id}: an expectation restates a seed but the case names no pool")

    def _coverage_holds(self) -> None:
        """A coverage tag is only claimed when the case carries what exercises it."""
        checks = {check.check for check in self.checks}
        demands = {
            Coverage.COMPOUND: self._has_compound_utterance(),
            Coverage.CORROBORATION: CheckKind.CORROBORATED in checks and len(self.sessions) > 1,
            Coverage.PROMOTION: CheckKind.PROMOTED in checks,
            Coverage.CORRECTION: any(e.polarity is Polarity.RETRACT for e in self.expectations),
            Coverage.RETIREMENT: CheckKind.RETIRED in checks,
            Coverage.SELF_CITATION: bool(self.citations) and CheckKind.RETIRED in checks,
        }
        for tag in self.covers:
            if not demands[tag]:
                raise ValueError(f"case {self.id}: covers {tag} without what exercises it")

    def _has_compound_utterance(self) -> bool:
        """One owner event grounds positive claims about at least two subjects."""
        subjects: dict[tuple[UUID, int], set[str]] = {}
        sessions = self.sessions
        for expectation in self.expectations:
            if expectation.is_positive:
                for span in expectation.evidence:
                    key = (span.session_id or sessions[0], span.seq)
                    subjects.setdefault(key, set()).add(expectation.subject)
        return any(len(named) >= 2 for named in subjects.values())


class SeedBelief(BaseModel):
    """A prior belief the evaluator remembers through the governed service, from `source_text`."""

    model_config = _FROZEN

    subject: str = Field(min_length=1, max_length=MAX_SUBJECT_CHARS)
    statement: str = Field(min_length=1, max_length=MAX_STATEMENT_CHARS)
    claim_kind: ClaimKind
    source_text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _specific(self) -> Self:
        if self.subject.strip().lower() in GENERIC_SUBJECTS:
            raise ValueError("a seed's subject is a specific conflict key, never the user")
        return self


class SeedPool(BaseModel):
    model_config = _FROZEN

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=80)
    description: str = Field(min_length=1)
    beliefs: tuple[SeedBelief, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _distinct_subjects(self) -> Self:
        if len({belief.subject for belief in self.beliefs}) != len(self.beliefs):
            raise ValueError(f"seed pool {self.id}: subjects must be distinct")
        return self

    def belief(self, subject: str) -> SeedBelief | None:
        return next((b for b in self.beliefs if b.subject == subject), None)


class Corpus(BaseModel):
    model_config = _FROZEN

    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    seed_pools: tuple[SeedPool, ...] = ()
    cases: tuple[Case, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _references(self) -> Self:
        if len({case.id for case in self.cases}) != len(self.cases):
            raise ValueError(f"corpus {self.name}: duplicate case identifier")
        if len({pool.id for pool in self.seed_pools}) != len(self.seed_pools):
            raise ValueError(f"corpus {self.name}: duplicate seed pool identifier")
        for case in self.cases:
            if case.seed_pool is None:
                continue
            pool = self.pool(case.seed_pool)
            if pool is None:
                raise ValueError(f"case {case.id}: names an undeclared seed pool")
            if any(pool.belief(subject) is None for subject in case.restated_seeds):
                raise ValueError(f"case {case.id}: restates a seed its pool does not hold")
        return self

    def pool(self, pool_id: str) -> SeedPool | None:
        return next((p for p in self.seed_pools if p.id == pool_id), None)


def _is_owner_assertion(event: SourceEvent) -> bool:
    return event.is_owner_assertion and event.owner == CASE_OWNER
