"""Word lists of what a claim is about: activities and training, software, occupations and positions,
relatives, possessions, languages, credentials, states, conditions and dietary or bodily limits."""

import re
from dataclasses import dataclass

from domain.formation.language import lemma


@dataclass(frozen=True, slots=True)
class Activity:
    gerund: str  # the conflict key word: "activity:swimming"
    verb: str  # how the statement says it: "swims"
    complement: str = ""  # "yoga" for "does yoga"


ACTIVITIES: dict[str, Activity] = {
    "swim": Activity("swimming", "swim"),
    "run": Activity("running", "run"),
    "bike": Activity("biking", "bike"),
    "cycle": Activity("cycling", "cycle"),
    "hike": Activity("hiking", "hike"),
    "climb": Activity("climbing", "climb"),
    "row": Activity("rowing", "row"),
    "walk": Activity("walking", "walk"),
    "jog": Activity("jogging", "jog"),
    "ski": Activity("skiing", "ski"),
    "surf": Activity("surfing", "surf"),
    "skate": Activity("skating", "skate"),
    "dance": Activity("dancing", "dance"),
    "box": Activity("boxing", "box"),
    "lift": Activity("lifting", "lift", "weights"),
    "yoga": Activity("yoga", "do", "yoga"),
    "pilates": Activity("pilates", "do", "pilates"),
    "crossfit": Activity("crossfit", "do", "CrossFit"),
    "tennis": Activity("tennis", "play", "tennis"),
    "golf": Activity("golf", "play", "golf"),
    "football": Activity("football", "play", "football"),
    "soccer": Activity("soccer", "play", "soccer"),
    "basketball": Activity("basketball", "play", "basketball"),
    "volleyball": Activity("volleyball", "play", "volleyball"),
}
# Verbs that are also nouns ("a bike", "a run") count as activities only as a verb or a gerund.
NOUN_ACTIVITIES = frozenset(
    {"yoga", "pilates", "crossfit", "tennis", "golf", "football", "soccer", "basketball", "volleyball"}
)
TRAINING_WORDS = frozenset(
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


def is_program(lower: str) -> bool:
    """A named program such as "5x5"; the "x" test spares the regex for every other word."""
    return "x" in lower and _PROGRAM_TOKEN.match(lower) is not None


SOFTWARE_WORDS = frozenset(
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
OCCUPATIONS = frozenset(
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
MORE_OCCUPATIONS = frozenset(
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
        "porter",  # an agent noun that is also a verb of its own ("to porter"), which `names_an_agent` refuses
    }
)
POSITIONS = frozenset(
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
TEAM_WORDS = frozenset(
    {"team", "group", "department", "lab", "division", "unit", "squad", "org", "organization", "office"}
)
RELATIVES = frozenset(
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
VEHICLES_AND_THINGS = frozenset(
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
LANGUAGES = frozenset(
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
CREDENTIALS = frozenset(
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
STATE_WORDS = frozenset(
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
CONDITIONS = frozenset(
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
# A parent "of" some: "mom of 3", "single dad of two".
PARENTS = frozenset({"dad", "mom", "mum", "mother", "father", "parent"})
# Heads that name a kind of person after a modifier or alone: "cat person", "night owl", "tea snob", "early
# riser", "jazz lover", "introvert".
PERSON_HEADS = frozenset(
    {"person", "owl", "snob", "nerd", "geek", "addict", "junkie", "lover", "riser", "introvert", "extrovert"}
)
# Endings of a person's noun ("florist", "pediatrician", "vegetarian", "historian"); the words these endings
# also end ("checklist", "assist", "wrist") are told apart in names_a_person.
_PERSON_ENDINGS = ("ist", "ician", "arian", "orian")
_MIN_PERSON_CHARS = 6


def names_a_person(word: str) -> bool:
    """Whether a lower-cased word names a kind of person by its head or its ending, beyond the roles listed
    by name: "-list" after a consonant is a list ("playlist", "checklist", not "cellist" or "novelist") and
    "-sist" a verb ("assist", "persist")."""
    if word in PERSON_HEADS:
        return True
    if len(word) < _MIN_PERSON_CHARS or not word.endswith(_PERSON_ENDINGS) or word.endswith("sist"):
        return False
    return not (word.endswith("list") and word[-5] not in "aeiol")


# An agent noun's verb has at least this many letters: shorter ones are mostly chance ("dinner", "summer",
# "letter", "bigger" look like "din", "sum", "let", "big" + "-er").
_MIN_AGENT_VERB = 4


def names_an_agent(word: str) -> bool:
    """Whether a lower-cased word is an agent noun, one who does what its verb says ("driver", "picker",
    "bartender", "welder", "attendant", "translator"), beyond the roles listed by name: with its "-er", "-or"
    or "-ant" cut, its "-ing" form lemmatizes to a verb of the stem ("driving" -> "drive"). The relatives and
    things of a life are nouns of their own ("mother", "printer", "scooter"), and so is a word that is itself
    a verb ("flower")."""
    if word.endswith(("er", "or")):
        stem = word[:-2]
    elif word.endswith("ant"):
        stem = word[:-3]
    else:
        return False
    if word in RELATIVES or word in VEHICLES_AND_THINGS:
        return False
    # A verb of its own ("flowering" -> "flower", "shower") names a thing or an act, and a word with a lemma of
    # its own is an inflection ("thinner" -> "thin": "on blood thinners"), not one who does the stem's verb.
    if lemma(word + "ing") == word or lemma(word) != word:
        return False
    verb = lemma(stem + "ing")
    return len(verb) >= _MIN_AGENT_VERB and verb != stem + "ing" and verb in (stem, stem + "e", stem[:-1])


LIMIT_ADJECTIVES = frozenset(
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
