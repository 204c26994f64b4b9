"""Domain errors carry a reason code an operator can count; messages never quote user content."""


class DomainError(Exception):
    reason_code = "domain_error"


class EventConflict(DomainError):
    """A different text was offered at a sequence that already holds an event."""

    reason_code = "event_conflict"


class ScopeViolation(DomainError):
    """A read or write would cross tenant or principal scope."""

    reason_code = "scope_violation"


class WrongSchemaRevision(DomainError):
    reason_code = "wrong_schema_revision"


class UnreadableEvent(DomainError):
    """A stored event no longer validates as a SourceEvent (stored before a boundary rule existed)."""

    reason_code = "unreadable_event"

    def __init__(self, seq: int) -> None:
        super().__init__(f"the stored event at seq {seq} no longer validates")
        self.seq = seq


class AmbiguousReference(DomainError, ValueError):
    """A short m:xxxxxxxx reference that names more than one of the owner's beliefs."""

    reason_code = "ambiguous_reference"


class EmbeddingFailed(Exception):
    """An embedding model could not embed (unreachable, refused, or a vector of the wrong shape). Carries a
    normalized failure class only: recall falls back to text, and a belief waits for its vector. Not a
    DomainError: an endpoint coming back heals it, so the worker retries it."""

    def __init__(self, failure_class: str) -> None:
        super().__init__(f"embedding failed: {failure_class}")
        self.failure_class = failure_class
