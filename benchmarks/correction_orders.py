"""Correction orders: how often the live beliefs depend on the order sessions commit in, when some sessions
state claims and others correct them ("I'm no longer vegetarian").

    .venv/bin/python -m benchmarks.correction_orders                  # 200 draws
    .venv/bin/python -m benchmarks.correction_orders --draws 1000 --seed 7

Each draw is 2 to 5 sessions of one principal, each said at one of seven times ten minutes apart, each
holding 1 to 3 statements: one of five claims (about two in three) or its correction. The sessions are
consolidated in the rule-based former's pipeline on the in-memory store twice, in their drawn order and
in a shuffled one; a draw counts when the two leave different live beliefs (what they say, when, how
corroborated and on which source events). Goal: 0.
"""

import argparse
import json
import random
from pathlib import Path

from rich.progress import track

from adapters.memory.store import InMemoryStore
from tests.builders import T0
from tests.property.test_commit_order_independence import CORRECTED, _live

RESULTS_DIR = Path(__file__).parent / "results"


def draw(rng: random.Random) -> list[tuple[int, int, list[tuple[str, str]]]]:
    sessions = []
    for tag in rng.sample(range(10**6), rng.randint(2, 5)):
        said = [
            ("{}", claim[0 if rng.random() < 2 / 3 else 1].format(rng.choice(["Lisbon", "Porto"])))
            for claim in rng.choices(CORRECTED, k=rng.randint(1, 3))
        ]
        sessions.append((tag, 10 * rng.randint(0, 6), said))
    return sessions


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--draws", type=int, default=200, help="how many sets of sessions to draw")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    differ = 0
    for _ in track(range(args.draws), description="consolidating in two orders", transient=True):
        sessions = draw(rng)
        shuffled = list(range(len(sessions)))
        rng.shuffle(shuffled)
        drawn_order = _live(InMemoryStore(clock=lambda: T0), sessions, list(range(len(sessions))))
        differ += _live(InMemoryStore(clock=lambda: T0), sessions, shuffled) != drawn_order
    result = {"draws": args.draws, "seed": args.seed, "order_dependent": differ}
    print(json.dumps(result, indent=2))
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR / "correction_orders.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
