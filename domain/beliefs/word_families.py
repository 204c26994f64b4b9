"""Word families for recall with a query: the other words a statement may use for what a question asks.

People ask in their own words ("my mum", "who's my boss", "which herb do I hate") and beliefs are stated in
the words they were said or formed with ("User's mother", "User's manager", "User dislikes coriander"): a
search by the question's words alone misses them. Each query word is searched together with its family, and
a family counts once toward a belief's coverage, however many of its words the belief holds.

SYNONYMS are groups of words that name the same thing (spelling variants included); each word of a group
brings the whole group. BROADER maps a word to the narrower words it covers ("kid" finds a son or a
daughter, "summer" finds June, July and August, "money" finds savings and a pension) and works one way
only: asking about a daughter does not find a son. Only the KINDS of food and drink are also searched
upward ("prawns" finds "shellfish"). PHRASES are idioms a question uses for one word ("for a living": a
job). The lists are kept by hand, small and general: the semantic fields any person's memories use (family
roles, occupation, residence, health, diet, pets, schedule, money, travel), written from general knowledge
and keyed by lemma; no model, no download, and both stores expand a query the same way because the
expansion happens here, before the store is asked.
"""

from typing import Final

from domain.formation.language import lemma

SYNONYMS: Final[tuple[frozenset[str], ...]] = tuple(
    frozenset(group.split())
    for group in (
        # people (the deterministic former's relatives and positions)
        "mother mum mom mummy mommy mama",
        "father dad daddy papa",
        "grandmother grandma granny",
        "grandfather grandpa granddad grandad",
        "child kid",
        "son boy lad",
        "daughter girl",
        "wife husband spouse",
        "doctor physician gp",
        "boss manager supervisor",
        # preferences (the former's interest and dislike verbs)
        "like love enjoy adore",
        "dislike hate detest loathe despise",
        "prefer preference rather",
        # work and money
        "job occupation profession career work",
        "employer company firm",
        "remote remotely",
        "university uni",
        # health and body
        "medication medicine meds pill prescription",
        "allergy allergic",
        "headache migraine",
        "exercise workout",
        "glasses spectacles specs lens lenses contacts eyesight",
        # home, things, time
        "apartment flat",
        "car vehicle",
        "electric ev",
        "bike bicycle cycle",
        "phone smartphone mobile cellphone",
        "laptop computer",
        "photo photograph photography camera",
        "film movie",
        "show series tv television telly",
        "app application software",
        "wedding marry married",
        "birthday born birth",
        "trip travel",
        "meal dish",
        "evening night",
        # British and American spellings and words
        "neighbour neighbor",
        "favourite favorite",
        "colour color",
        "centre center",
        "theatre theater",
        "programme program",
        "grey gray",
        "holiday vacation",
        "football soccer",
    )
)

# Each broader word and the narrower words it covers (the everyday members of a class).
BROADER: Final[dict[str, frozenset[str]]] = {
    word: frozenset(narrower.split())
    for word, narrower in (
        ("like", "favourite favorite"),
        ("child", "son daughter"),
        ("kid", "son daughter"),
        ("parent", "mother father mum dad"),
        ("sibling", "brother sister"),
        ("partner", "wife husband spouse girlfriend boyfriend"),
        ("pet", "dog cat puppy kitten rabbit hamster tortoise parrot budgie"),
        (
            "job",
            "teacher nurse doctor engineer developer programmer carpenter plumber electrician builder lawyer"
            " solicitor accountant architect designer scientist researcher chef cook waiter driver mechanic"
            " farmer pharmacist dentist vet paramedic firefighter police soldier manager consultant"
            " analyst journalist writer editor artist musician photographer cleaner receptionist librarian",
        ),
        ("commute", "bus train tram tube metro subway drive car cycle bike ferry taxi"),
        # an age, an origin, how the assistant should answer
        ("age", "born birth birthday turn turned"),
        ("origin", "born birthplace hometown emigrate emigrated immigrate immigrated grew raised native"),
        ("assistant", "answer reply response tone explanation"),
        ("sleep", "asleep awake insomnia nap bedtime"),
        ("day", "monday tuesday wednesday thursday friday saturday sunday"),
        ("weekend", "saturday sunday"),
        (
            "month",
            "january february march april june july august september october november december",
        ),
        ("spring", "march april"),
        ("summer", "june july august"),
        ("autumn", "september october november"),
        ("winter", "december january february"),
        ("money", "savings fund cash salary pension budget bank mortgage loan debt income finance"),
        ("instrument", "guitar bass piano violin cello drums flute saxophone trumpet ukulele"),
        ("sport", "football rugby cricket tennis golf swimming running cycling climbing basketball"),
        ("vegetable", "leek carrot potato onion tomato bean pea cabbage lettuce spinach courgette broccoli"),
        ("fruit", "apple banana orange strawberry blueberry raspberry pear grape lemon cherry"),
        # kinds of food and drink: a statement about the kind holds for its members (see KINDS)
        ("shellfish", "prawn shrimp crab lobster mussel oyster scallop clam squid"),
        ("nut", "peanut almond cashew walnut hazelnut pistachio pecan"),
        ("dairy", "milk cheese butter yogurt yoghurt cream"),
        ("meat", "beef pork lamb chicken bacon ham sausage steak"),
        ("fish", "salmon tuna cod sardine mackerel trout haddock"),
        ("gluten", "bread pasta wheat flour"),
        ("alcohol", "wine beer gin vodka whisky cider"),
        ("caffeine", "coffee tea espresso cola"),
    )
}

# The kinds searched upward too: an allergy to shellfish is an allergy to prawns, so a question about
# prawns finds it. Other broader words are not: a subject such as "pet:tortoise" holds "pet", and a
# question about the dog would find every pet.
KINDS: Final = frozenset(("shellfish", "nut", "dairy", "meat", "fish", "gluten", "alcohol", "caffeine"))

# Idioms a question uses for one word, replaced by that word before the question is split into words:
# "for a living" asks about a job (its "living" would find everywhere the user lives).
PHRASES: Final[dict[str, str]] = {
    "for a living": "job",
    "little one": "child",
    "get up": "wake",
    "stop working": "retire",
    "get to": "commute",
    "from home": "remote",
}

_FAMILY_OF: Final[dict[str, frozenset[str]]] = {word: group for group in SYNONYMS for word in group}
_KIND_OF: Final[dict[str, frozenset[str]]] = {
    member: frozenset(kind for kind in KINDS if member in BROADER[kind])
    for member in frozenset().union(*(BROADER[kind] for kind in KINDS))
}
_VOCABULARY: Final[frozenset[str]] = frozenset(_FAMILY_OF).union(BROADER, *BROADER.values())


def is_family_word(word: str) -> bool:
    """Whether a word belongs to any family, as a synonym, a broader or a narrower word."""
    return word in _VOCABULARY


def family(word: str) -> tuple[str, ...]:
    """The word first, then the rest of its family (its synonyms, the narrower words they cover and, for a
    member of one of KINDS, that kind), each once, in a fixed order."""
    asked = {word, lemma(word)}
    related = set().union(*(_FAMILY_OF.get(w, frozenset()) for w in asked))
    for synonym in asked | related:
        related |= BROADER.get(synonym, frozenset()) | _KIND_OF.get(synonym, frozenset())
    return tuple(dict.fromkeys((word, *sorted(related - {word}))))
