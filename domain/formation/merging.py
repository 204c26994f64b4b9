"""Merging within a batch, and keys for a second claim under one subject.

Merging is irreversible, so it uses the runtime's strict equivalence (same_claim), never the scorer's lenient
one: two candidates become one claim only when they are compatible, share their names in one order, and either
nest or share most of the smaller statement's content."""

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from domain.candidates import (
    MAX_SUBJECT_CHARS,
    CandidateOrigin,
    ClaimKind,
    Derivation,
    EvidenceSpan,
    MemoryCandidate,
    Polarity,
)
from domain.formation.equivalence import MOST_SHARED, same_claim, terms
from domain.formation.language import tokenize
from domain.formation.rendering import conflict_key

MAX_ORDINAL = 99


@dataclass(frozen=True)
class Merged:
    candidates: list[MemoryCandidate]
    # Proposals folded into a richer wording of the same claim; their provenance lives on in the survivor.
    merged_away: int


def terms_could_match(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """same_claim's condition on content lemmas alone, given each statement's match_keys lemmas (its
    distinct terms in order): necessary for same_claim, and computable without tokenizing again, so a
    caller comparing one statement with many tokenizes each statement once and calls same_claim only
    where this holds. tests/property pins that same_claim never holds where this does not."""
    sa, sb = set(a), set(b)
    if not sa or not sb:
        return sa == sb
    shared = sa & sb
    if [t for t in a if t in shared] != [t for t in b if t in shared]:
        return False
    return sa <= sb or sb <= sa or len(shared) >= MOST_SHARED * min(len(sa), len(sb))


class ClaimMatcher:
    """same_claim with each statement's lemmas computed once: the term condition first, then same_claim."""

    def __init__(self) -> None:
        self._lemmas: dict[str, tuple[str, ...]] = {}

    def lemmas(self, statement: str) -> tuple[str, ...]:
        found = self._lemmas.get(statement)
        if found is None:
            found = self._lemmas[statement] = tuple(dict.fromkeys(terms(statement)))
        return found

    def learn(self, statement: str, lemmas: Sequence[str]) -> None:
        """Lemmas a store kept for statement (match_keys' terms: the tuple lemmas() would compute)."""
        self._lemmas.setdefault(statement, tuple(lemmas))

    def same(self, a: str, b: str) -> bool:
        return terms_could_match(self.lemmas(a), self.lemmas(b)) and same_claim(a, b)


def _richness(candidate: MemoryCandidate) -> tuple[int, int, int]:
    # A direct wording of a claim outranks its hedged form; then the wording with more content; a tie goes
    # to the provider, because the fallback's kind is a default and its key is composed from source words.
    return (
        candidate.derivation is Derivation.DIRECT,
        len(set(terms(candidate.statement))),
        candidate.origin is CandidateOrigin.PROVIDER,
    )


def _mergeable(a: MemoryCandidate, b: MemoryCandidate, matcher: ClaimMatcher) -> bool:
    # Channel-attributed hypotheses never merge into owner claims: mail must not ride on an owner's words.
    return (
        a.polarity is b.polarity is Polarity.ASSERT
        and a.channel == b.channel
        and matcher.same(a.statement, b.statement)
    )


def _combine(keep: MemoryCandidate, other: MemoryCandidate) -> MemoryCandidate:
    spans = {span.seq: span for span in other.evidence_spans}
    spans.update({span.seq: span for span in keep.evidence_spans})
    ordered: tuple[EvidenceSpan, ...] = tuple(spans[seq] for seq in sorted(spans))
    return keep.model_copy(
        update={"source_event_ids": tuple(s.seq for s in ordered), "evidence_spans": ordered}
    )


class _ClaimIndex:
    """The kept claims a statement could be the same claim as, without scanning every kept claim.

    terms_could_match needs at least MOST_SHARED of the smaller lemma set shared, so any
    len - floor(MOST_SHARED * len) + 1 of the smaller set's lemmas hold a shared one (a prefix filter).
    Each set's prefix is its rarest lemmas in the batch: a kept claim is found through its prefix (when it
    is the smaller set) or through the probe's prefix among all its lemmas (when the probe is). Sound (a
    superset of the claims that could match) and, with rare lemmas first, near-linear in the batch."""

    def __init__(self, frequency: Counter[str]) -> None:
        self._frequency = frequency
        self._by_prefix: defaultdict[str, list[int]] = defaultdict(list)
        self._by_lemma: defaultdict[str, list[int]] = defaultdict(list)
        self._empty: list[int] = []

    def _prefix(self, lemmas: tuple[str, ...]) -> list[str]:
        ordered = sorted(set(lemmas), key=lambda lemma: (self._frequency[lemma], lemma))
        shared_at_least = max(1, math.floor(MOST_SHARED * len(ordered)))
        return ordered[: len(ordered) - shared_at_least + 1]

    def add(self, index: int, lemmas: tuple[str, ...]) -> None:
        if not lemmas:
            self._empty.append(index)
            return
        for lemma in self._prefix(lemmas):
            self._by_prefix[lemma].append(index)
        for lemma in set(lemmas):
            self._by_lemma[lemma].append(index)

    def could_match(self, lemmas: tuple[str, ...]) -> list[int]:
        """Kept indexes in order (the first mergeable one wins, as in a scan)."""
        if not lemmas:
            return sorted(set(self._empty))
        found = {i for lemma in set(lemmas) for i in self._by_prefix.get(lemma, ())}
        found.update(i for lemma in self._prefix(lemmas) for i in self._by_lemma.get(lemma, ()))
        return sorted(found)


def merge_batch(candidates: list[MemoryCandidate]) -> Merged:
    """One candidate per claim, in the order the first wording of each claim was stated."""
    kept: list[MemoryCandidate] = []
    folded = 0
    matcher = ClaimMatcher()
    frequency: Counter[str] = Counter(
        lemma for candidate in candidates for lemma in set(matcher.lemmas(candidate.statement))
    )
    index = _ClaimIndex(frequency)
    for candidate in candidates:
        lemmas = matcher.lemmas(candidate.statement)
        for at in index.could_match(lemmas):
            existing = kept[at]
            if _mergeable(existing, candidate, matcher):
                winner, loser = (
                    (candidate, existing)
                    if _richness(candidate) > _richness(existing)
                    else (existing, candidate)
                )
                kept[at] = _combine(winner, loser)
                if winner is candidate:
                    # The survivor's wording is the candidate's now: find it by those lemmas too.
                    index.add(at, lemmas)
                folded += 1
                break
        else:
            index.add(len(kept), lemmas)
            kept.append(candidate)
    return Merged(candidates=kept, merged_away=folded)


def _names(statement: str) -> list[str]:
    """Proper names as written, in order, without the holder."""
    return [t.lemma for t in tokenize(statement) if t.text[:1].isupper() and t.lemma != "user"]


def distinct_key(subject: str, statement: str, taken: list[tuple[str, str]]) -> str:
    """The key a claim is filed under when its subject already holds another claim.

    Extended with the words that distinguish it from the claim(s) already there, or, when the claims share
    every word, with its names (or its words) in order, or, when nothing else separates them, an ordinal."""
    return _distinct_key(
        subject, statement, {key for key, _ in taken}, [other for key, other in taken if key == subject]
    )


def _distinct_key(subject: str, statement: str, used: Collection[str], under: Sequence[str]) -> str:
    """distinct_key given the keys taken and the statements filed under subject itself."""
    if subject not in used:
        return subject
    namespace, _, slug = subject.partition(":")
    own = terms(statement)
    others = {t for other in under for t in terms(other)}
    slug_words = set(slug.split("-"))
    distinguishing = [t for t in own if t not in others and t not in slug_words]
    attempts = []
    if distinguishing:
        attempts.append(distinguishing)
    attempts.append(
        [n for n in _names(statement) if n not in slug_words] or [t for t in own if t not in slug_words]
    )
    for words in attempts:
        if words:
            key = _extend(namespace, slug, words)
            if key not in used:
                return key
    for ordinal in range(2, MAX_ORDINAL + 1):
        key = f"{subject[: MAX_SUBJECT_CHARS - 4]}-{ordinal}"
        if key not in used:
            return key
    return subject


def _extend(namespace: str, slug: str, words: list[str]) -> str:
    extension = conflict_key(namespace, words, max_words=3).partition(":")[2]
    return f"{namespace}:{slug}-{extension}"[:MAX_SUBJECT_CHARS]


def file_second_claims(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """Within a batch, a second distinct claim under the same subject and kind gets its own key."""
    # Per kind: the keys taken, and the statements filed under each (looked up, never scanned).
    used: defaultdict[ClaimKind, set[str]] = defaultdict(set)
    under: defaultdict[tuple[ClaimKind, str], list[str]] = defaultdict(list)
    filed: list[MemoryCandidate] = []
    for candidate in candidates:
        if candidate.polarity is Polarity.RETRACT:
            # A retraction is keyed the way its assertion would be; it matches by verb and content anyway.
            filed.append(candidate)
            continue
        kind = candidate.claim_kind
        key = _distinct_key(
            candidate.subject, candidate.statement, used[kind], under[(kind, candidate.subject)]
        )
        if key != candidate.subject:
            candidate = candidate.model_copy(update={"subject": key})
        used[kind].add(key)
        under[(kind, key)].append(candidate.statement)
        filed.append(candidate)
    return filed
