"""The narrow trust exclusions: a span must be a real owned source, and never a secret or an injection."""

import re

from domain.candidates import EvidenceSpan
from domain.events import COMMUNICATION_KINDS, SourceEvent
from domain.formation.segments import SegmentRef
from domain.telemetry import ReasonCategory

_CREDENTIAL = re.compile(
    r"""(?ix)
    \b(?:sk|pk|rk)-[a-z0-9_-]{16,}            # provider API keys
    | \bAKIA[0-9A-Z]{16}\b                     # cloud access key ids
    | \bgh[pousr]_[A-Za-z0-9]{20,}\b           # forge tokens
    | \bxox[abpr]-[A-Za-z0-9-]{10,}            # chat tokens
    | -----BEGIN[ A-Z]*PRIVATE\ KEY-----
    | \b(?:password|passwd|passcode|pin|api[\s_-]?key|secret|token)\b\s*(?:is|=|:)\s*\S+
    | \b\d{3}-\d{2}-\d{4}\b                    # national id numbers
    """
)
_CARD = re.compile(r"\b(?:\d[ -]?){13,19}\b")
_INJECTION = re.compile(
    r"""(?ix)
    \b(?:ignore|disregard|forget)\b[^.]{0,40}\b(?:previous|prior|above|earlier|all)\b[^.]{0,20}\binstructions?\b
    | \byou\ are\ now\b
    | \b(?:system|developer)\ (?:prompt|message)\b
    | \bnew\ instructions?\s*:
    | \bact\ as\ (?:an?\ )?(?:admin|administrator|root|system)\b
    """
)


def _luhn(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def holds_credential(text: str) -> bool:
    if _CREDENTIAL.search(text):
        return True
    return any(_luhn(re.sub(r"\D", "", m.group(0))) for m in _CARD.finditer(text))


REDACTED = "[redacted]"


def mask_credentials(text: str) -> str:
    """The text with everything holds_credential flags replaced by REDACTED: a derived narrative or a
    staged document never repeats a user's password, PIN, key, national id or card number."""
    masked = _CREDENTIAL.sub(REDACTED, text)
    return _CARD.sub(lambda m: REDACTED if _luhn(re.sub(r"\D", "", m.group(0))) else m.group(0), masked)


# Both patterns start only at the start of a token and bound every repeat, so a megabyte without an "@"
# or a long run of digits costs linear time, not one backtracking scan per character.
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}")
# A run of digits with the separators phone numbers are written with; how many digits it holds decides.
_PHONE = re.compile(r"(?<![\w+])(?:\+|00)?\(?\d[\d\s().-]{6,24}\d(?!\w)")
_DATE_LIKE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}")
PHONE_DIGITS = range(7, 16)


def _phone(match: re.Match[str]) -> str:
    found = match.group(0)
    digits = sum(c.isdigit() for c in found)
    if digits not in PHONE_DIGITS or _DATE_LIKE.fullmatch(found.strip()):
        return found
    # A bare run of digits is a phone number only when written like one (a + or a separator).
    if found.isdigit() and digits < 10:
        return found
    return REDACTED


def mask_contacts(text: str) -> str:
    """The text with e-mail addresses and phone numbers replaced by REDACTED, as narratives show them."""
    return _PHONE.sub(_phone, _EMAIL.sub(REDACTED, text))


def mask_sensitive(text: str) -> str:
    """Credentials and contact details masked: what a derived narrative may repeat of a user's text."""
    return mask_contacts(mask_credentials(text))


def holds_injection(text: str) -> bool:
    return bool(_INJECTION.search(text))


def span_rejection(span: EvidenceSpan, admitted: dict[int, SourceEvent]) -> ReasonCategory | None:
    """Why a span may not ground a claim, or None when it may."""
    source = admitted.get(span.seq)
    if source is None or span.text not in source.text:
        return ReasonCategory.REJECTED_PROVENANCE
    if holds_credential(span.text):
        return ReasonCategory.REJECTED_CREDENTIAL
    if holds_injection(span.text):
        return ReasonCategory.REJECTED_INJECTION
    return None


def admitted_sources(ref: SegmentRef, events: list[SourceEvent]) -> dict[int, SourceEvent]:
    """The admitted events of a segment, by seq: its owner assertions and recognized first-party
    communication; nothing else grounds a claim."""
    return {
        e.seq: e for e in events if ref.holds(e) and (e.is_owner_assertion or e.kind in COMMUNICATION_KINDS)
    }
