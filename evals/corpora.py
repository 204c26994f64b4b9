"""Loading the corpora that ship in evals/capability, refusing any that breaks a rule or its frozen digest.

The files are package data, read through importlib.resources so an installed package loads exactly what a
checkout does. The holdout's bytes are checked against the digest recorded beside it before anything
parses them: an edit is a deliberate re-freeze, never a silent change under an artifact bound to the old
digest. A digest is the sha256 of a file's bytes, the form `sha256sum` prints and checks.
"""

import hashlib
from importlib.resources import files
from importlib.resources.abc import Traversable

from pydantic import ValidationError

from domain.policy.evidence import (
    CORPUS_V3_FILE,
    FORMATION_CORPUS_FILE,
    HOLDOUT_V3_DIGEST_FILE,
    HOLDOUT_V3_FILE,
)
from evals.corpus import Corpus
from evals.corpus_rules import development_violations, formation_violations, holdout_violations


class CorpusError(ValueError):
    """A corpus file that breaks a rule; the message names the file and the rules, never its content."""


def capability_dir() -> Traversable:
    return files("evals.capability")


def file_digest(name: str, root: Traversable | None = None) -> str:
    return hashlib.sha256((root or capability_dir()).joinpath(name).read_bytes()).hexdigest()


def load_development(root: Traversable | None = None) -> Corpus:
    corpus = _parse(CORPUS_V3_FILE, root)
    _refuse_broken(CORPUS_V3_FILE, development_violations(corpus))
    return corpus


def load_holdout(root: Traversable | None = None) -> Corpus:
    directory = root or capability_dir()
    recorded = directory.joinpath(HOLDOUT_V3_DIGEST_FILE).read_text(encoding="utf-8").split()
    actual = file_digest(HOLDOUT_V3_FILE, directory)
    if recorded[:2] != [actual, HOLDOUT_V3_FILE]:
        raise CorpusError(
            f"{HOLDOUT_V3_FILE} does not match its frozen digest: recorded "
            f"{recorded[0] if recorded else '(none)'} in {HOLDOUT_V3_DIGEST_FILE}, content is {actual}"
        )
    corpus = _parse(HOLDOUT_V3_FILE, directory)
    _refuse_broken(HOLDOUT_V3_FILE, holdout_violations(corpus, _parse(CORPUS_V3_FILE, directory)))
    return corpus


def load_formation_corpus(root: Traversable | None = None) -> Corpus:
    corpus = _parse(FORMATION_CORPUS_FILE, root)
    _refuse_broken(FORMATION_CORPUS_FILE, formation_violations(corpus))
    return corpus


def _parse(name: str, root: Traversable | None) -> Corpus:
    try:
        return Corpus.model_validate_json((root or capability_dir()).joinpath(name).read_bytes())
    except ValidationError as error:
        # Locations and rule messages only: the models hide inputs, and a corpus is people's conversations.
        rules = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        raise CorpusError(f"{name} is not a valid corpus: {rules}") from None


def _refuse_broken(name: str, violations: list[str]) -> None:
    if violations:
        raise CorpusError(f"{name} breaks corpus rules: {'; '.join(violations)}")
