"""Embedding models' cost, in process: load time and memory, one query's embedding (p50 / p99 ms over the
development sets' questions, one at a time) and beliefs embedded per second (the dev sets' beliefs and
distractors as a backfill embeds them, pages of 256), for each local model asked.

    .venv/bin/python -m benchmarks.embedding_benchmark                      # both local models
    .venv/bin/python -m benchmarks.embedding_benchmark --providers minilm
    OPENBLAS_NUM_THREADS=1 .venv/bin/python -m benchmarks.embedding_benchmark   # one BLAS thread

The models are loaded in the order given, in one process: the RSS added is read from the process's resident
memory before and after each load.
"""

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any, Literal

from adapters.embeddings.factory import embedder_for
from adapters.settings import Settings
from benchmarks.recall_labelled import DEV, distractors, frozen
from domain.beliefs.embedding import EMBED_PAGE, embedded_text


def _rss_mb() -> float:
    fields = Path("/proc/self/statm").read_text().split()
    return int(fields[1]) * 4096 / 2**20


def _texts() -> tuple[list[str], list[str]]:
    questions, beliefs = [], []
    for labelled in (DEV, frozen("dev2"), frozen("dev4")):
        rng = random.Random(f"embedding-{labelled.name}")
        questions += [question for _, _, question in labelled.targets]
        beliefs += [embedded_text(subject, statement) for subject, statement, _ in labelled.targets]
        beliefs += [
            embedded_text(s, t) for s, t in distractors(rng, 1_000 - len(labelled.targets), labelled.filler)
        ]
    return questions, beliefs


def measure(
    provider: Literal["wordllama", "minilm"], questions: list[str], beliefs: list[str]
) -> dict[str, Any]:
    before, started = _rss_mb(), time.perf_counter()
    embedder = embedder_for(Settings(embedding_provider=provider))
    embedder.embed(["warm up"])
    loaded, rss = time.perf_counter() - started, _rss_mb() - before
    samples = []
    for question in questions:
        started = time.perf_counter()
        embedder.embed([question])
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    started = time.perf_counter()
    for first in range(0, len(beliefs), EMBED_PAGE):
        embedder.embed(beliefs[first : first + EMBED_PAGE])
    seconds = time.perf_counter() - started
    return {
        "model": embedder.model,
        "load_seconds": round(loaded, 2),
        "rss_added_mb": round(rss),
        "queries": len(samples),
        "query_ms_p50": round(statistics.median(samples), 2),
        "query_ms_p99": round(samples[min(len(samples) - 1, int(len(samples) * 0.99))], 2),
        "beliefs": len(beliefs),
        "beliefs_per_second": round(len(beliefs) / seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--providers",
        nargs="+",
        choices=["wordllama", "minilm"],
        default=["wordllama", "minilm"],
        help="local models to measure, loaded in this order",
    )
    args = parser.parse_args()
    questions, beliefs = _texts()
    print(json.dumps({p: measure(p, questions, beliefs) for p in args.providers}, indent=2))


if __name__ == "__main__":
    main()
