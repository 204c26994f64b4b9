"""The formation@9 deterministic fallback, one per stage.

When a provider stage fails (or no provider is configured) the consolidation still completes:
  - integration falls back to one episode whose narrative is the ordered owner text under the bound;
  - anticipation falls back to no predictions, so no clause can be skipped as already known;
  - distillation falls back to a high-recall, pattern-based extractor over owner-asserted clauses.

The extractor reads each clause for first-person declarative predicates ("I ..."), including those embedded
in questions ("..., given that I swim on other days?"), and skips inverted or hypothetical ones ("should I",
"if I", "would I"), so a question about training forms nothing about the user's training. Every candidate
cites its whole clause, an exact substring of the event. A correction forms a retraction only, keyed by
running the same rules over the affirmative reading of the clause. Matching uses lemmas from
domain.language; statements come from domain.rendering.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from domain.candidates import (
    CandidateOrigin,
    ClaimKind,
    Derivation,
    EvidenceSpan,
    Longevity,
    MemoryCandidate,
    Polarity,
)
from domain.clauses import Clause, split_clauses
from domain.episodes import MAX_NARRATIVE_BYTES, IntegratedEpisode, episode_derivation_key, episode_id
from domain.events import SourceEvent
from domain.language import STOPWORDS, Token, lemma, tokenize, verb_lemma
from domain.rendering import Aspect, Predicate, conflict_key, render_statement, third_person
from domain.stage_schemas import AnticipationResponse
from domain.versions import EPISODE_INTEGRATION

MAX_CLAIMS_PER_CLAUSE = 12


# --- stage 1 and 2 fallbacks -------------------------------------------------------------------


def fallback_episode(events: Sequence[SourceEvent], created_at: datetime) -> IntegratedEpisode | None:
    """One episode over the owner-asserted events, their text joined in sequence order under the bound.

    Returns None when no event is an owner assertion: there is nothing the user said to integrate.
    """
    owned = sorted((e for e in events if e.is_owner_assertion), key=lambda e: e.seq)
    if not owned:
        return None
    first = owned[0]
    if any(e.owner != first.owner or e.session_id != first.session_id for e in owned):
        raise ValueError("a fallback episode covers one owner's session")
    seqs: list[int] = []
    parts: list[str] = []
    used = 0
    for event in owned:
        if event.seq in seqs:
            continue
        piece = f"[{event.seq}] {event.text}"
        encoded = piece.encode("utf-8")
        room = MAX_NARRATIVE_BYTES - used - (1 if parts else 0)
        if room <= 0:
            break
        if len(encoded) > room:
            # Cut on a character boundary: the narrative is bounded, the source events stay authoritative.
            piece = encoded[:room].decode("utf-8", errors="ignore")
        parts.append(piece)
        seqs.append(event.seq)
        used += len(piece.encode("utf-8")) + (1 if len(parts) > 1 else 0)
    ids = tuple(seqs)
    key = episode_derivation_key(
        EPISODE_INTEGRATION, first.tenant_id, first.principal_id, first.session_id, ids
    )
    cited = [e for e in owned if e.seq in set(ids)]
    return IntegratedEpisode(
        id=episode_id(key),
        tenant_id=first.tenant_id,
        principal_id=first.principal_id,
        session_id=first.session_id,
        source_event_ids=ids,
        source_started_at=min(e.occurred_at for e in cited),
        source_ended_at=max(e.occurred_at for e in cited),
        narrative="\n".join(parts),
        subjects=(),
        integration_policy_version=EPISODE_INTEGRATION,
        derivation_key=key,
        created_at=created_at,
    )


def empty_anticipation() -> AnticipationResponse:
    """No predictions: with nothing anticipated, no clause can be dropped as redundant."""
    return AnticipationResponse(predictions=[])


# --- vocabulary --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Activity:
    gerund: str  # the conflict key word: "activity:swimming"
    verb: str  # how the statement says it: "swims"
    complement: str = ""  # "yoga" for "does yoga"


_ACTIVITIES: dict[str, _Activity] = {
    "swim": _Activity("swimming", "swim"),
    "run": _Activity("running", "run"),
    "bike": _Activity("biking", "bike"),
    "cycle": _Activity("cycling", "cycle"),
    "hike": _Activity("hiking", "hike"),
    "climb": _Activity("climbing", "climb"),
    "row": _Activity("rowing", "row"),
    "walk": _Activity("walking", "walk"),
    "jog": _Activity("jogging", "jog"),
    "ski": _Activity("skiing", "ski"),
    "surf": _Activity("surfing", "surf"),
    "skate": _Activity("skating", "skate"),
    "dance": _Activity("dancing", "dance"),
    "box": _Activity("boxing", "box"),
    "lift": _Activity("lifting", "lift", "weights"),
    "yoga": _Activity("yoga", "do", "yoga"),
    "pilates": _Activity("pilates", "do", "pilates"),
    "crossfit": _Activity("crossfit", "do", "CrossFit"),
    "tennis": _Activity("tennis", "play", "tennis"),
    "golf": _Activity("golf", "play", "golf"),
    "football": _Activity("football", "play", "football"),
    "soccer": _Activity("soccer", "play", "soccer"),
    "basketball": _Activity("basketball", "play", "basketball"),
    "volleyball": _Activity("volleyball", "play", "volleyball"),
}
# Verbs that are also nouns ("a bike", "a run") count as activities only as a verb or a gerund.
_NOUN_ACTIVITIES = frozenset(
    {"yoga", "pilates", "crossfit", "tennis", "golf", "football", "soccer", "basketball", "volleyball"}
)
_ACTIVITY_CARRIERS = frozenset(
    {"do", "go", "practice", "practise", "train", "add", "mix", "alternate", "also"}
)
_TRAINING_WORDS = frozenset(
    {
        "train",
        "training",
        "workout",
        "exercise",
        "lift",
        "weightlifting",
        "gym",
        "calisthenics",
        "gymnastics",
        "gymnastic",
        "strength",
        "routine",
        "program",
        "programme",
        "sport",
        "squat",
        "deadlift",
    }
)
_PROGRAM_TOKEN = re.compile(r"^\d+x\d+$", re.IGNORECASE)


def _is_program(lower: str) -> bool:
    """A named program such as "5x5"; the "x" test spares the regex for every other word."""
    return "x" in lower and _PROGRAM_TOKEN.match(lower) is not None


_PROGRAM_WORDS = frozenset({"routine", "program", "programme", "split", "workout", "plan", "schedule"})
_PROJECT_VERBS = frozenset({"build", "develop", "create", "write", "make", "design", "code", "program"})
_SOFTWARE_WORDS = frozenset(
    {
        "agent",
        "app",
        "application",
        "software",
        "api",
        "bot",
        "chatbot",
        "website",
        "site",
        "backend",
        "frontend",
        "library",
        "framework",
        "compiler",
        "plugin",
        "extension",
        "script",
        "cli",
        "database",
        "server",
        "service",
        "game",
        "sdk",
        "saas",
        "tool",
        "ai",
        "llm",
        "model",
        "code",
        "program",
        "pipeline",
    }
)
_OCCUPATIONS = frozenset(
    {
        "engineer",
        "developer",
        "programmer",
        "teacher",
        "nurse",
        "doctor",
        "physician",
        "designer",
        "manager",
        "student",
        "lawyer",
        "accountant",
        "scientist",
        "researcher",
        "writer",
        "consultant",
        "architect",
        "analyst",
        "pharmacist",
        "electrician",
        "plumber",
        "chef",
        "journalist",
        "professor",
        "therapist",
        "dentist",
        "firefighter",
        "pilot",
        "mechanic",
        "coach",
        "trainer",
    }
)
_RELATIVES = frozenset(
    {
        "wife",
        "husband",
        "partner",
        "son",
        "daughter",
        "kid",
        "child",
        "mother",
        "mom",
        "mum",
        "father",
        "dad",
        "sister",
        "brother",
        "parent",
        "girlfriend",
        "boyfriend",
        "spouse",
        "grandmother",
        "grandfather",
    }
)
_VEHICLES_AND_THINGS = frozenset(
    {
        "car",
        "bike",
        "bicycle",
        "motorcycle",
        "truck",
        "van",
        "laptop",
        "computer",
        "phone",
        "house",
        "apartment",
        "flat",
        "garden",
        "dog",
        "cat",
        "boat",
        "membership",
        "tesla",
        "bmw",
        "audi",
        "volvo",
        "toyota",
        "honda",
        "mac",
        "macbook",
        "iphone",
        "raspberry",
    }
)
_AUX = frozenset(
    {"be", "have", "do", "will", "would", "can", "could", "should", "might", "may", "must", "shall"}
)
_MODALS = frozenset({"will", "would", "could", "should", "might", "may", "must", "shall"})
_ADVERBS = frozenset(
    {
        "still",
        "currently",
        "also",
        "usually",
        "regularly",
        "really",
        "just",
        "now",
        "always",
        "mostly",
        "often",
        "recently",
        "already",
        "actually",
        "basically",
        "generally",
        "sometimes",
        "typically",
        "normally",
        "mainly",
        "definitely",
        "personally",
        "honestly",
        "even",
        "only",
        "again",
        "frequently",
        "occasionally",
        "consistently",
    }
)
_INVERSION = frozenset(
    {
        "should",
        "would",
        "could",
        "can",
        "do",
        "does",
        "did",
        "will",
        "am",
        "was",
        "have",
        "shall",
        "may",
        "might",
        "must",
        "were",
    }
)
_HYPOTHETICAL = frozenset(
    {"if", "whether", "suppose", "supposing", "imagine", "unless", "assuming", "hypothetically", "pretend"}
)
_CUT_WORDS = frozenset(
    {
        "and",
        "but",
        "because",
        "so",
        "which",
        "that",
        "since",
        "while",
        "although",
        "though",
        "who",
        "whether",
        "if",
        "what",
        "when",
        "where",
        "how",
        "or",
    }
)
_META_GOALS = frozenset(
    {
        "ask",
        "know",
        "check",
        "confirm",
        "see",
        "understand",
        "say",
        "mention",
        "clarify",
        "tell",
        "add",
        "share",
        "thank",
    }
)
# Verbs by which a user states their own experience; "I read about six years of X" states none.
_EXPERIENCE_VERBS = frozenset(
    {
        "do",
        "have",
        "train",
        "practice",
        "practise",
        "spend",
        "restart",
        "resume",
        "return",
        "start",
        "come",
        "switch",
        "get",
        "compete",
        "work",
    }
)
_CORRECTION_TAIL = frozenset({"anymore"})
_FREQUENCY = re.compile(
    r"\b(?:(?:\d+|one|two|three|four|five|six|seven)(?:\s*(?:-|–|to|or)\s*(?:\d+|two|three|four|five|six|seven))?\s*(?:x|times)\s*(?:a|per|each|every|/)\s*(?:day|week|month)"
    r"|(?:once|twice|thrice)\s+(?:a|per|each|every)\s+(?:day|week|month)"
    r"|every\s+(?:other\s+)?(?:day|morning|evening|night|week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?"
    r"|each\s+(?:day|morning|evening|week)"
    r"|on\s+(?:the\s+)?(?:other|off|rest|remaining|alternate|non-lifting|in-between)\s+days"
    r"|on\s+(?:weekends|weekdays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)"
    r"|(?:most|some)\s+(?:days|mornings|evenings|nights|weekends)"
    r"|in\s+the\s+(?:mornings|evenings)"
    r"|daily|weekly|nightly|regularly|usually|often|frequently)\b",
    re.IGNORECASE,
)
_LIFETIME = re.compile(
    r"\b(?:for\s+(?:about\s+|around\s+|roughly\s+|almost\s+|nearly\s+|over\s+|more\s+than\s+|the\s+(?:last|past)\s+)?(?:\d+|a\s+few|a\s+couple\s+of|several|many|two|three|four|five|six|seven|eight|nine|ten|twenty|\w+teen)\s+(?:years?|decades?)"
    r"|for\s+(?:years|decades)|most\s+of\s+my\s+(?:adult\s+)?life|all\s+my\s+life|my\s+whole\s+life|since\s+I\s+was)\b",
    re.IGNORECASE,
)
_YEARS_OF = re.compile(
    r"(?P<q>\b(?:(?:about|around|roughly|almost|nearly|over|more\s+than|some)\s+)?(?:(?:\d+|a\s+few|several|many|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+)?)"
    r"years?\s+of\s+(?P<x>[^\W\d_][\w\s-]*?)(?=\s*(?:[,.;:!?)]|$)|\s+(?:and|but|before|after|so|then|which|that|because|when|with|in|at|on)\b)",
    re.IGNORECASE,
)
_AGE_AWARE = re.compile(
    r"\b(?:take|takes|taking|took)\s+my\s+(?P<x>[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)\s+into\s+(?:account|consideration)"
    r"|\b(?:consider|considers|considering|factor\s+in|factoring\s+in|account\s+for|accounting\s+for|appropriate\s+for|suitable\s+for|adapted\s+to|tailored\s+to|based\s+on)\s+my\s+(?P<y>[^\W\d_][\w-]*)",
    re.IGNORECASE,
)
_REQUEST_WORDS = frozenset(
    {
        "recommend",
        "recommendation",
        "advice",
        "advise",
        "suggest",
        "suggestion",
        "tip",
        "you",
        "please",
        "answer",
        "plan",
        "program",
    }
)
_MY_RELATIVE = re.compile(
    r"(?:^|[,;:]\s*|\band\s+)[Mm]y\s+(?P<who>[a-z]+)\s+(?P<rest>(?:is|was|has|works|plays|goes|lives|studies|swims|runs|loves|does|attends|takes)\b[^,;!?]*)"
)
_MY_PROJECT = re.compile(
    r"(?:^|[,;:]\s*|\band\s+)[Mm]y\s+(?P<what>project|app|agent|bot|repo|codebase|startup|service|website|site|api|backend|frontend|server|company)\s+(?P<rest>(?:uses|runs|is|has|needs|relies|depends|stores|calls)\b[^,;!?]*)"
)
_MY_GOAL = re.compile(r"\b[Mm]y\s+(?:main\s+)?(?:goal|aim|plan|objective)\s+is\s+(?P<rest>to\s+[^,;!?]+)")
_NOT_STALLED = re.compile(
    r"(?:\bnot|n't|\bnever)\s+(?:\w+\s+)?(?:stalled|plateaued|stuck)\b|\bno\s+(?:plateau|stall)",
    re.IGNORECASE,
)
_ANY_MORE = re.compile(r"\bany\s+more\b", re.IGNORECASE)
_NEGATED_BEFORE = re.compile(r"\b(?:not|n't|no need to|never)\b")


# Most clauses match none of the case-insensitive patterns above, and a regex with no literal prefix tries
# every position. A substring test on the folded text rules a pattern out first: every match of a pattern
# contains one of its hint words, and _folded maps the only characters that IGNORECASE matches to an ASCII
# letter but str.lower() does not lower to it alone ("İ" and "ı" for i, "ſ" for s), so a hint is never
# missed.
def _folded(text: str) -> str:
    if not text.isascii():
        text = text.replace("İ", "i").replace("ı", "i").replace("ſ", "s")
    return text.lower()


def _hinted(low: str, hints: tuple[str, ...]) -> bool:
    return any(hint in low for hint in hints)


_FREQUENCY_HINTS = (
    "day",
    "week",
    "month",
    "morning",
    "evening",
    "night",
    "daily",
    "regularly",
    "usually",
    "often",
    "frequently",
)
_LIFETIME_HINTS = ("year", "decade", "life", "since")
_YEARS_OF_HINTS = ("year",)
_NOT_STALLED_HINTS = ("stall", "plateau", "stuck")
_AGE_AWARE_HINTS = (
    "into",
    "consider",
    "factor",
    "account",
    "appropriate",
    "suitable",
    "adapted",
    "tailored",
    "based",
)
_MY_GOAL_HINTS = ("goal", "aim", "plan", "objective")
_MY_RELATIVE_HINTS = (
    "is",
    "was",
    "has",
    "works",
    "plays",
    "goes",
    "lives",
    "studies",
    "swims",
    "runs",
    "loves",
    "does",
    "attends",
    "takes",
)
_MY_PROJECT_HINTS = (
    "project",
    "app",
    "agent",
    "bot",
    "repo",
    "codebase",
    "startup",
    "service",
    "website",
    "site",
    "api",
    "backend",
    "frontend",
    "server",
    "company",
)


def _not_stalled(clause_text: str) -> bool:
    return _hinted(_folded(clause_text), _NOT_STALLED_HINTS) and _NOT_STALLED.search(clause_text) is not None


@dataclass(slots=True)
class _Claim:
    kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    polarity: Polarity
    subject: str
    predicate: Predicate
    holder: str = "User"

    def statement(self) -> str:
        return render_statement(self.kind, self.derivation, self.polarity, self.predicate, self.holder)


@dataclass(slots=True)
class _Parse:
    """One first-person predicate: its auxiliaries, main verb and the tokens after it."""

    tokens: list[Token]
    verb_at: int
    negated: bool
    modal: str | None
    perfect: bool
    progressive: bool
    used_to: bool
    no_longer: bool
    been: bool
    adverbs: list[str] = field(default_factory=list)
    _lemma: str | None = None
    _rest: list[Token] | None = None
    _aspect: tuple[Aspect, str] | None = None

    @property
    def verb(self) -> Token:
        return self.tokens[self.verb_at]

    @property
    def lemma(self) -> str:
        # Rules ask for the verb's lemma many times per predicate; compute it once.
        if self._lemma is None:
            self._lemma = verb_lemma(self.verb)
        return self._lemma

    @property
    def rest(self) -> list[Token]:
        # Read by every rule; no rule changes the list, so one slice serves them all.
        if self._rest is None:
            self._rest = self.tokens[self.verb_at + 1 :]
        return self._rest


# --- parsing -----------------------------------------------------------------------------------


def _is_first_person(token: Token) -> bool:
    return token.lower == "i" and token.text[:1] in ("I", "i")


def _parse_predicate(tokens: list[Token]) -> _Parse | None:
    i = 0
    negated = perfect = progressive = used_to = no_longer = been = False
    modal: str | None = None
    adverbs: list[str] = []
    while i < len(tokens):
        tok = tokens[i]
        low = tok.lower
        if low in ("not", "never"):
            negated = True
        elif low == "no" and i + 1 < len(tokens) and tokens[i + 1].lower == "longer":
            negated = no_longer = True
            i += 1
        elif low == "used" and i + 1 < len(tokens) and tokens[i + 1].lower == "to":
            used_to = True
            i += 1
        elif low in _ADVERBS:
            adverbs.append(low)
        elif tok.lemma in _AUX and i + 1 < len(tokens) and _continues_aux(tokens, i):
            if low in _MODALS:
                modal = low
            elif tok.lemma == "have":
                perfect = True
            elif low == "been":
                been = True
            elif tok.lemma == "be":
                progressive = True
        else:
            break
        i += 1
    if i >= len(tokens):
        return None
    return _Parse(tokens, i, negated, modal, perfect, progressive, used_to, no_longer, been, adverbs)


def _continues_aux(tokens: list[Token], i: int) -> bool:
    """An auxiliary is followed by another verb form; "I have a bike" and "I am 44" are main verbs."""
    nxt = tokens[i + 1]
    if nxt.lower in ("not", "never", "no") or nxt.lower in _ADVERBS or nxt.lemma in _AUX:
        return True
    low = tokens[i].lower
    if low in _MODALS or low == "can":
        return True
    if tokens[i].lemma == "do":
        # "I do a 5x5 routine" has "do" as its main verb; only "I do not ..." makes it an auxiliary.
        return False
    if tokens[i].lemma == "have":
        # "have trained" (participle) versus "have two kids" (object).
        return (
            nxt.lower != nxt.lemma
            and not nxt.lower.endswith("s")
            or nxt.lower in ("been", "done", "had", "made", "got")
        )
    if tokens[i].lemma == "be":
        return nxt.lower.endswith("ing") and nxt.lower not in (
            "something",
            "nothing",
            "anything",
            "everything",
        )
    return False


_TRAILING = frozenset(
    {"for", "to", "of", "in", "on", "at", "with", "a", "an", "the", "my", "as", "by", "from", "than", "about"}
)
_COORDINATORS = frozenset({"and", "or"})
_TAIL_WORDS = _CORRECTION_TAIL | {"any", "more"}
_CUT_GAP = re.compile(r'[,;:—–()"“”]')


def _cut(tokens: list[Token], text: str, keep_and: bool = False) -> list[Token]:
    """Tokens up to the first clause-internal boundary: a comma, a dash, or a subordinating word.

    keep_and keeps a coordinated noun phrase whole ("web search and web fetch").
    """
    kept: list[Token] = []
    for index, tok in enumerate(tokens):
        prev = tokens[index - 1].lower if index else ""
        nxt = tokens[index + 1].lower if index + 1 < len(tokens) else ""
        if index and tok.lower in _CUT_WORDS:
            if (
                tok.lower == "while"
                and prev == "a"
                or keep_and
                and tok.lower in _COORDINATORS
                and nxt not in ("i", "then", "also", "so", "but", "")
            ):
                pass
            else:
                break
        if tok.lower == "as" and nxt in ("long", "soon", "far", "much", "well"):
            break
        if kept:
            gap = text[kept[-1].end : tok.start]
            if gap and gap != " " and (_CUT_GAP.search(gap) is not None or " - " in gap):
                break
        kept.append(tok)
    while kept and kept[-1].lower in _TAIL_WORDS:
        if kept[-1].lower == "more" and (len(kept) < 2 or kept[-2].lower != "any"):
            break
        kept.pop()
        if kept and kept[-1].lower == "any":
            kept.pop()
    while kept and kept[-1].lower in _TRAILING:
        kept.pop()
    return kept


def _phrase(text: str, tokens: list[Token]) -> str:
    if not tokens:
        return ""
    return text[tokens[0].start : tokens[-1].end]


def _content(tokens: Sequence[Token]) -> list[str]:
    return [
        t.lemma if not t.text.isupper() else t.lower
        for t in tokens
        if t.lemma not in STOPWORDS and t.lower not in STOPWORDS
    ]


def _aspect_of(parse: _Parse) -> tuple[Aspect, str]:
    # Both the history and the habit rules ask; a predicate's aspect never changes, so compute it once.
    if parse._aspect is None:
        parse._aspect = _compute_aspect(parse)
    return parse._aspect


def _compute_aspect(parse: _Parse) -> tuple[Aspect, str]:
    verb = parse.verb
    if parse.perfect and parse.been:
        return Aspect.PERFECT, f"been {verb.text}"
    if parse.perfect:
        return Aspect.PERFECT, verb.text
    if parse.progressive:
        return Aspect.PROGRESSIVE, verb.text
    if parse.used_to:
        return Aspect.PAST, f"used to {verb.lower}"
    if verb.lower != verb.lemma and not verb.lower.endswith("ing") and verb.lower != third_person(verb.lemma):
        return Aspect.PAST, verb.text
    return Aspect.SIMPLE, verb.text


# --- rules -------------------------------------------------------------------------------------


def _frequency(text: str, start: int, end: int) -> re.Match[str] | None:
    if not _hinted(_folded(text[start:end]), _FREQUENCY_HINTS):
        return None
    return _FREQUENCY.search(text, start, end)


def _activity_of(tok: Token, as_verb: bool) -> _Activity | None:
    key = tok.lemma
    activity = _ACTIVITIES.get(key)
    if activity is None:
        return None
    if key in _NOUN_ACTIVITIES or as_verb:
        return activity
    return activity if tok.lower == activity.gerund else None


def _activity_list(text: str, tokens: list[Token], first_is_verb: bool) -> list[tuple[Token, _Activity]]:
    """The first run of coordinated activities ("swimming, running and biking"), each atomically."""
    found: list[tuple[Token, _Activity]] = []
    for index, tok in enumerate(tokens):
        activity = _activity_of(tok, as_verb=first_is_verb and index == 0 or (first_is_verb and bool(found)))
        if activity is None:
            if found and tok.lower not in ("and", "or", "plus"):
                break
            continue
        if found:
            gap = text[found[-1][0].end : tok.start].strip(" ,&").lower()
            if gap not in ("", "and", "or", "plus", "as well as", "and also", "and then"):
                break
        if all(a.gerund != activity.gerund for _, a in found):
            found.append((tok, activity))
    return found


def _habit_claims(text: str, parse: _Parse, region_end: int) -> list[_Claim]:
    claims: list[_Claim] = []
    main = parse.lemma
    rest = parse.rest
    aspect, _ = _aspect_of(parse)
    if aspect not in (Aspect.SIMPLE, Aspect.PROGRESSIVE):
        return claims
    verb_is_activity = main in _ACTIVITIES and (
        not rest
        or rest[0].lower
        not in (
            "a",
            "an",
            "the",
            "my",
            "this",
            "that",
            "our",
            "his",
            "her",
            "their",
            "some",
            "it",
            "late",
            "out",
            "into",
        )
    )
    freq = _frequency(text, parse.verb.start, region_end)
    if aspect is Aspect.PROGRESSIVE and freq is None:
        return claims
    # The routine: a named program ("5x5") with its schedule.
    program_at = next((i for i, t in enumerate(rest) if _is_program(t.lower)), None)
    bounded = _cut(rest, text)
    if freq is not None and (not bounded or freq.start() > bounded[-1].end):
        freq = None
    if program_at is not None and freq is not None and main in {"do", "run", "follow", "train", "use", "be"}:
        program = rest[program_at].lower
        object_tokens = [t for t in rest if t.end <= freq.end()]
        kept = _cut(object_tokens, text)
        complement = _phrase(text, kept)
        if freq.end() > (kept[-1].end if kept else 0):
            complement = text[rest[0].start : freq.end()] if rest else freq.group(0)
        claims.append(
            _Claim(
                ClaimKind.HABIT,
                Derivation.DIRECT,
                Longevity.ONGOING,
                Polarity.ASSERT,
                f"routine:{program}",
                Predicate(main if main != "be" else "do", parse.verb.text, Aspect.SIMPLE, complement),
            )
        )
    # Coordinated activities, each its own habit with the schedule that follows the list.
    if verb_is_activity or main in _ACTIVITY_CARRIERS or program_at is not None:
        candidates = ([parse.verb] if verb_is_activity else []) + rest
        activities = _activity_list(text, candidates, first_is_verb=verb_is_activity)
        if activities:
            after = activities[-1][0].end
            schedule = _frequency(text, after, region_end) or freq
            qualifier = schedule.group(0) if schedule is not None and schedule.start() >= after else ""
            if program_at is not None and not qualifier:
                qualifier = ""
            for _, activity in activities:
                complement = " ".join(part for part in (activity.complement, qualifier) if part)
                claims.append(
                    _Claim(
                        ClaimKind.HABIT,
                        Derivation.DIRECT,
                        Longevity.ONGOING,
                        Polarity.ASSERT,
                        f"activity:{activity.gerund}",
                        Predicate(activity.verb, activity.verb, Aspect.SIMPLE, complement),
                    )
                )
    if not claims and freq is not None and aspect is Aspect.SIMPLE and main not in _AUX:
        kept = _cut(rest, text)
        # The schedule must belong to this predicate, not to a subordinate clause after a cut.
        if kept and kept[-1].end >= freq.end() and any(t.lemma not in STOPWORDS for t in kept):
            words = [main] + [w for w in _content(kept)]
            claims.append(
                _Claim(
                    ClaimKind.HABIT,
                    Derivation.DIRECT,
                    Longevity.ONGOING,
                    Polarity.ASSERT,
                    conflict_key("habit", words),
                    Predicate(main, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
                )
            )
    return claims


def _history_claims(text: str, parse: _Parse, region_end: int) -> list[_Claim]:
    claims: list[_Claim] = []
    aspect, surface = _aspect_of(parse)
    region = text[parse.verb.start : region_end]
    low = _folded(region)
    lifetime = _LIFETIME.search(text, parse.verb.start, region_end) if _hinted(low, _LIFETIME_HINTS) else None
    restarting = parse.lemma in {"restart", "resume", "return", "start"}
    experienced = (
        parse.lemma in _EXPERIENCE_VERBS or parse.lemma in _ACTIVITIES or parse.lemma in _TRAINING_WORDS
    )
    # One scan serves both questions: whether a restart names years of something, and which years.
    all_years = (
        list(_YEARS_OF.finditer(region))
        if (restarting or experienced) and _hinted(low, _YEARS_OF_HINTS)
        else []
    )
    restart = restarting and (_mentions_training_word(parse.tokens) or bool(all_years))
    years_of = all_years if experienced else []
    main_is_years = parse.lemma == "have" and bool(years_of)
    if (
        (lifetime is not None or restart or parse.used_to)
        and not main_is_years
        and aspect is not Aspect.PROGRESSIVE
    ):
        kept = _cut(parse.rest, text)
        if lifetime is not None and (not kept or kept[-1].end < lifetime.end()):
            # The duration is the point of a history claim; keep it even past a cut.
            kept = [t for t in parse.rest if t.end <= lifetime.end()]
        complement = _phrase(text, kept)
        if aspect is Aspect.SIMPLE and lifetime is not None:
            aspect, surface = Aspect.PERFECT, surface
        claims.append(
            _Claim(
                ClaimKind.SKILL,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("history", [parse.lemma] + _content(kept)),
                Predicate(
                    parse.lemma, surface, aspect if aspect is not Aspect.SIMPLE else Aspect.SIMPLE, complement
                ),
            )
        )
    for match in years_of:
        what = match.group("x").strip()
        if not what or what.lower() in ("age", "experience"):
            continue
        quantity = match.group("q").strip()
        phrase = f"{quantity} years of {what}".strip() if quantity else f"years of {what}"
        tail = "" if what.lower().endswith(("experience", "practice")) else " experience"
        claims.append(
            _Claim(
                ClaimKind.SKILL,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("history", what),
                Predicate("have", "has", Aspect.SIMPLE, f"{phrase}{tail}"),
            )
        )
    return claims


def _mentions_training_word(tokens: list[Token]) -> bool:
    return any(
        t.lemma in _TRAINING_WORDS or t.lower in _TRAINING_WORDS or _is_program(t.lower) for t in tokens
    )


def _project_claims(text: str, parse: _Parse) -> list[_Claim]:
    working_on = parse.lemma == "work" and parse.rest[:1] and parse.rest[0].lower == "on"
    if not (parse.progressive and (parse.lemma in _PROJECT_VERBS or working_on)):
        return []
    rest = parse.rest[1:] if working_on else parse.rest
    kept = _cut(rest, text, keep_and=True)
    words = _content(kept)
    if not words:
        return []
    complement = _phrase(text, kept)
    predicate = (
        Predicate("work", "working", Aspect.PROGRESSIVE, f"on {complement}")
        if working_on
        else Predicate(parse.lemma, parse.verb.text, Aspect.PROGRESSIVE, complement)
    )
    claims = [
        _Claim(
            ClaimKind.ONGOING_PROJECT,
            Derivation.DIRECT,
            Longevity.ONGOING,
            Polarity.ASSERT,
            conflict_key("project", words),
            predicate,
        )
    ]
    if set(words) & _SOFTWARE_WORDS:
        claims.append(
            _Claim(
                ClaimKind.SKILL,
                Derivation.HYPOTHESIS,
                Longevity.TENTATIVE,
                Polarity.ASSERT,
                "skill:software-development",
                Predicate("have", "has", Aspect.SIMPLE, "software-development experience"),
            )
        )
    return claims


def _goal_claims(text: str, parse: _Parse) -> list[_Claim]:
    rest = parse.rest
    lemma = parse.lemma
    if lemma in {"wonder", "decide", "figure", "choose", "think"} and rest:
        # "I am wondering what to use for web search": deciding between tools is a goal.
        head = rest[1:] if rest[0].lower == "out" else rest
        if len(head) >= 3 and head[0].lower in ("what", "which") and head[1].lower == "to":
            kept = [head[0], head[1]] + _cut(head[2:], text, keep_and=True)
            tail = _phrase(text, kept)
            words = ["choose"] + [w for w in _content(kept[2:]) if w not in {"use", "choose", "pick", "get"}]
            return [
                _Claim(
                    ClaimKind.GOAL,
                    Derivation.DIRECT,
                    Longevity.ONGOING,
                    Polarity.ASSERT,
                    conflict_key("goal", words),
                    Predicate("want", "wants", Aspect.SIMPLE, f"to decide {tail}"),
                )
            ]
        return []
    wants = lemma in {"want", "hope", "plan", "aim", "intend", "try", "wish", "need"} or (
        lemma in {"like", "love"} and parse.modal == "would"
    )
    if not wants or len(rest) < 2 or rest[0].lower != "to":
        return []
    target = rest[1]
    if verb_lemma(target) in _META_GOALS:
        return []
    kept = [rest[0]] + _cut(rest[1:], text)
    complement = _phrase(text, kept)
    words = _content(kept)
    if not words:
        return []
    kind = (
        ClaimKind.ONGOING_PROJECT
        if verb_lemma(target) in _PROJECT_VERBS and lemma in {"plan", "intend"}
        else ClaimKind.GOAL
    )
    if lemma in {"like", "love", "wish"}:
        predicate = Predicate("want", "wants", Aspect.SIMPLE, complement)
    elif parse.progressive:
        predicate = Predicate(lemma, parse.verb.text, Aspect.PROGRESSIVE, complement)
    else:
        predicate = Predicate(lemma, parse.verb.text, Aspect.SIMPLE, complement)
    namespace = "project" if kind is ClaimKind.ONGOING_PROJECT else "goal"
    return [
        _Claim(
            kind,
            Derivation.DIRECT,
            Longevity.ONGOING,
            Polarity.ASSERT,
            conflict_key(namespace, words),
            predicate,
        )
    ]


def _status_claims(text: str, clause: Clause, parse: _Parse) -> list[_Claim]:
    lemma = parse.lemma
    progressing = (
        lemma in {"progress", "improve"}
        and parse.progressive
        or (lemma == "make" and any(t.lemma == "progress" for t in parse.rest[:3]))
    )
    stalled = lemma in {"stall", "plateau"} or (
        lemma == "be" and any(t.lower in ("stalled", "stuck", "plateaued") for t in parse.rest[:2])
    )
    if not (progressing or stalled):
        return []
    not_stalled = _not_stalled(clause.text)
    if progressing and parse.negated:
        return []
    parts: list[str] = []
    if progressing:
        parts.append("is still progressing" if "still" in parse.adverbs else "is progressing")
    if not_stalled:
        parts.append("has not stalled")
    elif stalled and not parse.negated:
        parts.append("has stalled")
    if not parts:
        return []
    return [
        _Claim(
            ClaimKind.PROJECT_FACT,
            Derivation.DIRECT,
            Longevity.ONGOING,
            Polarity.ASSERT,
            "status:training-progress" if _mentions_training(text) else "status:progress",
            Predicate("progress", " and ".join(parts), Aspect.BARE, ""),
        )
    ]


def _mentions_training(text: str) -> bool:
    lowered = text.lower()
    return any(
        word in lowered
        for word in ("train", "lift", "5x5", "strength", "workout", "gym", "squat", "progress")
    )


def _interest_claims(text: str, parse: _Parse) -> list[_Claim]:
    rest = parse.rest
    if parse.verb.lower in ("interested", "passionate") and parse.progressive:
        # "I'm really interested in": the adverb made "am" look like an auxiliary.
        rest = [parse.verb, *rest]
    elif parse.lemma != "be":
        rest = []
    if rest and rest[0].lower in ("interested", "passionate", "into"):
        start = 2 if rest[0].lower != "into" and len(rest) > 1 and rest[1].lower in ("in", "about") else 1
        kept = _cut(rest[start:], text)
        words = _content(kept)
        if not words:
            return []
        surface = " ".join(t.text for t in rest[:start])
        return [
            _Claim(
                ClaimKind.INTEREST,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("interest", words),
                Predicate("be", f"is {surface}", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    rest = parse.rest
    if parse.lemma in {"love", "enjoy", "like"} and parse.modal is None and rest and rest[0].lower != "to":
        kept = _cut(rest, text)
        words = _content(kept)
        if not words or rest[0].lower in ("it", "that", "this", "them", "you", "your"):
            return []
        return [
            _Claim(
                ClaimKind.INTEREST,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("interest", words),
                Predicate(parse.lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    return []


def _constraint_claims(text: str, parse: _Parse) -> list[_Claim]:
    rest = parse.rest
    if (
        parse.modal is None
        and parse.negated
        and parse.tokens[: parse.verb_at]
        and any(t.lower == "can" for t in parse.tokens[: parse.verb_at])
    ):
        kept = _cut(rest, text)
        words = [parse.lemma] + _content(kept)
        complement = " ".join(p for p in (parse.lemma, _phrase(text, kept)) if p)
        return [
            _Claim(
                ClaimKind.CONSTRAINT,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("constraint", words),
                Predicate("can", "cannot", Aspect.BARE, complement),
            )
        ]
    if parse.lemma == "be" and rest and rest[0].lower in ("allergic", "intolerant", "vegan", "vegetarian"):
        kept = _cut(rest, text)
        return [
            _Claim(
                ClaimKind.CONSTRAINT,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("constraint", _content(kept)),
                Predicate("be", "is", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    return []


def _occupation_claims(text: str, parse: _Parse) -> list[_Claim]:
    rest = parse.rest
    if parse.lemma == "work" and len(rest) >= 3 and rest[0].lower == "as":
        noun_tokens = _cut(rest[1:], text)
        verb, surface = "work", "works as"
    elif parse.lemma == "be" and len(rest) >= 2 and rest[0].lower in ("a", "an"):
        noun_tokens = _cut(rest, text)
        verb, surface = "be", "is"
    else:
        return []
    head = next((t for t in noun_tokens if t.lemma in _OCCUPATIONS), None)
    if head is None:
        return []
    noun_tokens = noun_tokens[: noun_tokens.index(head) + 1]
    words = [w for w in _content(noun_tokens)]
    return [
        _Claim(
            ClaimKind.SKILL,
            Derivation.DIRECT,
            Longevity.DURABLE,
            Polarity.ASSERT,
            conflict_key("occupation", words),
            Predicate(verb, surface, Aspect.BARE, _phrase(text, noun_tokens)),
        )
    ]


def _resource_claims(text: str, parse: _Parse) -> list[_Claim]:
    rest = parse.rest
    if parse.lemma not in {"drive", "own", "ride", "have", "use"} or not rest:
        return []
    kept = _cut(rest, text)
    if parse.lemma == "use":
        named = [t for t in kept if t.text[:1].isupper() and t.lower not in STOPWORDS]
        if not named:
            return []
        words = [t.lower for t in named]
    else:
        words = _content(kept)
        things = [
            t for t in kept if t.lemma in _VEHICLES_AND_THINGS or (t.text[:1].isupper() and t.lower != "i")
        ]
        if not things or (parse.lemma == "have" and not any(t.lemma in _VEHICLES_AND_THINGS for t in kept)):
            return []
        words = [t.lower if t.text.isupper() else t.lemma for t in things]
    return [
        _Claim(
            ClaimKind.RESOURCE,
            Derivation.DIRECT,
            Longevity.DURABLE,
            Polarity.ASSERT,
            conflict_key("resource", words),
            Predicate(parse.lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
        )
    ]


def _relationship_claims(text: str, parse: _Parse) -> list[_Claim]:
    rest = parse.rest
    if parse.lemma != "have" or len(rest) < 2:
        return []
    kept = _cut(rest, text)
    relative = next((t for t in kept if t.lemma in _RELATIVES), None)
    if (
        relative is None
        or kept[0].lower not in ("a", "an", "one", "two", "three", "four", "five")
        and not kept[0].lower.isdigit()
    ):
        return []
    kept = kept[: kept.index(relative) + 1]
    return [
        _Claim(
            ClaimKind.RELATIONSHIP,
            Derivation.DIRECT,
            Longevity.DURABLE,
            Polarity.ASSERT,
            conflict_key("relationship", [relative.lemma]),
            Predicate("have", "has", Aspect.SIMPLE, _phrase(text, kept)),
        )
    ]


def _predicate_claims(text: str, clause: Clause, parse: _Parse, region_end: int) -> list[_Claim]:
    """Every rule over one affirmative first-person predicate, most specific first."""
    for rule in (_project_claims, _goal_claims, _occupation_claims, _interest_claims, _relationship_claims):
        claims = rule(text, parse)
        if claims:
            return claims
    claims = _status_claims(text, clause, parse)
    if claims:
        return claims
    claims = _history_claims(text, parse, region_end)
    habits = (
        _habit_claims(text, parse, region_end)
        if not any(c.predicate.aspect is not Aspect.SIMPLE for c in claims if c.predicate.verb != "have")
        else []
    )
    claims.extend(habits)
    if claims:
        return claims
    return _resource_claims(text, parse)


def _correction_claims(text: str, clause: Clause, parse: _Parse, region_end: int) -> list[_Claim]:
    """A correction names a belief it ends; it can only retract, keyed as the assertion would be."""
    rest = parse.rest
    quitting = (parse.lemma == "give" and rest[:1] and rest[0].lower == "up") or parse.lemma in {
        "quit",
        "stop",
    }
    if quitting and not parse.negated:
        object_tokens = rest[1:] if parse.lemma == "give" else rest
        if not object_tokens:
            return []
        head = object_tokens[0]
        activity = _activity_of(head, as_verb=True)
        if activity is not None:
            return [
                _Claim(
                    ClaimKind.HABIT,
                    Derivation.DIRECT,
                    Longevity.ONGOING,
                    Polarity.RETRACT,
                    f"activity:{activity.gerund}",
                    Predicate(activity.verb, activity.verb, Aspect.SIMPLE, activity.complement),
                )
            ]
        kept = _cut(object_tokens[1:], text)
        verb = verb_lemma(head)
        return [
            _Claim(
                ClaimKind.HABIT,
                Derivation.DIRECT,
                Longevity.ONGOING,
                Polarity.RETRACT,
                conflict_key("habit", [verb] + _content(kept)),
                Predicate(verb, head.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    if not (
        parse.no_longer
        or parse.negated
        and (
            any(t.lower == "anymore" for t in rest)
            or _ANY_MORE.search(text[parse.verb.start : region_end]) is not None
        )
    ):
        return []
    affirmative = _Parse(
        parse.tokens,
        parse.verb_at,
        False,
        None,
        parse.perfect,
        parse.progressive,
        False,
        False,
        parse.been,
        parse.adverbs,
    )
    found = [
        c
        for c in _predicate_claims(text, clause, affirmative, region_end)
        if c.derivation is Derivation.DIRECT
    ]
    if not found:
        kept = _cut(rest, text)
        found = [
            _Claim(
                ClaimKind.HABIT,
                Derivation.DIRECT,
                Longevity.ONGOING,
                Polarity.ASSERT,
                conflict_key("habit", [parse.lemma] + _content(kept)),
                Predicate(parse.lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    retractions: list[_Claim] = []
    for claim in found:
        predicate = claim.predicate
        if predicate.aspect is Aspect.BARE:
            predicate = Predicate(
                parse.lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, _cut(rest, text))
            )
        retractions.append(
            _Claim(
                claim.kind,
                Derivation.DIRECT,
                claim.longevity,
                Polarity.RETRACT,
                claim.subject,
                predicate,
                claim.holder,
            )
        )
    return retractions


def _regex_claims(text: str, clause: Clause, tokens: list[Token]) -> list[_Claim]:
    """Claims stated without an "I" subject: wishes about answers, goals, family members, projects."""
    claims: list[_Claim] = []
    body = clause.text
    low = _folded(body)
    if "my" not in low:
        # Every pattern here needs the word "my".
        return claims
    lowered_lemmas = {t.lemma for t in tokens}
    for match in _AGE_AWARE.finditer(body) if _hinted(low, _AGE_AWARE_HINTS) else ():
        what = (match.group("x") or match.group("y") or "").strip()
        before = body[max(0, match.start() - 24) : match.start()].lower()
        if not what or _NEGATED_BEFORE.search(before):
            continue
        if not (lowered_lemmas & _REQUEST_WORDS):
            continue
        noun = "advice" if "advice" in lowered_lemmas else "recommendations"
        claims.append(
            _Claim(
                ClaimKind.PREFERENCE,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("preference", what) + "-aware-" + noun,
                Predicate("want", "wants", Aspect.SIMPLE, f"{noun} that take my {what} into account"),
            )
        )
        break
    # The patterns below are case-sensitive: their hints are tested on the text as written.
    if not ("my" in body or "My" in body):
        return claims
    goal = _MY_GOAL.search(body) if _hinted(body, _MY_GOAL_HINTS) else None
    if goal is not None:
        complement = goal.group("rest").strip()
        claims.append(
            _Claim(
                ClaimKind.GOAL,
                Derivation.DIRECT,
                Longevity.ONGOING,
                Polarity.ASSERT,
                conflict_key("goal", complement),
                Predicate("want", "wants", Aspect.SIMPLE, complement),
            )
        )
    for match in _MY_RELATIVE.finditer(body) if _hinted(body, _MY_RELATIVE_HINTS) else ():
        who = match.group("who")

        if lemma(who) not in _RELATIVES:
            continue
        rest = match.group("rest").strip()
        claims.append(
            _Claim(
                ClaimKind.RELATIONSHIP,
                Derivation.DIRECT,
                Longevity.DURABLE,
                Polarity.ASSERT,
                conflict_key("relationship", [lemma(who)]),
                Predicate("be", rest, Aspect.BARE, ""),
                holder=f"User's {who}",
            )
        )
    for match in _MY_PROJECT.finditer(body) if _hinted(body, _MY_PROJECT_HINTS) else ():
        what = match.group("what")
        rest = match.group("rest").strip()
        claims.append(
            _Claim(
                ClaimKind.PROJECT_FACT,
                Derivation.DIRECT,
                Longevity.ONGOING,
                Polarity.ASSERT,
                conflict_key("project-fact", [what] + rest.split()[1:4]),
                Predicate("be", rest, Aspect.BARE, ""),
                holder=f"User's {what}",
            )
        )
    return claims


_FIRST_PERSON_HINT = re.compile(r"\b(?:I|i|my|My|MY)\b")


def clause_claims(text: str, clause: Clause) -> list[_Claim]:
    """All claims one clause of an owner-asserted event states; empty when it states none."""
    if _FIRST_PERSON_HINT.search(text, clause.start, clause.end) is None:
        return []
    tokens = tokenize(text, clause.start, clause.end)
    claims = _regex_claims(text, clause, tokens)
    subjects = [i for i, t in enumerate(tokens) if t.lower == "i" and t.text[:1] in ("I", "i")]
    for n, at in enumerate(subjects):
        before = [t.lower for t in tokens[max(0, at - 3) : at]]
        if before and before[-1] in _INVERSION:
            continue
        if any(word in _HYPOTHETICAL for word in before) or (before[-2:] == ["what", "if"]):
            continue
        stop = subjects[n + 1] if n + 1 < len(subjects) else len(tokens)
        predicate_tokens = tokens[at + 1 : stop]
        if not predicate_tokens:
            continue
        parse = _parse_predicate(predicate_tokens)
        if parse is None:
            continue
        region_end = tokens[stop].start if stop < len(tokens) else clause.end
        correction = _correction_claims(text, clause, parse, region_end)
        if correction:
            claims.extend(correction)
            continue
        if parse.modal is not None and not (parse.lemma in {"like", "love"} and parse.modal == "would"):
            continue
        if (
            parse.negated
            and not _not_stalled(clause.text)
            and not any(t.lower == "can" for t in parse.tokens[: parse.verb_at])
        ):
            continue
        if parse.negated and any(t.lower == "can" for t in parse.tokens[: parse.verb_at]):
            claims.extend(_constraint_claims(text, parse))
            continue
        claims.extend(_predicate_claims(text, clause, parse, region_end))
        claims.extend(_constraint_claims(text, parse) if parse.lemma == "be" else [])
    return claims[:MAX_CLAIMS_PER_CLAUSE]


# --- stage 3 fallback --------------------------------------------------------------------------


def fallback_candidates(events: Sequence[SourceEvent]) -> list[MemoryCandidate]:
    """High-recall candidates over owner-asserted events, in the order the user stated them.

    The same claim stated in several events becomes one candidate citing each of them.
    """
    merged: dict[tuple[str, str, str], tuple[_Claim, dict[int, str]]] = {}
    for event in sorted(events, key=lambda e: e.seq):
        if not event.is_owner_assertion:
            continue
        text = event.text
        for clause in split_clauses(event.seq, text):
            for claim in clause_claims(text, clause):
                statement = claim.statement()
                key = (claim.subject, claim.polarity.value, statement)
                entry = merged.get(key)
                if entry is None:
                    merged[key] = (claim, {event.seq: clause.text})
                else:
                    entry[1].setdefault(event.seq, clause.text)
    candidates: list[MemoryCandidate] = []
    for (_, _, statement), (claim, spans) in merged.items():
        seqs = tuple(sorted(spans))
        candidates.append(
            MemoryCandidate(
                subject=claim.subject,
                statement=statement,
                claim_kind=claim.kind,
                derivation=claim.derivation,
                longevity=claim.longevity,
                polarity=claim.polarity,
                source_event_ids=seqs,
                evidence_spans=tuple(EvidenceSpan(seq=seq, text=spans[seq]) for seq in seqs),
                origin=CandidateOrigin.FALLBACK,
            )
        )
    return candidates
