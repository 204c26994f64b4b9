"""The claim kind classifier of the clause-first path: which kind and longevity a rewritten clause carries.

The clause-first path forms a claim from any first-person declarative clause whatever its wording; this
module only files it. It reads the verb's lemma, its aspect and the complement's lemmas, and when nothing
names a kind it falls back to a project fact of ongoing longevity: a default that makes no stronger claim
than the words did, and that lifecycle@2 retires after 90 days if nothing supports it again.
"""

from collections.abc import Collection, Sequence

from domain.candidates import ClaimKind, Longevity
from domain.formation.deterministic.lexicon import CONDITION, GENRE, PASTIME, filed_in, lexnames
from domain.formation.deterministic.topic_words import (
    CONDITIONS,
    OCCUPATIONS,
    POSITIONS,
    RELATIVES,
    names_an_agent,
)
from domain.formation.language import Token
from domain.formation.rendering import Aspect

DEFAULT = (ClaimKind.PROJECT_FACT, Longevity.ONGOING)
# The lexnames a complement's noun files a kind by.
_KINDS = frozenset({CONDITION, PASTIME, GENRE})

_LIKING = frozenset(
    {"like", "love", "enjoy", "prefer", "adore", "hate", "dislike", "detest", "loathe", "stand"}
)
_WANTING = frozenset({"want", "hope", "plan", "aim", "try", "save", "intend", "mean", "dream", "consider"})
_MAKING = frozenset(
    {
        "build",
        "make",
        "put",
        "set",
        "work",
        "write",
        "restore",
        "renovate",
        "organize",
        "organise",
        "plan",
        "host",
        "develop",
        "design",
        "create",
        "fix",
        "paint",
        "sort",
        "maintain",
        "run",
        "start",
        "look",
    }
)
# What a band, a team or a company of the user's may be in the middle of making.
_RECORDING = frozenset({"record", "launch", "release", "migrate", "rebuild", "redesign", "raise", "open"})
_WORKING = frozenset({"work", "manage", "teach", "coach", "own", "lead", "head", "supervise", "volunteer"})
_KNOWING = frozenset({"learn", "speak", "know", "study", "pick", "practice", "practise", "read"})
_HAVING = frozenset({"keep", "store", "use", "drive", "own", "rent", "carry", "stash", "hide"})
_PLACES = frozenset({"live", "move", "grow", "bear", "relocate", "stay", "come"})
_STATES = frozenset({"get", "feel", "struggle", "suffer", "deal", "recover", "sleep", "forget", "keep"})
_ENJOYING_THINGS = frozenset({"play", "collect", "brew", "knit", "watch", "follow", "support", "climb"})
_CONSTRAINT_WORDS = frozenset(
    {
        "allergic",
        "vegan",
        "vegetarian",
        "pescatarian",
        "diabetic",
        "celiac",
        "intolerant",
        "colorblind",
        "sober",
        "halal",
        "kosher",
        "pregnant",
        "budget",
        "deaf",
        "blind",
    }
)
_RELATION_WORDS = RELATIVES | frozenset(
    {
        "single",
        "married",
        "divorced",
        "widowed",
        "engaged",
        "twin",
        "grandkid",
        "grandchild",
        "youngest",
        "oldest",
    }
)
_AGE_WORDS = frozenset({"year", "years", "old", "yo"})
_BUSINESSES = frozenset(
    {
        "company",
        "business",
        "shop",
        "bakery",
        "store",
        "restaurant",
        "firm",
        "startup",
        "team",
        "cafe",
        "farm",
    }
)
_ROLE_WORDS = OCCUPATIONS | POSITIONS | frozenset({"caretaker", "caregiver", "owner", "founder", "treasurer"})


def _an_age(complement: frozenset[str]) -> bool:
    """ "I'm 41", "I'm 78 years old": who the user is, as their role is."""
    words = [word for word in complement if not word.isdigit()]
    return len(words) < len(complement) <= len(words) + 1 and _AGE_WORDS.issuperset(words)


def _names_a_role(complement: frozenset[str]) -> bool:
    """ "a crane operator", "a bus driver": a listed role, or an agent noun no list names, as the clauses
    that form it read it."""
    if complement & _ROLE_WORDS:
        return True
    # A plain loop: any() over a generator costs several times more, and this runs for most "be" clauses.
    for word in complement:  # noqa: SIM110
        if names_an_agent(word):
            return True
    return False


def classify(
    lemma: str,
    aspect: Aspect,
    complement: frozenset[str],
    holder: str = "User",
    kin: bool = True,
    tokens: Sequence[Token] = (),
) -> tuple[ClaimKind, Longevity]:
    """The kind and longevity of a claim the user stated with this verb about this complement; a holder
    other than the user is a relative (kin) or a thing of theirs ("User's band is recording an EP"). The
    complement's tokens tell its names, which no noun's sense files ("two greyhounds, Pip and Moose": "pip"
    is a disease of poultry)."""
    if holder != "User":
        if kin:
            return ClaimKind.RELATIONSHIP, Longevity.DURABLE
        if aspect is Aspect.PROGRESSIVE and lemma in _MAKING | _RECORDING:
            return ClaimKind.ONGOING_PROJECT, Longevity.ONGOING
        return DEFAULT
    if lemma in _LIKING:
        return ClaimKind.PREFERENCE, Longevity.DURABLE
    if complement & _CONSTRAINT_WORDS or complement & CONDITIONS:
        return ClaimKind.CONSTRAINT, Longevity.DURABLE
    if lemma == "be" and _an_age(complement):
        return ClaimKind.ROLE, Longevity.ONGOING
    if (
        lemma == "be"
        and _names_a_role(complement)
        or lemma in _WORKING
        or lemma == "run"
        and complement & _BUSINESSES
    ):
        return ClaimKind.ROLE, Longevity.ONGOING
    # What the user is making is a project even for people ("putting together a menu for my sister's
    # wedding"); a plan is a goal.
    if aspect is Aspect.PROGRESSIVE and lemma in _MAKING and lemma not in _WANTING:
        return ClaimKind.ONGOING_PROJECT, Longevity.ONGOING
    # Where the user lives or moved is filed as a place even with people in it ("moved back in with my
    # parents", "came to Canada with my two kids").
    if lemma in _PLACES:
        return ClaimKind.PROJECT_FACT, Longevity.DURABLE
    if complement & _RELATION_WORDS:
        return ClaimKind.RELATIONSHIP, Longevity.DURABLE
    if lemma in _WANTING:
        return ClaimKind.GOAL, Longevity.ONGOING
    if lemma in _KNOWING:
        return ClaimKind.SKILL, Longevity.DURABLE
    if lemma in _HAVING:
        return ClaimKind.RESOURCE, Longevity.ONGOING
    if lemma in _STATES:
        return ClaimKind.RECURRING_STATE, Longevity.ONGOING
    if lemma in _ENJOYING_THINGS:
        return ClaimKind.INTEREST, Longevity.DURABLE
    if aspect is Aspect.SIMPLE and lemma != "be" and lemma != "have":
        return ClaimKind.HABIT, Longevity.ONGOING
    return by_noun(complement, tokens) or DEFAULT


def _names_in(tokens: Sequence[Token]) -> frozenset[str]:
    """The lemmas of the words after the first written with a capital, not in capitals ("MS" is an
    illness's initials): a name ("Pip") or a people's ("Cajun")."""
    return frozenset(t.lemma for t in tokens[1:] if t.text[:1].isupper() and not t.text.isupper())


def by_noun(complement: Collection[str], tokens: Sequence[Token] = ()) -> tuple[ClaimKind, Longevity] | None:
    """The kind a complement's noun names by its most frequent WordNet sense, where the verb names none: an
    illness is a recurring condition ("User has asthma", the reference's recurring_state), a pastime, a sport
    or a music genre an interest ("User is really into fishing"). An illness decides over a pastime
    whatever order the words come in ("a ski injury"); a name among the complement's tokens is no noun."""
    # Any collection of lemmas: a caller holding a plain list builds no set for most complements, which this
    # test answers.
    if filed_in(_KINDS).isdisjoint(complement):
        return None  # most complements: the names are read only when a noun would decide
    found = lexnames(set(complement) - _names_in(tokens))
    if CONDITION in found:
        return ClaimKind.RECURRING_STATE, Longevity.ONGOING
    if PASTIME in found or GENRE in found:
        return ClaimKind.INTEREST, Longevity.DURABLE
    return None
