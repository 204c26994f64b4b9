"""Fallback throughput: KB of owner text per second at 1x, 10x and 100x the training conversation.

Run: .venv/bin/python benchmarks/fallback_throughput.py
Prints a table; cost per KB should stay flat as input grows (linear cost), and the goal is >= 1 MB/s.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.events import SourceEvent  # noqa: E402
from domain.formation.deterministic.former import fallback_candidates  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "training_conversation.jsonl"
# The eleven supported memories, written by hand: the words each statement must carry.
ELEVEN: list[tuple[str, ...]] = [
    ("wants", "improving"),
    ("recommendations", "their age"),
    ("5x5", "2-3x a week"),
    ("swims", "other days"),
    ("runs", "other days"),
    ("bikes", "other days"),
    ("still progressing", "not stalled"),
    ("trained regularly", "most of their life"),
    ("restarted 5x5", "calisthenics"),
    ("has years of calisthenics",),
    ("six years", "gymnastic strength training"),
]


def load() -> list[SourceEvent]:
    return [SourceEvent.model_validate_json(line) for line in FIXTURE.read_text("utf-8").splitlines() if line]


def scaled(events: list[SourceEvent], factor: int) -> list[SourceEvent]:
    out: list[SourceEvent] = []
    for round_ in range(factor):
        for event in events:
            out.append(event.model_copy(update={"seq": round_ * len(events) + event.seq}))
    return out


def owner_bytes(events: list[SourceEvent]) -> int:
    return sum(e.size_bytes for e in events if e.is_owner_assertion)


def measure(events: list[SourceEvent], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        fallback_candidates(events)
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    base = load()
    formed = fallback_candidates(base)
    fallback_candidates(scaled(base, 2))  # warm caches so 1x is not charged for first-use lemma lookups
    print(f"{'input':>6} {'events':>7} {'user KB':>9} {'seconds':>9} {'KB/s':>9} {'us/KB':>8}")
    for factor in (1, 10, 100):
        events = scaled(base, factor)
        size = owner_bytes(events) / 1024
        seconds = measure(events, repeats=max(3, 300 // factor))
        print(
            f"{factor:>5}x {len(events):>7} {size:>9.1f} {seconds:>9.4f} {size / seconds:>9.0f} {seconds / size * 1e6:>8.0f}"
        )
    one_mb = "I have been thinking about many things lately and " * 21_000
    event = base[0].model_copy(update={"text": one_mb[:1_040_000]})
    seconds = measure([event], repeats=3)
    print(f"one 1 MB turn: {seconds:.3f} s ({len(event.text) / 1024 / seconds:.0f} KB/s)")
    found = sum(1 for words in ELEVEN if any(all(w in c.statement for w in words) for c in formed))
    print(
        f"training memories formed: {found}/{len(ELEVEN)} ({found / len(ELEVEN):.0%}); candidates: {len(formed)}"
    )


if __name__ == "__main__":
    main()
