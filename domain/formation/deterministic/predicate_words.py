"""Word lists of how a predicate is said: the verbs, adjectives and function words that pick the rule which
reads a predicate, or end its phrase."""

ACTIVITY_CARRIERS = frozenset(
    {"do", "go", "practice", "practise", "train", "add", "mix", "alternate", "also"}
)
PROJECT_VERBS = frozenset({"build", "develop", "create", "write", "make", "design", "code", "program"})
MORE_PROJECT_VERBS = frozenset(
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
META_GOALS = frozenset(
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
EXPERIENCE_VERBS = frozenset(
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
REQUEST_WORDS = frozenset(
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
ROLE_VERBS = frozenset({"lead", "manage", "head", "supervise", "chair", "coordinate", "direct", "run"})
TEACHING_VERBS = frozenset({"teach", "coach", "tutor", "lecture"})
SKILLED = frozenset({"fluent", "proficient", "experienced", "skilled", "certified", "trained", "qualified"})
GOOD_AT = frozenset({"good", "great", "decent", "competent"})
KNOW_STOP = frozenset(
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
SOFTWARE_GERUNDS = frozenset({"debug", "deploy", "refactor", "code", "program"})
FAN_WORDS = frozenset({"fan", "lover", "enthusiast", "nerd", "buff", "geek"})
FASCINATED = frozenset(
    {"fascinated", "obsessed", "passionate", "curious", "keen", "enthusiastic", "hooked", "crazy", "mad"}
)
STATE_VERBS = frozenset({"struggle", "suffer", "deal", "live"})
FREQUENCY_ADVERBS = (
    "usually",
    "always",
    "often",
    "regularly",
    "normally",
    "typically",
    "generally",
    "frequently",
)
TRIGGERS = frozenset({"when", "whenever", "after", "before", "if", "while", "during"})
SPOUSAL = frozenset({"married", "engaged", "divorced", "widowed", "separated"})
LIMIT_TARGETS = frozenset({"avoid", "limit", "stay", "watch", "skip", "cut", "keep", "stick"})
DISLIKE_VERBS = frozenset({"hate", "dislike", "detest", "loathe"})
DIET_VERBS = frozenset({"eat", "drink"})
PRONOUN_OBJECTS = frozenset(
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
