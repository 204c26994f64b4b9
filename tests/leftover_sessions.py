"""Generated sessions with contact details and secrets sprinkled into the user's turns, and a record of
exactly what was sprinkled, so a search of the database needs no pattern of the code it checks.

The turns read like a person typing to an assistant: asides, lists, typos, questions; about one in three
holds an e-mail address, a phone number or an API-key-like secret (each value made up and unique)."""

import random
from dataclasses import dataclass, field
from datetime import timedelta
from uuid import UUID

from domain.events import SourceEvent, SourceEventKind
from domain.owner import Owner
from tests.builders import T0

FIRST = ("maya", "tomas", "ines", "arjun", "lena", "kofi", "yuki", "omar", "freya", "dario")
LAST = ("rostova", "quillan", "brandt", "okafor", "vasquez", "lindqvist", "moreau", "tanaka")
DOMAINS = ("example.org", "mail.example.com", "corp.example.net")
PLACES = ("Lisbon", "Porto", "Utrecht", "Leeds", "Osaka", "Tbilisi")
FOODS = ("ramen", "falafel", "paella", "dal", "pho", "gnocchi")
HOBBIES = ("bouldering", "running", "knitting", "chess", "sailing", "pottery")

PLAIN = (
    "I live in {place} now, moved last spring (long story lol).",
    "hmm, I prefer {food} over pizza tbh",
    "I've been doing {hobby} on weekends, my knees disagree though.",
    "Can you remind me what I said about the trip?",
    "My goals this month: 1) finish the report 2) more {hobby} 3) sleep.",
    "I'm a nurse, night shifts mostly. Anyway, what's a good book?",
    "I realy like {food}, espeically the spicy kind.",
    "What's the weather like in {place} in March?",
    "I'm allergic to peanuts - please keep that in mind for recipes.",
    "Things I need: milk, eggs, a new charger, and patience.",
)
WITH_EMAIL = (
    "My email is {email}, send the summary there.",
    "btw you can reach my landlord at {email} if the form asks",
    "I use {email} for work stuff, not for newsletters.",
)
WITH_PHONE = (
    "Call me at {phone} after six.",
    "My dentist's number is {phone}, remind me to book a cleaning?",
    "I changed my number to {phone} last week.",
)
WITH_SECRET = (
    "my api key is {secret} - keep it safe pls",
    "The staging token: {secret} (don't share it).",
    "I set the password to {secret} for the router.",
)
REPLIES = ("Got it.", "Noted, thanks for telling me.", "Sure - anything else?", "Sounds good.")


@dataclass
class Sprinkled:
    """Exactly what the generator put into user turns."""

    emails: set[str] = field(default_factory=set)
    phones: set[str] = field(default_factory=set)
    secrets: set[str] = field(default_factory=set)


@dataclass
class GeneratedSessions:
    sessions: dict[UUID, list[SourceEvent]]
    sprinkled: Sprinkled

    @property
    def event_count(self) -> int:
        return sum(len(events) for events in self.sessions.values())


def _phone(rng: random.Random) -> str:
    a, b, c = rng.randrange(200, 999), rng.randrange(200, 999), rng.randrange(1000, 9999)
    return rng.choice((f"+1 {a} {b} {c}", f"({a}) {b}-{c}", f"+44 20 {b}{a % 10} {c}", f"0{a} {b} {c}"))


def _secret(rng: random.Random) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    body = "".join(rng.choice(alphabet) for _ in range(24))
    return rng.choice((f"sk-{body}", f"ghp_{body.upper()}{body[:8]}", f"AKIA{body.upper()[:16]}"))


def _user_turn(rng: random.Random, sprinkled: Sprinkled) -> str:
    words = {"place": rng.choice(PLACES), "food": rng.choice(FOODS), "hobby": rng.choice(HOBBIES)}
    roll = rng.random()
    if roll < 0.12:
        email = f"{rng.choice(FIRST)}.{rng.choice(LAST)}{rng.randrange(10, 9999)}@{rng.choice(DOMAINS)}"
        sprinkled.emails.add(email)
        return rng.choice(WITH_EMAIL).format(email=email)
    if roll < 0.24:
        phone = _phone(rng)
        sprinkled.phones.add(phone)
        return rng.choice(WITH_PHONE).format(phone=phone)
    if roll < 0.34:
        secret = _secret(rng)
        sprinkled.secrets.add(secret)
        return rng.choice(WITH_SECRET).format(secret=secret)
    return rng.choice(PLAIN).format(**words)


def leftover_sessions(owner: Owner, sessions: int, *, seed: int = 11, turns: int = 6) -> GeneratedSessions:
    """`sessions` sessions of `turns` user turns (each followed by a reply), an hour apart."""
    rng = random.Random(seed)
    sprinkled = Sprinkled()
    made: dict[UUID, list[SourceEvent]] = {}
    for index in range(sessions):
        session_id = UUID(int=rng.getrandbits(128))
        events: list[SourceEvent] = []
        for turn in range(turns):
            for kind, said in (
                (SourceEventKind.USER_MESSAGE, _user_turn(rng, sprinkled)),
                (SourceEventKind.ASSISTANT_MESSAGE, rng.choice(REPLIES)),
            ):
                events.append(
                    SourceEvent(
                        tenant_id=owner.tenant_id,
                        principal_id=owner.principal_id,
                        session_id=session_id,
                        seq=len(events) + 1,
                        kind=kind,
                        text=said,
                        occurred_at=T0 + timedelta(hours=index, minutes=2 * turn, seconds=len(events)),
                    )
                )
        made[session_id] = events
    return GeneratedSessions(made, sprinkled)
