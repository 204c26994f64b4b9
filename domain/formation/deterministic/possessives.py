"""Claims stated without an "I" subject, each behind "my" or "our": wishes about answers, goals, projects,
body conditions, favourites and professional cues (relatives are read by relatives, other things by
belongings)."""

import re

from domain.candidates import ClaimKind, Longevity
from domain.formation.clauses import Clause
from domain.formation.deterministic.claims import Claim, direct_claim, skill_hypothesis
from domain.formation.deterministic.patterns import folded, hinted
from domain.formation.deterministic.predicate_words import FREQUENCY_ADVERBS, REQUEST_WORDS, TRIGGERS
from domain.formation.language import STOPWORDS, Token, tokenize
from domain.formation.rendering import Aspect, Predicate, conflict_key

_AGE_AWARE = re.compile(
    r"\b(?:take|takes|taking|took)\s+my\s+(?P<x>[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*)?)\s+into\s+(?:account|consideration)"
    r"|\b(?:consider|considers|considering|factor\s+in|factoring\s+in|account\s+for|accounting\s+for|appropriate\s+for|suitable\s+for|adapted\s+to|tailored\s+to|based\s+on)\s+my\s+(?P<y>[^\W\d_][\w-]*)",
    re.IGNORECASE,
)
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
# "my goal this year is to ...": a time may stand between the goal and its "is".
_MY_GOAL = re.compile(
    r"\b[Mm]y\s+(?:main\s+|big\s+)?(?:goal|aim|plan|objective|dream)"
    r"(?:\s+(?:this|for\s+(?:this|next)|next)\s+(?:year|month|summer|spring|fall|autumn|winter|semester))?"
    r"\s+is\s+(?P<rest>to\s+[^,;!?]+)"
)
_MY_GOAL_HINTS = ("goal", "aim", "plan", "objective", "dream")
# What "my"/"our" may name for a project fact, in the order the pattern tries them. The pattern needs one
# of them as a word of the clause, which a set lookup over the clause's words tests first.
_PROJECT_WORDS = (
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
    "homelab",
    "lab",
    "business",
    "database",
    "cluster",
    "pipeline",
    "stack",
    "deadline",
    "budget",
)
_MY_PROJECT = re.compile(
    r"(?:^|[,;:]\s*|\band\s+|\?\s*)(?:[Mm]y|[Oo]ur)\s+(?P<what>"
    + "|".join(_PROJECT_WORDS)
    + r")\s+(?P<rest>(?:uses|runs|is|are|has|needs|relies|depends|stores|calls|targets|serves|deploys|supports|lives|sits|talks|reads|writes|sends|ships)\b[^,;!?]*)"
)
_PROJECT_SET = frozenset(_PROJECT_WORDS)
# The lookahead skips positions no alternative opens at (a leading \b gets no prefix scan): patterns.py.
_NEGATED_BEFORE = re.compile(r"(?=n)\b(?:not|n't|no need to|never)\b")
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
BODY_HINTS = frozenset(
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


def _body_claims(body: str) -> list[Claim]:
    claims: list[Claim] = []
    for match in _MY_BODY.finditer(body):
        rest = match.group("rest").strip().rstrip(".")
        if match.group("verb") not in _RECURRING_VERBS and _RECURRING_WORDS.search(rest) is None:
            continue
        who = " ".join(match.group("who").split())
        words = [t.lemma for t in tokenize(who)] + [
            t.lemma
            for t in tokenize(rest)[1:]
            if t.lemma not in STOPWORDS and t.lemma not in FREQUENCY_ADVERBS and t.lemma not in TRIGGERS
        ][:2]
        claims.append(
            direct_claim(
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


def _favorite_claims(body: str) -> list[Claim]:
    claims: list[Claim] = []
    for match in _MY_FAVORITE.finditer(body):
        what = " ".join(match.group("what").split())
        rest = match.group("rest").strip().rstrip(".")
        if len(rest.split()) < 2:
            continue
        claims.append(
            direct_claim(
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


def _cue_claims(body: str) -> list[Claim]:
    claims: list[Claim] = []
    for match in _MY_CUE.finditer(body):
        subject, skill = _CUES[" ".join(match.group("who").lower().split())]
        if any(c.subject == subject for c in claims):
            continue
        claims.append(skill_hypothesis(subject, skill))
    return claims


def possessive_claims(text: str, clause: Clause, tokens: list[Token]) -> list[Claim]:
    """Claims stated without an "I" subject: wishes about answers, goals, projects, the body, favourites."""
    claims: list[Claim] = []
    body = clause.text
    low = folded(body)
    if "my" not in low and "our" not in low:
        # Every pattern here needs the word "my" or "our".
        return claims
    lowered_lemmas = {t.lemma for t in tokens}
    lowered_words = {t.lower for t in tokens}
    for match in _AGE_AWARE.finditer(body) if hinted(low, _AGE_AWARE_HINTS) else ():
        what = (match.group("x") or match.group("y") or "").strip()
        before = body[max(0, match.start() - 24) : match.start()].lower()
        if not what or _NEGATED_BEFORE.search(before):
            continue
        if not (lowered_lemmas & REQUEST_WORDS):
            continue
        noun = "advice" if "advice" in lowered_lemmas else "recommendations"
        claims.append(
            direct_claim(
                ClaimKind.PREFERENCE,
                conflict_key("preference", what) + "-aware-" + noun,
                Predicate("want", "wants", Aspect.SIMPLE, f"{noun} that take my {what} into account"),
            )
        )
        break
    # The patterns below are case-sensitive: their hints are tested on the text as written.
    if not ("my" in body or "My" in body or "our" in body or "Our" in body):
        return claims
    if lowered_lemmas & BODY_HINTS:
        claims.extend(_body_claims(body))
    if "favorite" in lowered_lemmas or "favourite" in lowered_lemmas:
        claims.extend(_favorite_claims(body))
    if lowered_lemmas & _CUE_HINTS:
        claims.extend(_cue_claims(body))
    goal = _MY_GOAL.search(body) if hinted(body, _MY_GOAL_HINTS) else None
    if goal is not None:
        complement = goal.group("rest").strip()
        claims.append(
            direct_claim(
                ClaimKind.GOAL,
                conflict_key("goal", complement),
                Predicate("want", "wants", Aspect.SIMPLE, complement),
                Longevity.ONGOING,
            )
        )
    for match in _MY_PROJECT.finditer(body) if not _PROJECT_SET.isdisjoint(lowered_words) else ():
        what = match.group("what")
        rest = match.group("rest").strip()
        claims.append(
            direct_claim(
                ClaimKind.PROJECT_FACT,
                conflict_key("project-fact", [what] + rest.split()[1:4]),
                Predicate("be", rest, Aspect.BARE, ""),
                Longevity.ONGOING,
                holder=f"User's {what}",
            )
        )
    return claims
