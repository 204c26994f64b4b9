"""Recorded stage answers that are the gold: what a perfect model would answer for each corpus case.

Per owner session (one planned segment each in these corpora): one episode restating the owner's turns;
an anticipation that attributes each restated seed to its seed belief; a distillation whose candidates are
the case's positive expectations (first statement alternative, evidence cut to the coverage unit it starts
in) and whose ledger forms those units, represents restated seeds and calls every other unit not_memory.
For formation@8 and formation@10, one extraction answering the positive direct assertions the session
states (all a control can express), with their exact evidence text.
"""

from typing import Any
from uuid import UUID

from adapters.memory.store import InMemoryStore
from domain.candidates import Derivation, Polarity
from domain.events import SourceEvent
from domain.formation.clauses import Clause, split_clauses
from domain.telemetry import Stage
from evals.corpus import CASE_OWNER, Case, Corpus, Expectation
from evals.recorded import RecordedAnswers
from evals.seeding import write_seed_pool


def gold_answers(corpus: Corpus) -> RecordedAnswers:
    return RecordedAnswers(cases={case.id: _case_answers(corpus, case) for case in corpus.cases})


def _case_answers(corpus: Corpus, case: Case) -> dict[Stage, list[dict[str, Any]]]:
    pool = corpus.pool(case.seed_pool) if case.seed_pool else None
    # Seed ids are derived from the case, so a scratch store names the ids the evaluator will write.
    seeds = write_seed_pool(InMemoryStore(), case, pool) if pool else {}
    answers: dict[Stage, list[dict[str, Any]]] = {stage: [] for stage in Stage}
    for session in case.sessions:
        trusted = [
            e
            for e in case.events
            if e.session_id == session and e.owner == CASE_OWNER and e.is_owner_assertion
        ]
        if not trusted:
            continue
        answers[Stage.INTEGRATION].append(_integration(trusted))
        restated = [
            (e, pool.belief(e.restates_seed))
            for e in case.expectations
            if pool and e.restates_seed and _in_session(case, e, session)
        ]
        predictions = [
            {
                "cue_before_seq": trusted[0].seq,
                "statement": seed.statement,
                "memory_id": str(seeds[seed.subject]),
            }
            for _, seed in restated
            if seed is not None
        ]
        answers[Stage.ANTICIPATION].append({"predictions": predictions})
        answers[Stage.DISTILLATION].append(_distillation(case, session, trusted, [e for e, _ in restated]))
        answers[Stage.EXTRACTION].append(_extraction(case, session, trusted))
    return answers


def _extraction(case: Case, session: UUID, trusted: list[SourceEvent]) -> dict[str, Any]:
    seqs = {e.seq for e in trusted}
    memories = [
        {
            "subject": expectation.subject,
            "claim_kind": expectation.claim_kind.value,
            "longevity": expectation.longevity.value,
            "statement": expectation.statements[0],
            "evidence_spans": [{"seq": span.seq, "text": span.text} for span in spans],
        }
        for expectation in case.expectations
        if expectation.is_positive
        and expectation.derivation is Derivation.DIRECT
        and expectation.polarity is Polarity.ASSERT
        and (
            spans := [
                s
                for s in expectation.evidence
                if (s.session_id or case.sessions[0]) == session and s.seq in seqs
            ]
        )
    ]
    return {"memories": memories}


def _in_session(case: Case, expectation: Expectation, session: UUID) -> bool:
    return any((span.session_id or case.sessions[0]) == session for span in expectation.evidence)


def _integration(trusted: list[SourceEvent]) -> dict[str, Any]:
    sentences = [{"text": e.text, "source_event_ids": [e.seq]} for e in trusted]
    return {"episodes": [{"subjects": ["conversation"], "sentences": sentences}]}


def _unit_of(units: list[Clause], event: SourceEvent, text: str) -> tuple[Clause, str] | None:
    start = event.text.find(text)
    for unit in units:
        if unit.seq == event.seq and unit.start <= start < unit.end:
            return unit, event.text[start : min(unit.end, start + len(text))]
    return None


def _distillation(
    case: Case, session: UUID, trusted: list[SourceEvent], restated: list[Expectation]
) -> dict[str, Any]:
    units = [unit for event in trusted for unit in split_clauses(event.seq, event.text)]
    by_seq = {e.seq: e for e in trusted}
    formed: dict[str, list[int]] = {}
    represented: dict[str, int] = {}
    candidates: list[dict[str, Any]] = []
    for expectation in case.expectations:
        if not expectation.is_positive or not _in_session(case, expectation, session):
            continue
        # The span this session holds: a corroborated claim is stated again in a later session.
        span = next(s for s in expectation.evidence if (s.session_id or case.sessions[0]) == session)
        found = _unit_of(units, by_seq[span.seq], span.text) if span.seq in by_seq else None
        if found is None:
            continue
        unit, text = found
        if expectation in restated:
            represented.setdefault(unit.id, restated.index(expectation))
            continue
        formed.setdefault(unit.id, []).append(len(candidates))
        candidates.append(
            {
                "subject": expectation.subject,
                "claim_kind": expectation.claim_kind.value,
                "derivation": expectation.derivation.value,
                "longevity": expectation.longevity.value,
                "polarity": expectation.polarity.value,
                "statement": expectation.statements[0],
                "source_event_ids": [span.seq],
                "evidence_spans": [{"seq": span.seq, "text": text}],
            }
        )
    coverage = [_entry(unit.id, formed, represented) for unit in units]
    return {"coverage": coverage, "candidates": candidates}


def _entry(unit_id: str, formed: dict[str, list[int]], represented: dict[str, int]) -> dict[str, object]:
    if unit_id in formed:
        return {
            "unit_id": unit_id,
            "disposition": "formed",
            "candidate_indexes": formed[unit_id],
            "prediction_index": None,
        }
    if unit_id in represented:
        return {
            "unit_id": unit_id,
            "disposition": "represented",
            "candidate_indexes": [],
            "prediction_index": represented[unit_id],
        }
    return {
        "unit_id": unit_id,
        "disposition": "not_memory",
        "candidate_indexes": [],
        "prediction_index": None,
    }
