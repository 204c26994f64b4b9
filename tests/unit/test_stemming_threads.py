"""Recall stems words on the API's request threads at once: each stem is the one the Snowball stemmer gives
that word alone, whatever the other threads stem meanwhile (a shared stemmer mixed words: HTTP 500s)."""

import sys
import threading
from collections.abc import Iterator

import pytest
import snowballstemmer  # type: ignore[import-untyped]

from domain.beliefs import relevance

ROOTS = (
    "nation",
    "relate",
    "condition",
    "hope",
    "generous",
    "sensitive",
    "conform",
    "adjust",
    "happy",
    "run",
)
SUFFIXES = ("al", "ally", "ational", "ization", "fulness", "iveness", "ing", "ed", "s", "ly", "ement", "ness")
WORDS = [f"{root}{suffix}{n}" for root in ROOTS for suffix in SUFFIXES for n in ("", "x")]


@pytest.fixture
def eager_switching() -> Iterator[None]:
    # Threads switch as often as the interpreter allows, so a shared stemmer's state would be seen mid-word.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(interval)


def test_concurrent_stemming_gives_each_word_its_own_stem(eager_switching: None) -> None:
    expected = {word: snowballstemmer.stemmer("english").stemWord(word) for word in WORDS}
    failures: list[BaseException] = []
    mismatches: list[str] = []

    def stem_all(offset: int) -> None:
        for _ in range(20):
            relevance._stem.cache_clear()
            for word in WORDS[offset:] + WORDS[:offset]:
                try:
                    if relevance._stem(word) != expected[word]:
                        mismatches.append(word)
                except Exception as error:  # noqa: BLE001 - any error in a thread is the failure
                    failures.append(error)
                    return

    threads = [threading.Thread(target=stem_all, args=(i * 7,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures and not mismatches
