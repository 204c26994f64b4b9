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
domain.formation.language; statements come from domain.formation.rendering.
"""

import re
from collections.abc import Callable, Sequence
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
from domain.episodes import MAX_NARRATIVE_BYTES, IntegratedEpisode, integrated_episode
from domain.events import SourceEvent
from domain.formation.clauses import Clause, split_clauses
from domain.formation.language import STOPWORDS, Token, lemma, tokenize, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key, render_statement, third_person
from domain.formation.stage_schemas import AnticipationResponse

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
    included: set[int] = set()
    parts: list[str] = []
    used = 0
    for event in owned:
        if event.seq in included:
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
        included.add(event.seq)
        used += len(piece.encode("utf-8")) + (1 if len(parts) > 1 else 0)
    cited = [e for e in owned if e.seq in included]
    return integrated_episode(cited, "\n".join(parts), (), created_at)


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
        "watch",
        "treadmill",
        "kayak",
        "canoe",
        "piano",
        "guitar",
        "camera",
        "printer",
        "tablet",
        "ipad",
        "kindle",
        "drone",
        "grill",
        "garage",
        "cabin",
        "rower",
        "dumbbell",
        "kettlebell",
        "peloton",
        "garmin",
        "fitbit",
        "nas",
        "desktop",
        "pc",
        "monitor",
        "subscription",
        "pool",
        "backyard",
        "basement",
        "workshop",
        "studio",
        "scooter",
        "motorbike",
        "e-bike",
        "ebike",
        "rack",
        "homelab",
        "synology",
        "license",
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
        "probably",
        "maybe",
        "possibly",
        "perhaps",
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
        "think",
        "decide",
        "reply",
        "respond",
        "double-check",
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
    r"(?:^|[,;:]\s*|\band\s+)[Mm]y\s+(?P<who>[a-z]+)\s+(?P<rest>(?:(?:just|also|still|recently|now|always|often|usually)\s+)?"
    r"(?:is|was|has|works|plays|goes|lives|studies|swims|runs|loves|does|attends|takes|started|began|moved|"
    r"graduated|retired|joined|turned|teaches|trains|needs|hates|likes|wants|gets|uses|suffers|struggles|"
    r"visits|coaches|competes|dances|sings|cooks|drives|rides|walks|stays|spends|volunteers|manages)\b[^,;!?]*)"
)
_MY_PROJECT = re.compile(
    r"(?:^|[,;:]\s*|\band\s+|\?\s*)(?:[Mm]y|[Oo]ur)\s+(?P<what>project|app|agent|bot|repo|codebase|startup|service|website|site|api|backend|frontend|server|company|thesis|dissertation|book|novel|paper|blog|podcast|channel|shop|store|team|product|game|library|plugin|homelab|lab|business|database|cluster|pipeline|stack|deadline|budget)\s+(?P<rest>(?:uses|runs|is|are|has|needs|relies|depends|stores|calls|targets|serves|deploys|supports|lives|sits|talks|reads|writes|sends|ships)\b[^,;!?]*)"
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
_MY_RELATIVE_HINTS = ("s", "started", "began", "moved", "graduated", "retired", "joined", "turned")
_MY_PROJECT_HINTS = (
    "thesis",
    "dissertation",
    "book",
    "novel",
    "paper",
    "blog",
    "podcast",
    "channel",
    "shop",
    "store",
    "team",
    "product",
    "game",
    "library",
    "plugin",
    "lab",
    "business",
    "database",
    "cluster",
    "pipeline",
    "stack",
    "deadline",
    "budget",
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
    hedged: bool = False

    def statement(self) -> str:
        return render_statement(
            self.kind, self.derivation, self.polarity, self.predicate, self.holder, hedged=self.hedged
        )


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
    lead: str = ""  # a schedule stated before the subject: "Every Friday I call my mom"
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
    parse = _Parse(tokens, i, negated, modal, perfect, progressive, used_to, no_longer, been, adverbs)
    if perfect and not been and tokens[i].lower == "got":
        # "I've got a bike" states possession: "have", not the perfect of "get".
        parse.perfect = False
        parse._lemma = "have"
    return parse


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
            _claim(
                ClaimKind.HABIT,
                f"routine:{program}",
                Predicate(main if main != "be" else "do", parse.verb.text, Aspect.SIMPLE, complement),
                Longevity.ONGOING,
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
            for _, activity in activities:
                complement = " ".join(part for part in (activity.complement, qualifier) if part)
                claims.append(
                    _claim(
                        ClaimKind.HABIT,
                        f"activity:{activity.gerund}",
                        Predicate(activity.verb, activity.verb, Aspect.SIMPLE, complement),
                        Longevity.ONGOING,
                    )
                )
    plain = main not in _AUX or main in ("do", "have") and rest and rest[0].lower not in ("not", "to", "no")
    if not claims and freq is None and aspect is Aspect.SIMPLE and plain:
        # A schedule said before the verb: "I usually go to bed around 11", "Every Friday I call my mom".
        often = [a for a in parse.adverbs if a in _FREQUENCY_ADVERBS]
        kept = _cut(rest, text)
        if (often or parse.lead) and kept and any(t.lemma not in STOPWORDS for t in kept):
            lead = parse.lead[:1].lower() + parse.lead[1:] if parse.lead else ""
            complement = " ".join(p for p in (_phrase(text, kept), lead) if p)
            claims.append(
                _claim(
                    ClaimKind.HABIT,
                    conflict_key("habit", [main] + _content(kept)),
                    Predicate(main, " ".join([*often, third_person(main)]), Aspect.BARE, complement),
                    Longevity.ONGOING,
                )
            )
    if not claims and freq is not None and aspect is Aspect.SIMPLE and plain:
        kept = _cut(rest, text)
        # The schedule must belong to this predicate, not to a subordinate clause after a cut.
        if kept and kept[-1].end >= freq.end() and any(t.lemma not in STOPWORDS for t in kept):
            words = [main] + _content(kept)
            claims.append(
                _claim(
                    ClaimKind.HABIT,
                    conflict_key("habit", words),
                    Predicate(main, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
                    Longevity.ONGOING,
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
            aspect = Aspect.PERFECT
        claims.append(
            _claim(
                ClaimKind.SKILL,
                conflict_key("history", [parse.lemma] + _content(kept)),
                Predicate(parse.lemma, surface, aspect, complement),
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
            _claim(
                ClaimKind.SKILL,
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
    setting = parse.verb.lower in ("set", "setting", "sets")
    setting_up = setting and parse.rest[:1] and parse.rest[0].lower == "up"
    if not (
        (parse.progressive or parse.been)
        and (parse.lemma in _PROJECT_VERBS or parse.lemma in _MORE_PROJECT_VERBS or working_on or setting_up)
    ):
        return []
    if setting and not setting_up or parse.rest[:1] and parse.rest[0].lower in ("to", "for"):
        # "planning to ..." and "preparing for ..." are goals.
        return []
    rest = parse.rest[1:] if working_on or setting_up else parse.rest
    kept = _cut(rest, text, keep_and=True)
    words = _content(kept)
    if not words:
        return []
    complement = _phrase(text, kept)
    predicate = (
        Predicate("work", "working", Aspect.PROGRESSIVE, f"on {complement}")
        if working_on
        else Predicate(
            "set" if setting_up else parse.lemma,
            f"{parse.verb.text} up" if setting_up else parse.verb.text,
            Aspect.PROGRESSIVE,
            complement,
        )
    )
    claims = [_claim(ClaimKind.ONGOING_PROJECT, conflict_key("project", words), predicate, Longevity.ONGOING)]
    if set(words) & _SOFTWARE_WORDS:
        claims.append(_software_hypothesis())
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
                _claim(
                    ClaimKind.GOAL,
                    conflict_key("goal", words),
                    Predicate("want", "wants", Aspect.SIMPLE, f"to decide {tail}"),
                    Longevity.ONGOING,
                )
            ]
        return []
    if (
        (parse.progressive or parse.been)
        and lemma in {"train", "save", "prepare", "study"}
        and len(rest) >= 2
        and rest[0].lower in ("for", "up")
    ):
        kept = _cut(rest, text)
        words = [w for w in _content(kept) if w != "up"]
        if not words:
            return []
        return [
            _claim(
                ClaimKind.GOAL,
                conflict_key("goal", [lemma] + words),
                Predicate(lemma, parse.verb.text, Aspect.PROGRESSIVE, _phrase(text, kept)),
                Longevity.ONGOING,
            )
        ]
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
    return [_claim(kind, conflict_key(namespace, words), predicate, Longevity.ONGOING)]


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
        _claim(
            ClaimKind.PROJECT_FACT,
            "status:training-progress" if _mentions_training(text) else "status:progress",
            Predicate("progress", " and ".join(parts), Aspect.BARE, ""),
            Longevity.ONGOING,
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
            _claim(
                ClaimKind.INTEREST,
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
            _claim(
                ClaimKind.INTEREST,
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
            _claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", words),
                Predicate("can", "cannot", Aspect.BARE, complement),
            )
        ]
    crest = _copula_rest(parse)
    if crest and any(t.lower in _LIMIT_ADJECTIVES for t in crest[:3]):
        kept = _cut(crest, text)
        return [
            _claim(
                ClaimKind.CONSTRAINT,
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
    head = next((t for t in noun_tokens if t.lemma in _OCCUPATIONS or t.lemma in _MORE_OCCUPATIONS), None)
    if head is None:
        return []
    at = noun_tokens.index(head) + 1
    words = _content(noun_tokens[:at])
    # A job the user says they hold ("I work as", "I'm a nurse at the city hospital") is a role; a bare
    # "I'm a nurse" is the stated occupation, a skill.
    employed = verb == "work" or (at < len(noun_tokens) and noun_tokens[at].lower in ("at", "for", "with"))
    if not employed:
        noun_tokens = noun_tokens[:at]
    return [
        _claim(
            ClaimKind.ROLE if employed else ClaimKind.SKILL,
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
        _claim(
            ClaimKind.RESOURCE,
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
        _claim(
            ClaimKind.RELATIONSHIP,
            conflict_key("relationship", [relative.lemma]),
            Predicate("have", "has", Aspect.SIMPLE, _phrase(text, kept)),
        )
    ]


# --- ordinary statements of every claim kind -----------------------------------------------------

_MORE_PROJECT_VERBS = frozenset(
    {
        "renovate",
        "restore",
        "launch",
        "organize",
        "organise",
        "prepare",
        "remodel",
        "refactor",
        "migrate",
        "rewrite",
        "plan",
        "set",
        "start",
        "found",
        "redesign",
        "rebuild",
        "build",
        "develop",
        "create",
        "write",
        "design",
    }
)
_POSITIONS = frozenset(
    {
        "treasurer",
        "president",
        "chair",
        "chairman",
        "chairwoman",
        "captain",
        "head",
        "lead",
        "director",
        "founder",
        "cofounder",
        "co-founder",
        "owner",
        "organizer",
        "organiser",
        "secretary",
        "coach",
        "manager",
        "ceo",
        "cto",
        "cfo",
        "coo",
        "maintainer",
        "editor",
        "leader",
        "principal",
        "admin",
        "administrator",
    }
)
_MORE_OCCUPATIONS = frozenset(
    {
        "librarian",
        "paramedic",
        "veterinarian",
        "vet",
        "surgeon",
        "carpenter",
        "farmer",
        "barista",
        "photographer",
        "musician",
        "translator",
        "recruiter",
        "economist",
        "statistician",
        "technician",
        "officer",
        "clerk",
        "caregiver",
        "midwife",
        "psychologist",
        "counselor",
        "counsellor",
        "tutor",
        "lecturer",
        "postdoc",
        "freelancer",
        "contractor",
        "sysadmin",
        "founder",
        "cofounder",
        "director",
        "ceo",
        "cto",
        "editor",
        "maintainer",
    }
)
_TEAM_WORDS = frozenset(
    {"team", "group", "department", "lab", "division", "unit", "squad", "org", "organization", "office"}
)
_ROLE_VERBS = frozenset({"lead", "manage", "head", "supervise", "chair", "coordinate", "direct", "run"})
_TEACHING_VERBS = frozenset({"teach", "coach", "tutor", "lecture"})
_LANGUAGES = frozenset(
    {
        "english",
        "spanish",
        "german",
        "french",
        "italian",
        "portuguese",
        "mandarin",
        "cantonese",
        "chinese",
        "japanese",
        "korean",
        "arabic",
        "russian",
        "hindi",
        "dutch",
        "swedish",
        "norwegian",
        "danish",
        "finnish",
        "polish",
        "turkish",
        "greek",
        "hebrew",
        "ukrainian",
        "czech",
        "vietnamese",
        "thai",
        "indonesian",
        "urdu",
        "bengali",
        "swahili",
        "catalan",
        "romanian",
        "hungarian",
        "sign",
    }
)
_CREDENTIALS = frozenset(
    {
        "belt",
        "degree",
        "phd",
        "certificate",
        "certification",
        "license",
        "licence",
        "diploma",
        "masters",
        "master's",
        "bachelor's",
        "mba",
    }
)
_SKILLED = frozenset({"fluent", "proficient", "experienced", "skilled", "certified", "trained", "qualified"})
_GOOD_AT = frozenset({"good", "great", "decent", "competent"})
_KNOW_STOP = frozenset(
    {
        "that",
        "what",
        "how",
        "you",
        "it",
        "about",
        "where",
        "when",
        "why",
        "this",
        "him",
        "her",
        "them",
        "the",
        "a",
        "an",
        "i",
        "who",
        "which",
        "if",
        "whether",
        "so",
        "right",
        "nothing",
        "everything",
    }
)
_SOFTWARE_GERUNDS = frozenset({"debug", "deploy", "refactor", "code", "program"})
_FAN_WORDS = frozenset({"fan", "lover", "enthusiast", "nerd", "buff", "geek"})
_FASCINATED = frozenset(
    {"fascinated", "obsessed", "passionate", "curious", "keen", "enthusiastic", "hooked", "crazy", "mad"}
)
_STATE_WORDS = frozenset(
    {
        "sore",
        "tired",
        "exhausted",
        "migraine",
        "headache",
        "cramp",
        "blister",
        "dizzy",
        "anxious",
        "nauseous",
        "sick",
        "stressed",
        "overwhelmed",
        "injured",
        "winded",
        "breathless",
        "nosebleed",
        "heartburn",
        "insomnia",
        "stiff",
        "achy",
        "sleepy",
        "cold",
        "colds",
        "hungry",
        "bloated",
        "shin",
        "panic",
        "down",
        "low",
        "irritable",
        "restless",
        "lonely",
        "depressed",
        "faint",
        "nervous",
        "itchy",
    }
)
_STATE_VERBS = frozenset({"struggle", "suffer", "deal", "live"})
_FREQUENCY_ADVERBS = (
    "usually",
    "always",
    "often",
    "regularly",
    "normally",
    "typically",
    "generally",
    "frequently",
)
_TRIGGERS = frozenset({"when", "whenever", "after", "before", "if", "while", "during"})
_SPOUSAL = frozenset({"married", "engaged", "divorced", "widowed", "separated"})
_LIMIT_TARGETS = frozenset({"avoid", "limit", "stay", "watch", "skip", "cut", "keep", "stick"})
_DISLIKE_VERBS = frozenset({"hate", "dislike", "detest", "loathe"})
_DIET_VERBS = frozenset({"eat", "drink"})
_PRONOUN_OBJECTS = frozenset(
    {
        "it",
        "that",
        "this",
        "them",
        "you",
        "your",
        "when",
        "to",
        "not",
        "how",
        "what",
        "those",
        "these",
        "him",
        "her",
    }
)
_HEDGES = frozenset({"think", "guess", "believe", "suspect", "probably", "maybe", "possibly", "perhaps"})
_LIMIT_ADJECTIVES = frozenset(
    {
        "allergic",
        "intolerant",
        "vegan",
        "vegetarian",
        "pescatarian",
        "diabetic",
        "celiac",
        "coeliac",
        "pregnant",
        "colorblind",
        "colourblind",
        "deaf",
        "epileptic",
        "asthmatic",
        "gluten-free",
        "dairy-free",
        "teetotal",
        "sober",
    }
)


def _copula_rest(parse: _Parse) -> list[Token] | None:
    """The complement of "I am ...", also when an adverb made "am" read as an auxiliary."""
    if parse.lemma == "be" and not parse.progressive:
        return parse.rest
    if parse.progressive and not parse.verb.lower.endswith("ing"):
        return [parse.verb, *parse.rest]
    return None


def _claim(
    kind: ClaimKind,
    subject: str,
    predicate: Predicate,
    longevity: Longevity = Longevity.DURABLE,
    holder: str = "User",
) -> _Claim:
    return _Claim(kind, Derivation.DIRECT, longevity, Polarity.ASSERT, subject, predicate, holder)


def _through_trigger(text: str, tokens: list[Token], stop: int) -> list[Token]:
    """Tokens up to the first boundary, carried past a trigger word ("when", "after") to the next one."""
    kept = _cut(tokens, text)
    after = len(kept)
    if after < len(tokens) and tokens[after].lower in _TRIGGERS:
        tail = _cut(tokens[after + 1 :], text)
        kept = tokens[: after + 1 + len(tail)] if tail else kept
    return [t for t in kept if t.end <= stop]


def _skill_hypothesis(subject: str, experience: str) -> _Claim:
    """A tentative skill the user did not state but their words suggest: "User likely has <experience>"."""
    return _Claim(
        ClaimKind.SKILL,
        Derivation.HYPOTHESIS,
        Longevity.TENTATIVE,
        Polarity.ASSERT,
        subject,
        Predicate("have", "has", Aspect.SIMPLE, experience),
    )


def _software_hypothesis() -> _Claim:
    return _skill_hypothesis("skill:software-development", "software-development experience")


def _role_claims(text: str, parse: _Parse) -> list[_Claim]:
    """A position held: "I'm the treasurer of my club", "I lead the platform team", "I teach chemistry"."""
    lemma = parse.lemma
    crest = _copula_rest(parse)
    if crest is not None:
        if len(crest) < 2 or crest[0].lower != "the" or crest[1].lemma not in _POSITIONS:
            return []
        kept = _cut(crest, text)
        if len(kept) < 2:
            return []
        return [
            _claim(
                ClaimKind.ROLE,
                conflict_key("role", _content(kept)),
                Predicate("be", "is", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    aspect, _ = _aspect_of(parse)
    if aspect is not Aspect.SIMPLE or parse.modal is not None:
        return []
    rest = parse.rest
    if lemma in _ROLE_VERBS and rest and rest[0].lower in ("a", "an", "the", "our"):
        kept = _cut(rest, text)
        if not any(t.lemma in _TEAM_WORDS for t in kept):
            return []
        return [
            _claim(
                ClaimKind.ROLE,
                conflict_key("role", [lemma] + _content(kept)),
                Predicate(lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    if lemma in _TEACHING_VERBS and rest and rest[0].lower not in _PRONOUN_OBJECTS | {"me", "myself", "my"}:
        kept = _cut(rest, text)
        words = _content(kept)
        if not words:
            return []
        return [
            _claim(
                ClaimKind.ROLE,
                conflict_key("role", [lemma] + words),
                Predicate(lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    return []


def _skill_claims(text: str, parse: _Parse) -> list[_Claim]:
    """Stated abilities: languages, tools, credentials, learning; and the software-work cue."""
    lemma = parse.lemma
    rest = parse.rest
    crest = _copula_rest(parse)
    if crest is not None:
        if len(crest) >= 3 and (
            crest[0].lower in _SKILLED
            and crest[1].lower in ("in", "at", "with")
            or crest[0].lower in _GOOD_AT
            and crest[1].lower == "at"
        ):
            kept = _cut(crest, text, keep_and=True)
            words = _content(kept[2:])
            if words:
                return [
                    _claim(
                        ClaimKind.SKILL,
                        conflict_key("skill", words),
                        Predicate("be", "is", Aspect.BARE, _phrase(text, kept)),
                    )
                ]
        return []
    aspect, _ = _aspect_of(parse)
    if lemma == "learn" and (parse.progressive or parse.been) and rest:
        kept = _cut(rest, text, keep_and=True)
        words = [w for w in _content(kept) if w not in ("lot", "much")]
        if not words:
            return []
        return [
            _claim(
                ClaimKind.SKILL,
                conflict_key("learning", words),
                Predicate("learn", "learning", Aspect.PROGRESSIVE, _phrase(text, kept)),
                Longevity.ONGOING,
            )
        ]
    if aspect is not Aspect.SIMPLE or parse.modal is not None or not rest:
        if lemma in _SOFTWARE_GERUNDS and parse.progressive and rest:
            return [_software_hypothesis()]
        return []
    if lemma == "speak":
        kept = _cut(rest, text, keep_and=True)
        if any(t.lower in _LANGUAGES for t in kept):
            return [
                _claim(
                    ClaimKind.SKILL,
                    conflict_key("skill", ["speak"] + _content(kept)),
                    Predicate("speak", parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
                )
            ]
        return []
    if lemma == "know" and rest[0].lower not in _KNOW_STOP:
        kept = _cut(rest, text, keep_and=True)
        named = [t for t in kept if t.text[:1].isupper() or t.lower in _LANGUAGES]
        if not named or kept[0] not in named:
            return []
        return [
            _claim(
                ClaimKind.SKILL,
                conflict_key("skill", [t.lower for t in named]),
                Predicate("know", parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    if lemma == "have" and any(t.lower in _CREDENTIALS for t in rest[:4]):
        kept = _cut(rest, text)
        return [
            _claim(
                ClaimKind.SKILL,
                conflict_key("skill", _content(kept)),
                Predicate("have", parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    if lemma in _SOFTWARE_GERUNDS or (
        lemma == "spend" and any(verb_lemma(t) in _SOFTWARE_GERUNDS for t in rest[:5])
    ):
        return [_software_hypothesis()]
    return []


def _interest_more_claims(text: str, parse: _Parse) -> list[_Claim]:
    """ "a big fan of", "fascinated by", "getting into"."""
    crest = _copula_rest(parse)
    if crest is not None and len(crest) >= 3:
        fan_at = next((i for i, t in enumerate(crest[:4]) if t.lemma in _FAN_WORDS), None)
        if crest[0].lower in ("a", "an", "the") and fan_at is not None and fan_at + 1 < len(crest):
            if crest[fan_at + 1].lower != "of":
                return []
            kept = _cut(crest, text, keep_and=True)
            words = _content(kept[fan_at + 2 :])
        elif crest[0].lower in _FASCINATED and crest[1].lower in ("by", "with", "about", "on"):
            kept = _cut(crest, text, keep_and=True)
            words = _content(kept[2:])
        else:
            return []
        if not words:
            return []
        return [
            _claim(
                ClaimKind.INTEREST,
                conflict_key("interest", words),
                Predicate("be", "is", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    if (
        parse.lemma == "get"
        and len(parse.rest) >= 2
        and parse.rest[0].lower == "into"
        and parse.modal is None
    ):
        kept = _cut(parse.rest[1:], text, keep_and=True)
        words = _content(kept)
        if not words or kept[0].lower in _PRONOUN_OBJECTS or kept[0].lower in ("trouble", "bed"):
            return []
        return [
            _claim(
                ClaimKind.INTEREST,
                conflict_key("interest", words),
                Predicate("get", "getting into", Aspect.PROGRESSIVE, _phrase(text, kept)),
            )
        ]
    return []


def _state_claims(text: str, parse: _Parse, region_end: int) -> list[_Claim]:
    """A recurring condition: "I get migraines when ...", "I often feel tired ...", "I struggle with ..."."""
    lemma = parse.lemma
    rest = parse.rest
    if not rest or parse.modal is not None or parse.progressive:
        return []
    if lemma in _STATE_VERBS:
        if (
            not (
                lemma in ("struggle", "deal", "live")
                and rest[0].lower == "with"
                or lemma == "suffer"
                and rest[0].lower == "from"
            )
            or len(rest) < 2
        ):
            return []
        kept = _through_trigger(text, rest, region_end)
        words = _content(kept[1:])
        if not words or (
            lemma == "live" and not any(t.lemma in _STATE_WORDS or t.lemma in _CONDITIONS for t in kept)
        ):
            return []
        return [
            _claim(
                ClaimKind.RECURRING_STATE,
                conflict_key("state", words),
                Predicate(lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
                Longevity.ONGOING,
            )
        ]
    if lemma not in ("get", "feel"):
        return []
    aspect, _ = _aspect_of(parse)
    if aspect is not Aspect.SIMPLE:
        return []
    head = (
        rest[1] if rest[0].lower in ("really", "so", "very", "quite", "pretty") and len(rest) > 1 else rest[0]
    )
    if head.lemma not in _STATE_WORDS and head.lower not in _STATE_WORDS:
        return []
    often = [a for a in parse.adverbs if a in _FREQUENCY_ADVERBS or a == "sometimes"]
    kept = _through_trigger(text, rest, region_end)
    recurring = (
        lemma == "get"
        or often
        or any(t.lower in _TRIGGERS for t in kept)
        or _frequency(text, parse.verb.start, region_end) is not None
    )
    if not recurring or not kept:
        return []
    words = [head.lemma] + [w for w in _content(kept) if w != head.lemma][:3]
    surface = " ".join([*often, third_person(lemma)])
    return [
        _claim(
            ClaimKind.RECURRING_STATE,
            conflict_key("state", words),
            Predicate(lemma, surface, Aspect.BARE, _phrase(text, kept)),
            Longevity.ONGOING,
        )
    ]


_CONDITIONS = frozenset(
    {
        "asthma",
        "diabetes",
        "adhd",
        "arthritis",
        "anxiety",
        "depression",
        "migraine",
        "eczema",
        "tinnitus",
        "pain",
    }
)


def _limit_claims(text: str, parse: _Parse) -> list[_Claim]:
    """Constraints: "I avoid ...", "I have to ...", "I need to avoid ...", "I only have ...", "I can only ..."."""
    lemma = parse.lemma
    rest = parse.rest
    if parse.modal is not None or not rest:
        return []
    aspect, _ = _aspect_of(parse)
    if aspect is not Aspect.SIMPLE:
        return []
    if lemma == "avoid" and rest[0].lower not in _PRONOUN_OBJECTS:
        kept = _cut(rest, text, keep_and=True)
        words = _content(kept)
        if not words:
            return []
        return [
            _claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", ["avoid"] + words),
                Predicate("avoid", parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
            )
        ]
    if lemma in ("have", "need") and len(rest) >= 3 and rest[0].lower == "to":
        target = verb_lemma(rest[1])
        if target in _META_GOALS or target in ("go", "leave", "admit", "run", "say", "think", "get"):
            return []
        if lemma == "need" and target not in _LIMIT_TARGETS:
            return []
        kept = _cut(rest[1:], text)
        words = _content(kept)
        if not words:
            return []
        return [
            _claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", words),
                Predicate(lemma, f"{third_person(lemma)} to", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    if "only" in parse.adverbs and not parse.negated:
        can = any(t.lower == "can" for t in parse.tokens[: parse.verb_at])
        if not (can or lemma == "have" and any(t.lower.isdigit() for t in rest[:3])):
            return []
        kept = _cut(rest, text)
        words = _content(kept)
        if not words:
            return []
        surface = f"can only {parse.verb.lower}" if can else "only has"
        return [
            _claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", [lemma] + words),
                Predicate(lemma, surface, Aspect.BARE, _phrase(text, kept)),
            )
        ]
    return []


def _preference_claims(text: str, parse: _Parse) -> list[_Claim]:
    """ "I prefer ...", "I'd rather ...", "I'd prefer ...", "I hate ..."."""
    lemma = parse.lemma
    rest = parse.rest
    if not rest or rest[0].lower in ("not", "it", "that", "this", "you", "them"):
        return []
    would = parse.modal == "would"
    if parse.verb.lower == "rather" and would:
        verb, surface = "rather", "would rather"
    elif lemma == "prefer" and (parse.modal is None or would) and not parse.progressive:
        verb, surface = "prefer", "would prefer" if would else third_person("prefer")
    elif lemma in _DISLIKE_VERBS and parse.modal is None and rest[0].lower not in _PRONOUN_OBJECTS:
        verb, surface = lemma, third_person(lemma)
    else:
        return []
    kept = _cut(rest, text, keep_and=True)
    words = _content(kept)
    if not words or (_aspect_of(parse)[0] is Aspect.PAST):
        return []
    return [
        _claim(
            ClaimKind.PREFERENCE,
            conflict_key("preference", words),
            Predicate(verb, surface, Aspect.BARE, _phrase(text, kept)),
        )
    ]


def _household_claims(text: str, parse: _Parse) -> list[_Claim]:
    """ "I'm married to ...", "I live with my partner ..."."""
    crest = _copula_rest(parse)
    if crest is not None:
        if not crest or crest[0].lower not in _SPOUSAL:
            return []
        kept = _cut(crest, text)
        return [
            _claim(
                ClaimKind.RELATIONSHIP,
                "relationship:spouse" if crest[0].lower != "divorced" else "relationship:marital-status",
                Predicate("be", "is", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    rest = parse.rest
    if parse.lemma != "live" or len(rest) < 3 or rest[0].lower != "with" or parse.modal is not None:
        return []
    kept = _cut(rest, text, keep_and=True)
    relatives = [t.lemma for t in kept if t.lemma in _RELATIVES]
    if not relatives:
        return []
    return [
        _claim(
            ClaimKind.RELATIONSHIP,
            conflict_key("relationship", relatives),
            Predicate("live", parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
        )
    ]


def _negated_claims(text: str, parse: _Parse) -> list[_Claim]:
    """The few negations that state something durable: "I don't eat meat", "I don't like long meetings"."""
    lemma = parse.lemma
    rest = parse.rest
    if parse.modal is not None or not rest or rest[0].lower in _PRONOUN_OBJECTS or rest[0].lower == "any":
        return []
    if _aspect_of(parse)[0] is not Aspect.SIMPLE:
        return []
    kept = _cut(rest, text, keep_and=True)
    words = _content(kept)
    if not words:
        return []
    if lemma in _DIET_VERBS:
        return [
            _claim(
                ClaimKind.CONSTRAINT,
                conflict_key("constraint", ["not", lemma] + words),
                Predicate(lemma, f"does not {lemma}", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    if lemma in ("like", "enjoy"):
        return [
            _claim(
                ClaimKind.PREFERENCE,
                conflict_key("preference", ["dislike"] + words),
                Predicate(lemma, f"does not {lemma}", Aspect.BARE, _phrase(text, kept)),
            )
        ]
    return []


_ALWAYS = None
# Each rule with the verb lemmas it can fire on (None: it reads every predicate). A copula ("I am ...",
# also behind an adverb) is tried by the rules that read it; the rest are skipped by one set lookup, which
# keeps the added vocabulary from costing throughput.
_RULES: tuple[tuple[Callable[[str, _Parse], list[_Claim]], frozenset[str] | None, bool], ...] = (
    (_project_claims, _ALWAYS, False),
    (_limit_claims, frozenset({"avoid", "have", "need"}), False),
    (_goal_claims, _ALWAYS, False),
    (_occupation_claims, frozenset({"work", "be"}), False),
    (_role_claims, _ROLE_VERBS | _TEACHING_VERBS, True),
    (_interest_claims, _ALWAYS, False),
    (_interest_more_claims, frozenset({"get"}), True),
    (_relationship_claims, frozenset({"have"}), False),
    (_household_claims, frozenset({"live"}), True),
    (_preference_claims, _DISLIKE_VERBS | {"prefer", "rather"}, False),
    (_skill_claims, _SOFTWARE_GERUNDS | {"learn", "speak", "know", "have", "spend"}, True),
)
_STATE_LEMMAS = _STATE_VERBS | {"get", "feel"}


def _predicate_claims(text: str, clause: Clause, parse: _Parse, region_end: int) -> list[_Claim]:
    """Every rule over one affirmative first-person predicate, most specific first."""
    lemma = parse.lemma
    copula = lemma == "be" or parse.progressive and not parse.verb.lower.endswith("ing")
    limited = "only" in parse.adverbs
    for rule, lemmas, reads_copula in _RULES:
        # "I can only ..." and "I only have ..." are limits whatever the verb; "rather" is in the
        # preference rule's own lemmas.
        if lemmas is None or lemma in lemmas or reads_copula and copula or limited and rule is _limit_claims:
            claims = rule(text, parse)
            if claims:
                return claims
    if lemma in _STATE_LEMMAS:
        claims = _state_claims(text, parse, region_end)
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
            _claim(
                ClaimKind.HABIT,
                conflict_key("habit", [parse.lemma] + _content(kept)),
                Predicate(parse.lemma, parse.verb.text, Aspect.SIMPLE, _phrase(text, kept)),
                Longevity.ONGOING,
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


_BODY_PARTS = (
    r"knee|knees|back|shoulder|shoulders|hip|hips|ankle|ankles|foot|feet|neck|wrist|wrists|elbow|elbows|head|"
    r"stomach|eyes|skin|hamstring|hamstrings|calf|calves|shin|shins|achilles|joints|legs|arms|hands|lungs|"
    r"asthma|allergies|eczema|migraines|anxiety|sinuses|blood\s+pressure|hay\s+fever|heart|sleep|energy|mood"
)
_MY_BODY = re.compile(
    r"(?:^|[,;:]\s*|\band\s+)[Mm]y\s+(?P<who>(?:(?:left|right|lower|upper)\s+)?(?:" + _BODY_PARTS + r"))\s+"
    r"(?P<rest>(?:(?:always|often|usually|sometimes|still|tends\s+to)\s+)?"
    r"(?P<verb>gets|hurts|aches|flares|swells|feels|is|are|starts|acts|locks|tightens|cramps|goes|bothers|"
    r"gives|tends|gets|spikes|drops|dips|crashes|suffers|becomes)\b[^,;!?]*)"
)
_BODY_HINTS = frozenset(
    {
        "knee",
        "back",
        "shoulder",
        "hip",
        "ankle",
        "foot",
        "feet",
        "neck",
        "wrist",
        "elbow",
        "head",
        "stomach",
        "eye",
        "skin",
        "hamstring",
        "calf",
        "shin",
        "achilles",
        "joint",
        "leg",
        "arm",
        "hand",
        "lung",
        "asthma",
        "allergy",
        "eczema",
        "migraine",
        "anxiety",
        "sinus",
        "blood",
        "hay",
        "heart",
        "sleep",
        "energy",
        "mood",
    }
)
# A condition is recurring when its verb says so or a trigger or schedule follows it; "my knee is sore" alone
# may be today's news.
_RECURRING_VERBS = frozenset(
    {"gets", "flares", "tends", "acts", "locks", "tightens", "cramps", "spikes", "crashes"}
)
_RECURRING_WORDS = re.compile(
    r"\b(?:after|when|whenever|during|if|before|while|in\s+(?:cold|hot|wet|the)|every|always|often|usually|"
    r"sometimes|at\s+night|on\s+\w+|each)\b",
    re.IGNORECASE,
)


def _body_claims(body: str) -> list[_Claim]:
    claims: list[_Claim] = []
    for match in _MY_BODY.finditer(body):
        rest = match.group("rest").strip().rstrip(".")
        if match.group("verb") not in _RECURRING_VERBS and _RECURRING_WORDS.search(rest) is None:
            continue
        who = " ".join(match.group("who").split())
        words = [t.lemma for t in tokenize(who)] + [
            t.lemma
            for t in tokenize(rest)[1:]
            if t.lemma not in STOPWORDS and t.lemma not in _FREQUENCY_ADVERBS and t.lemma not in _TRIGGERS
        ][:2]
        claims.append(
            _claim(
                ClaimKind.RECURRING_STATE,
                conflict_key("state", words),
                Predicate("be", rest, Aspect.BARE, ""),
                Longevity.ONGOING,
                holder=f"User's {who}",
            )
        )
    return claims


_MY_FAVORITE = re.compile(
    r"\b[Mm]y\s+(?:all-time\s+|absolute\s+)?(?P<what>favou?rite\s+[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)\s+"
    r"(?P<rest>(?:is|are)\s+[^,;!?]+)"
)


def _favorite_claims(body: str) -> list[_Claim]:
    claims: list[_Claim] = []
    for match in _MY_FAVORITE.finditer(body):
        what = " ".join(match.group("what").split())
        rest = match.group("rest").strip().rstrip(".")
        if len(rest.split()) < 2:
            continue
        claims.append(
            _claim(
                ClaimKind.PREFERENCE,
                conflict_key("preference", what),
                Predicate("be", rest, Aspect.BARE, ""),
                holder=f"User's {what}",
            )
        )
    return claims


# Professional cues: the user did not state a job, so each forms a tentative skill hypothesis only.
_MY_CUE = re.compile(
    r"\b[Mm]y\s+(?P<who>students|pupils|patients|direct\s+reports|employees|codebase|pull\s+requests|PRs)\b"
)
_CUE_HINTS = frozenset({"student", "pupil", "patient", "report", "employee", "codebase", "request", "prs"})
_CUES: dict[str, tuple[str, str]] = {
    "students": ("skill:teaching", "teaching experience"),
    "pupils": ("skill:teaching", "teaching experience"),
    "patients": ("skill:clinical-care", "clinical experience"),
    "direct reports": ("skill:people-management", "people-management experience"),
    "employees": ("skill:people-management", "people-management experience"),
    "codebase": ("skill:software-development", "software-development experience"),
    "pull requests": ("skill:software-development", "software-development experience"),
    "prs": ("skill:software-development", "software-development experience"),
}


def _cue_claims(body: str) -> list[_Claim]:
    claims: list[_Claim] = []
    for match in _MY_CUE.finditer(body):
        subject, skill = _CUES[" ".join(match.group("who").lower().split())]
        if any(c.subject == subject for c in claims):
            continue
        claims.append(_skill_hypothesis(subject, skill))
    return claims


def _regex_claims(text: str, clause: Clause, tokens: list[Token]) -> list[_Claim]:
    """Claims stated without an "I" subject: wishes about answers, goals, family members, projects."""
    claims: list[_Claim] = []
    body = clause.text
    low = _folded(body)
    if "my" not in low and "our" not in low:
        # Every pattern here needs the word "my" or "our".
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
            _claim(
                ClaimKind.PREFERENCE,
                conflict_key("preference", what) + "-aware-" + noun,
                Predicate("want", "wants", Aspect.SIMPLE, f"{noun} that take my {what} into account"),
            )
        )
        break
    # The patterns below are case-sensitive: their hints are tested on the text as written.
    if not ("my" in body or "My" in body or "our" in body or "Our" in body):
        return claims
    if lowered_lemmas & _BODY_HINTS:
        claims.extend(_body_claims(body))
    if "favorite" in lowered_lemmas or "favourite" in lowered_lemmas:
        claims.extend(_favorite_claims(body))
    if lowered_lemmas & _CUE_HINTS:
        claims.extend(_cue_claims(body))
    goal = _MY_GOAL.search(body) if _hinted(body, _MY_GOAL_HINTS) else None
    if goal is not None:
        complement = goal.group("rest").strip()
        claims.append(
            _claim(
                ClaimKind.GOAL,
                conflict_key("goal", complement),
                Predicate("want", "wants", Aspect.SIMPLE, complement),
                Longevity.ONGOING,
            )
        )
    for match in _MY_RELATIVE.finditer(body) if _hinted(body, _MY_RELATIVE_HINTS) else ():
        who = match.group("who")
        if lemma(who) not in _RELATIVES:
            continue
        rest = match.group("rest").strip()
        claims.append(
            _claim(
                ClaimKind.RELATIONSHIP,
                conflict_key("relationship", [lemma(who)]),
                Predicate("be", rest, Aspect.BARE, ""),
                Longevity.DURABLE,
                holder=f"User's {who}",
            )
        )
    for match in _MY_PROJECT.finditer(body) if _hinted(body, _MY_PROJECT_HINTS) else ():
        what = match.group("what")
        rest = match.group("rest").strip()
        claims.append(
            _claim(
                ClaimKind.PROJECT_FACT,
                conflict_key("project-fact", [what] + rest.split()[1:4]),
                Predicate("be", rest, Aspect.BARE, ""),
                Longevity.ONGOING,
                holder=f"User's {what}",
            )
        )
    return claims


_FIRST_PERSON_HINT = re.compile(r"\b(?:I|i|my|My|MY|[Oo]ur)\b")
_QUOTES = ('"', "“", "”")
_LEAD_WORDS = frozenset(
    {"every", "each", "on", "most", "some", "daily", "weekly", "nightly", "in", "once", "twice", "thrice"}
)


def _inside_quote(text: str, start: int, at: int) -> bool:
    """Whether an odd number of quotation marks opens before position at within the clause."""
    span = text[start:at]
    return sum(span.count(q) for q in _QUOTES) % 2 == 1


def clause_claims(text: str, clause: Clause) -> list[_Claim]:
    """All claims one clause of an owner-asserted event states; empty when it states none."""
    if _FIRST_PERSON_HINT.search(text, clause.start, clause.end) is None:
        return []
    tokens = tokenize(text, clause.start, clause.end)
    claims = _regex_claims(text, clause, tokens)
    subjects = [i for i, t in enumerate(tokens) if t.lower == "i" and t.text[:1] in ("I", "i")]
    body = clause.text
    quoted = '"' in body or "“" in body
    for n, at in enumerate(subjects):
        before = [t.lower for t in tokens[max(0, at - 3) : at]]
        if before and before[-1] in _INVERSION:
            continue
        if any(word in _HYPOTHETICAL for word in before) or (before[-2:] == ["what", "if"]):
            continue
        if quoted and _inside_quote(text, clause.start, tokens[at].start):
            # Someone else's words quoted ("He said "I love jazz"") are not the user's assertion.
            continue
        stop = subjects[n + 1] if n + 1 < len(subjects) else len(tokens)
        predicate_tokens = tokens[at + 1 : stop]
        if not predicate_tokens:
            continue
        parse = _parse_predicate(predicate_tokens)
        if parse is None:
            continue
        if n == 0 and at and any(t.lower in _LEAD_WORDS for t in tokens[:at]):
            lead = _frequency(text, clause.start, tokens[at].start)
            if lead is not None:
                parse.lead = lead.group(0)
        region_end = tokens[stop].start if stop < len(tokens) else clause.end
        correction = _correction_claims(text, clause, parse, region_end)
        if correction:
            claims.extend(correction)
            continue
        if parse.modal is not None and not (
            parse.modal == "would"
            and (parse.lemma in {"like", "love", "prefer"} or parse.verb.lower == "rather")
        ):
            continue
        can = any(t.lower == "can" for t in parse.tokens[: parse.verb_at])
        found: list[_Claim]
        if parse.negated and not _not_stalled(body) and not can:
            found = _negated_claims(text, parse)
        elif parse.negated and can:
            found = _constraint_claims(text, parse)
        else:
            found = _predicate_claims(text, clause, parse, region_end)
            if _copula_rest(parse) is not None:
                found.extend(_constraint_claims(text, parse))
        if found and (any(word in _HEDGES for word in before) or any(a in _HEDGES for a in parse.adverbs)):
            for claim in found:
                if claim.derivation is Derivation.DIRECT:
                    claim.hedged = True
        claims.extend(found)
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
