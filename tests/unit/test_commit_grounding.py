"""gate.memory.source_grounding at commit, as a property over generated ownership, event kinds and spans,
on every store."""

from typing import cast
from uuid import UUID, uuid4

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adapters.memory.store import InMemoryStore
from domain.candidates import ClaimKind, Derivation, MemoryCandidate, Sensitivity
from domain.events import COMMUNICATION_KINDS, OWNER_ASSERTION_KINDS, SourceEvent, SourceEventKind
from domain.owner import Owner
from domain.ports import UnitOfWorkFactory
from domain.telemetry import ReasonCategory
from tests.builders import OWNER, event
from tests.commit_support import candidate, stage_and_commit

# Wire kinds that look like an owner's or a tool's but are none of the closed kinds: refused at the door,
# so a proposal citing their seq cites nothing that exists.
LOOKALIKE_KINDS = ["tool_result:user_message", "user-message", "USER_MESSAGE", "unpaired_surface_message"]
WHOSE = ["owner", "other-principal", "other-tenant"]
# What a proposal does to the text it cites: an exact slice, or a near miss that is no substring.
SPAN_MODES = ["exact", "exact", "upper", "doubled-space", "extended", "invented"]
THINGS = ["kite", "boat", "robot", "shed", "drone", "clock", "loom", "desk"]

sources = st.lists(
    st.tuples(st.sampled_from(WHOSE), st.sampled_from([*SourceEventKind, *LOOKALIKE_KINDS])),
    min_size=1,
    max_size=6,
)
citation = st.tuples(st.integers(0, 5), st.sampled_from(SPAN_MODES), st.integers(0, 40), st.integers(1, 40))
proposals = st.lists(st.tuples(st.lists(citation, min_size=1, max_size=2), st.booleans()), max_size=8)


def _span(text: str, mode: str, start: int, length: int) -> str:
    start %= len(text)
    exact = text[start : start + length].strip() or text.strip()
    return {
        "exact": exact,
        "upper": exact.upper(),
        "doubled-space": exact.replace(" ", "  ") if " " in exact else f"{exact}  x",
        "extended": f"{text} and more",
        "invented": "building a rocket",
    }[mode]


def _events(
    whose: list[tuple[str, SourceEventKind | str]], session: UUID
) -> tuple[Owner, list[SourceEvent], list[int]]:
    """Fresh owners per example, so one store serves every example; returns the events the store accepts
    and the seqs of those refused for a lookalike kind."""
    tenant = f"t-{uuid4().hex[:8]}"
    owners = {
        "owner": Owner(tenant_id=tenant, principal_id="p1"),
        "other-principal": Owner(tenant_id=tenant, principal_id="p2"),
        "other-tenant": Owner(tenant_id=f"{tenant}-x", principal_id="p1"),
    }
    events: list[SourceEvent] = []
    refused: list[int] = []
    for index, (who, kind) in enumerate(whose):
        wire = event(
            index + 1, f"I am building gadget{index} at home.", owner=owners[who], session_id=session
        )
        try:
            events.append(SourceEvent.model_validate({**wire.model_dump(), "kind": kind}))
        except ValidationError:
            refused.append(wire.seq)
    return owners["owner"], events, refused


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(whose=sources, proposed=proposals)
def test_gate_memory_source_grounding_every_committed_span_occurs_in_an_admitted_source(
    uow_factory: UnitOfWorkFactory,
    whose: list[tuple[str, SourceEventKind | str]],
    proposed: list[tuple[list[tuple[int, str, int, int]], bool]],
) -> None:
    """Every committed belief's every span is an exact substring of an admitted event of its owner, over
    generated ownership, event kinds (lookalike wire kinds refused at the door included) and spans.

    Catches: commit's grounding_rejection no longer calling span_rejection, or span_rejection no longer
    requiring ``span.text in source.text`` (an upper-cased, re-spaced, extended or invented span commits)."""
    session = uuid4()
    owner, events, refused = _events(whose, session)
    own = [e for e in events if e.owner == owner]
    with uow_factory() as uow:
        uow.events.append([e for e in events if e.owner != owner])
        uow.commit()
    if not own:
        return
    texts = {e.seq: e.text for e in events} | {
        seq: f"I am building gadget{seq - 1} at home." for seq in refused
    }
    kinds = {e.seq: e.kind for e in events}
    seqs = sorted(texts)
    candidates: list[MemoryCandidate] = []
    for position, (cites, as_channel) in enumerate(proposed):
        spans: dict[int, str] = {}
        for pick, mode, start, length in cites:
            seq = seqs[pick % len(seqs)]
            spans.setdefault(seq, _span(texts[seq], mode, start, length))
        [(first, first_span), *extra] = sorted(spans.items())
        channels = {kinds[seq] for seq in spans if seq in kinds} & COMMUNICATION_KINDS
        channel = sorted(channels)[0].value if as_channel and channels else None
        candidates.append(
            candidate(
                first,
                first_span,
                f"User likely builds a {THINGS[position]}."
                if channel
                else f"User is building a {THINGS[position]}.",
                subject=f"project:{THINGS[position]}",
                kind=ClaimKind.ONGOING_PROJECT,
                derivation=Derivation.HYPOTHESIS if channel else Derivation.DIRECT,
                extra=tuple(extra),
                channel=channel,
            )
        )
    report = stage_and_commit(uow_factory, own, candidates, owner=owner)
    admitted = {e.seq: e for e in own if e.kind in OWNER_ASSERTION_KINDS | COMMUNICATION_KINDS}
    by_statement = {c.statement: c for c in candidates}
    with uow_factory() as uow:
        beliefs = uow.beliefs.page(owner, None, 100)
    for belief in beliefs:
        formed = by_statement[belief.statement]
        assert [(ref.session_id, ref.seq) for ref in belief.source_event_ids] == [
            (session, seq) for seq in formed.source_event_ids
        ]
        for span in formed.evidence_spans:
            source = admitted.get(span.seq)
            assert source is not None and span.text in source.text, (span, source)
        if {admitted[seq].kind for seq in formed.source_event_ids} & COMMUNICATION_KINDS:
            assert belief.derivation is Derivation.HYPOTHESIS
            assert belief.sensitivity is Sensitivity.SENSITIVE and belief.channel == formed.channel
        else:
            assert belief.channel is None
    committed = sum(
        report.categories.get(c, 0)
        for c in (ReasonCategory.COMMITTED_DIRECT, ReasonCategory.COMMITTED_HYPOTHESIS)
    )
    assert committed == len(beliefs)
    # An owned owner assertion cited by an exact span is never lost: it grounds a belief (or, past the
    # per-source bound, is displaced by one that does).
    said = {e.seq: e.text for e in own if e.kind in OWNER_ASSERTION_KINDS}
    grounded = {
        s.seq
        for c in candidates
        if c.channel is None and all(s.seq in said and s.text in said[s.seq] for s in c.evidence_spans)
        for s in c.evidence_spans
    }
    assert grounded <= {ref.seq for b in beliefs for ref in b.source_event_ids}


def test_gate_memory_source_grounding_mail_never_retracts_or_touches_owner_memory() -> None:
    from domain.candidates import Polarity

    store = cast(UnitOfWorkFactory, InMemoryStore())
    session = uuid4()
    said = event(1, "I drive my BMW every day.", session_id=session)
    stage_and_commit(
        store,
        [said],
        [candidate(1, "I drive my BMW every day.", "User drives their BMW every day.", subject="habit:bmw")],
    )
    mail = event(
        2,
        "I no longer drive my BMW. I drive my BMW every day.",
        session_id=session,
        kind=SourceEventKind.GMAIL_READ,
    )
    report = stage_and_commit(
        store,
        [said, mail],
        [
            candidate(
                2,
                "I no longer drive my BMW.",
                "User no longer drives their BMW.",
                subject="habit:bmw",
                polarity=Polarity.RETRACT,
            ),
            candidate(
                2,
                "I drive my BMW every day.",
                "User likely drives their BMW every day.",
                subject="habit:bmw2",
                derivation=Derivation.HYPOTHESIS,
                channel="gmail_read",
            ),
            candidate(
                2, "I drive my BMW every day.", "User drives their BMW every day.", subject="habit:bmw3"
            ),
        ],
    )
    assert report.categories == {ReasonCategory.REJECTED_PROVENANCE: 2, ReasonCategory.CONFLICTED: 1}
    with store() as uow:
        [kept] = uow.beliefs.page(OWNER, None, 10)
    assert kept.derivation is Derivation.DIRECT and kept.evidence_count == 1
