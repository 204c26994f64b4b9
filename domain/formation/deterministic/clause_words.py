"""The word lists of the clause-first path: which predicates assert nothing lasting, where a clause's own
statement ends, and which verbs open a coordinated item of their own."""

# Verbs whose complement is a thought, a wish or someone else's words, not a fact about the user.
NOT_ASSERTING = frozenset(
    {
        "think",
        "guess",
        "believe",
        "suppose",
        "doubt",
        "wonder",
        "bet",
        "wish",
        "say",
        "tell",
        "ask",
        "mean",
        "reckon",
        "hear",
        "talk",
        "chat",
        "discuss",
        "imagine",
        "assume",
        "realize",
        "realise",
        "notice",
        "promise",
        "agree",
        "understand",
        "forgot",
        "want",
        "need",
        "hope",
        "let",
        "apologize",
        "thank",
        "appreciate",
    }
)
# ... unless they take an infinitive: "I hope to retire early", "I need to lose weight".
INFINITIVE_OK = frozenset({"want", "need", "hope", "wish", "mean"})
# Complements that describe the moment of the conversation, not the user.
TRANSIENT = frozenset(
    {
        "late",
        "sorry",
        "here",
        "done",
        "ready",
        "sure",
        "fine",
        "ok",
        "okay",
        "question",
        "wondering",
        "curious",
        "convinced",
        "confused",
        "shock",
        "kidding",
        "joking",
        "glad",
        "thankful",
        "grateful",
        "afraid",
        "gonna",
        "asking",
        "say",
        "know",
        "ask",
        "understand",
        "figure",
        "check",
        "clarify",
        "confirm",
        "think",
        "tell",
        "mind",
        "today",
        "tonight",
        "yesterday",
        "earlier",
        "moment",
        "minute",
        "second",
    }
)
# A past event with one of these verbs is an errand or a meal, not something lasting about the user.
ONE_OFF = frozenset({"go", "have", "eat", "see", "watch", "get", "do", "make", "take", "come"})
# A one-off past dated to a month, a season or a year is a life event ("my dad had a stroke in March", "I
# had surgery in 2019"), not an errand or a meal of today ("I had pizza last night").
LIFE_EVENT_DATES = frozenset(
    {"january", "february", "march", "april", "may", "june", "july", "august", "september", "october"}
    | {"november", "december", "spring", "summer", "fall", "autumn", "winter", "ago"}
)
# Activities a user can state with nothing after the verb: "I knit", "I never cook".
ACTIVITIES = frozenset(
    {"read", "cook", "run", "swim", "write", "walk", "hike", "bike", "paint", "knit", "garden", "bake"}
    | {"sing", "dance", "travel", "climb", "fish", "sew", "draw", "volunteer", "coach", "drive", "meditate"}
    | {"journal", "lift", "train", "smoke", "drink", "study", "teach", "work", "ski", "surf", "skate", "box"}
)
# Verbs of feeling, whose object may be a "when" clause: "I hate when people text me".
FEELINGS = frozenset({"love", "hate", "like", "dislike", "enjoy", "detest", "loathe", "adore"})
# Verbs of the moment: with nothing after them they narrate the conversation ("I'm leaving", "I see").
MOMENT = frozenset(
    {"leave", "go", "come", "wait", "try", "kid", "joke", "look", "listen", "wonder", "see", "agree"}
    | {"win", "lose", "die", "lie", "sit", "stand", "hurry", "struggle", "panic", "cry", "laugh", "guess"}
)
# Verbs whose past is their base form: "I quit my job in 2019" is a past, read so by a time it names.
SAME_FORM_PAST = frozenset(
    {"quit", "put", "set", "cut", "hit", "let", "shut", "spread", "cost", "hurt", "split", "upset", "burst"}
)
# Words that place a statement in the past: "two years ago", "yesterday", "last year", "in 2019".
PAST_MARKERS = frozenset({"ago", "yesterday", "last"})
# What a parse can take for a verb in a run-on ("I very very ..."): no rewrite starts there.
NOT_VERBS = frozenset({"very", "so", "too", "really", "quite", "pretty", "also", "just", "like", "um", "uh"})
# Longer than this, a complement is a run-on, not one statement.
MAX_ITEM_WORDS = 30
# Words after which the clause's own statement has ended: a reason, a consequence, a relative clause.
STOP = frozenset(
    {
        "so",
        "but",
        "because",
        "cause",
        "cuz",
        "which",
        "that",
        "who",
        "whether",
        "if",
        "what",
        "where",
        "how",
        "although",
        "though",
        "while",
        "since",
        "when",
        "whenever",
        "until",
        "unless",
        "whereas",
        "then",
        "lol",
        "tbh",
        "btw",
        "haha",
        "lmao",
        "honestly",
        "anyway",
        "except",
    }
)
FILLERS = frozenset(
    {"lol", "tbh", "btw", "haha", "lmao", "honestly", "though", "anyway", "ok", "too", "now", "please", "pls"}
)
TRAILING = frozenset(
    {
        "for",
        "to",
        "of",
        "in",
        "on",
        "at",
        "with",
        "a",
        "an",
        "the",
        "my",
        "as",
        "by",
        "from",
        "than",
        "about",
        "and",
        "or",
        "even",
    }
)
CONNECTORS = frozenset({"and", "or", "also", "then", "&"})
# Verbs that can open a coordinated item of their own: "..., and do some woodworking".
ITEM_VERBS = frozenset(
    {
        "do",
        "go",
        "play",
        "make",
        "take",
        "have",
        "read",
        "cook",
        "run",
        "swim",
        "write",
        "watch",
        "walk",
        "work",
        "ride",
        "bike",
        "hike",
        "paint",
        "knit",
        "garden",
        "bake",
        "sing",
        "dance",
        "travel",
        "visit",
        "teach",
        "study",
        "learn",
        "use",
        "keep",
        "spend",
        "climb",
        "fish",
        "sew",
        "draw",
        "build",
        "fix",
        "volunteer",
        "coach",
        "drive",
        "love",
        "like",
        "hate",
        "enjoy",
        "own",
        "live",
        "speak",
        "sleep",
        "eat",
        "drink",
        "manage",
        "lift",
        "train",
        "practice",
        "meditate",
        "journal",
        "collect",
        "brew",
        "grow",
        "moved",
        "move",
        "start",
        "leave",
        "quit",
        "spent",
        "smoke",
    }
)
