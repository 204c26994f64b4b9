"""When a belief's subject names a gold conflict key: the subject rule of distillation-scorer@7.

A lemma of the belief's subject names a lemma of the gold key or of a gold statement, or is a compound of
two of them, or one of them is a compound of two subject lemmas: "activity:weightlifting" names
"activity:lifting-weights" and the reverse. The key's namespace ("activity:") is the kind's bucket, not
what the claim is about, so it names nothing. The user bucket never names a specific key.
"""

from typing import Final

from domain.formation.language import STOPWORDS, as_verb, lemma, tokenize
from evals.claim_statement import claim_terms

# Each half of a compound is a word of its own: "weight" + "lifting", never "we" + "ightlifting".
MIN_COMPOUND_PART: Final = 3
_KEY_SEPARATORS: Final = str.maketrans({"-": " ", "_": " ", "/": " ", ".": " "})
# Words that name the holder, not a topic: a key made of them alone is the user bucket.
_HOLDER_WORDS: Final = frozenset({"user", "self", "principal"})


def key_lemmas(subject: str) -> frozenset[str]:
    """The lemmas a conflict key is about: its slug's words, without the namespace, the holder or stopwords."""
    _, colon, slug = subject.partition(":")
    words = tokenize((slug if colon else subject).translate(_KEY_SEPARATORS))
    return frozenset(
        as_verb(w.lemma) for w in words if w.lemma not in STOPWORDS and w.lemma not in _HOLDER_WORDS
    )


def is_user_bucket(subject: str) -> bool:
    """The generic user subject, bare or under a namespace ("user", "the user", "person:user", "profile:me")."""
    return not key_lemmas(subject)


def _compound_of(word: str, lemmas: frozenset[str]) -> bool:
    for cut in range(MIN_COMPOUND_PART, len(word) - MIN_COMPOUND_PART + 1):
        head, tail = word[:cut], word[cut:]
        if head.isalpha() and tail.isalpha() and lemma(head) in lemmas and as_verb(lemma(tail)) in lemmas:
            return True
    return False


def names_key(belief_subject: str, gold_subject: str, gold_statements: tuple[str, ...]) -> bool:
    """Whether the belief's subject names the gold conflict key (the user bucket never does)."""
    if is_user_bucket(belief_subject):
        return False
    own = key_lemmas(belief_subject)
    gold = key_lemmas(gold_subject) | {term for s in gold_statements for term in claim_terms(s)}
    return any(word in gold or _compound_of(word, gold) for word in own) or any(
        _compound_of(word, own) for word in gold
    )
