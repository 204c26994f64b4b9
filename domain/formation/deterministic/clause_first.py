"""The clause-first path: a first-person declarative predicate becomes a direct claim by rewriting it.

Whatever verb the user chose ("I'm putting together a greenhouse", "I keep my tax stuff in the hall
closet"), the predicate is rewritten to the third person with local rendering: the verb conjugated for
its aspect, the words after it copied up to where the clause's own statement ends and turned into the
user's voice, one claim per coordinated item (the items come from coordination: "I hike, read, and do
some woodworking", "I'm 34, single", "I have two kids and a dog"). A verb with nothing after it forms a
claim when it is an activity ("I knit") or what the user does these days ("I'm consulting"). A standing
negation is rewritten with its negation ("I'm not a morning person", "I never learned to swim"), and what
"only" excepts from it is affirmed ("I don't drink coffee, only green tea"). The kind comes from
the classifier in kinds. Predicates that say nothing lasting about the user form nothing: thoughts and
wishes ("I think ...", "I hope my mom ..."), narration of the moment ("I was reading about ...", "I'm
running late", "I didn't sleep well"), and talk about the conversation itself ("I have a question").
"""

from domain.candidates import ClaimKind, Derivation, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_words import (
    ACTIVITIES,
    CONNECTORS,
    FEELINGS,
    INFINITIVE_OK,
    ITEM_VERBS,
    LIFE_EVENT_DATES,
    MAX_ITEM_WORDS,
    MOMENT,
    NOT_ASSERTING,
    NOT_VERBS,
    ONE_OFF,
    STOP,
    TRANSIENT,
)
from domain.formation.deterministic.coordination import (
    ARTICLES,
    QUALIFIERS,
    Item,
    after_comma,
    another_object,
    continues_copula,
    copula_item,
    is_age,
    item_verb,
    items_of,
    momentary,
    own_subject,
    participle,
    past_form,
    told_of,
    verb_before_object,
)
from domain.formation.deterministic.heads import is_year, verb_head
from domain.formation.deterministic.inflection import IRREGULAR_PASTS
from domain.formation.deterministic.kinds import classify
from domain.formation.deterministic.parsing import (
    Parse,
    copula_rest,
    is_number,
    phrase_of,
)
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key, third_person

# After these verbs an item opening with an article is another object of the same verb.
POSSESSION = frozenset({"have", "own"})
# A complement that is only one of these points back at something or someone said before: "my kids love
# it", "I miss her", "we barely see each other".
POINTERS = frozenset({"it", "that", "this", "them", "one", "him", "her", "other"})
# What may follow a pointer without naming anything: "I've never had one before", "I'm the one".
_POINTER_TAILS = frozenset(
    {
        "before",
        "again",
        "too",
        "yet",
        "already",
        "now",
        "lately",
        "ever",
        "anymore",
        "the",
        "all",
        "of",
        "each",
    }
    # A preposition before the pointer points back as well: "I'm not into it", "I live with it".
    | {"into", "on", "about", "with", "at", "in", "for", "behind", "over", "to", "from"}
)
_POINTING = POINTERS | _POINTER_TAILS
_ESTIMATES = frozenset({"like", "about", "around", "roughly", "approximately", "maybe", "almost", "nearly"})
# Verbs whose object may be a whole statement of someone else's: "I know it's a thing".
_KNOWING = frozenset({"know", "understand", "see", "get", "feel", "hope"})
_KNOWN_SUBJECTS = frozenset({"it", "he", "she", "they", "we", "you", "there", "i", "im"})
# Verbs whose later items a claim rule's first claim leaves out: more objects owned, more complements.
# Verbs whose coordinated noun phrases are each an object of their own: "I like hiking and camping", "I use
# Excel and Tableau daily".
_OBJECT_LISTING = FEELINGS | {"use"}
_LISTED = POSSESSION | {"be"} | _OBJECT_LISTING
# An item opening with these is a negated statement of its own ("im 40 and never learned"), which the
# first item's verb does not carry.
_NEGATORS = frozenset({"never", "not"})
_MODALS = frozenset({"can", "could", "will", "would", "should", "might", "must", "may", "cannot"})
_OWN_VERB_PHRASE = _NEGATORS | _MODALS
# Adverbs before an item's own verb phrase: "... and still can't swim".
_LEADING_ADVERBS = frozenset({"still", "just", "also", "really", "even", "now"})
_SUBJECTS = frozenset(
    {"it", "he", "she", "they", "we", "you", "this", "there", "i", "im", "which", "that", "let"}
)
NAMESPACES: dict[ClaimKind, str] = {
    ClaimKind.ONGOING_PROJECT: "project",
    ClaimKind.GOAL: "goal",
    ClaimKind.ROLE: "role",
    ClaimKind.SKILL: "skill",
    ClaimKind.INTEREST: "interest",
    ClaimKind.HABIT: "habit",
    ClaimKind.CONSTRAINT: "constraint",
    ClaimKind.RECURRING_STATE: "state",
    ClaimKind.RELATIONSHIP: "relationship",
    ClaimKind.PREFERENCE: "preference",
    ClaimKind.RESOURCE: "resource",
    ClaimKind.PROJECT_FACT: "fact",
}


_OPENERS = frozenset(
    {"what", "can", "could", "how", "do", "does", "did", "should", "is", "are", "would", "will", "why"}
    | {"where", "when", "who", "which", "if", "suppose", "imagine", "whether", "pretend"}
)


def opens_question(tokens: list[Token]) -> bool:
    """Whether a clause opens as a question or a supposition, whose first-person words assert nothing."""
    if not tokens or tokens[0].lower not in _OPENERS:
        return False
    # "Don't ever suggest ..." is an instruction, not a question; "Did 8 years in the Army" has no subject
    # after its auxiliary, which a question would.
    return not (
        len(tokens) > 1
        and (tokens[0].lemma == "do" and tokens[1].lower in ("n't", "not") or is_number(tokens[1]))
    )


def _dated(words: list[Token]) -> bool:
    """Whether a past is dated as a life event: a month, a season, a year or "... ago"."""
    return any(t.lower in LIFE_EVENT_DATES or is_year(t) for t in words)


# "..., been there 5 yrs": how long at what was just named, not a statement of its own.
_THERE = frozenset({"there", "here", "doing"})
_EMPTY = STOPWORDS | {"always", "still", "ever", "never", "too", "though", "lol", "haha"}
# After a comma these open a question of the user's: "..., any good curriculum for 4th grade math?".
_QUESTION_OPENERS = frozenset({"any", "anyone", "anything", "what", "how", "which", "who", "why", "where"})
# Units of a span of time a count after a comma measures: "15 hours a week", "8 yrs".
_SPANS = frozenset({"hour", "hr", "hrs", "day", "week", "month", "year", "yr", "yrs", "decade", "minute"})


def _aside(part: list[Token]) -> bool:
    """A comma's afterthought about the moment or about what was just said, not more of the object."""
    return momentary(part, "be") or _points_back(part[1:] if part[0].lower.endswith("ing") else part)


def _afterthought(text: str, part: list[Token], lemma: str) -> bool:
    """A comma's fragment that states or asks something of its own, not more of the object: a count after
    a verb that does not list what it counts ("a tasting menu for the wedding, 40 guests"; a possession's
    and a copula's counts are theirs, but not a span of time: "a part time job, 15 hours a week"), a
    left-out "I've been" ("..., been there 5 yrs"), a past with its "I" left out ("..., got like $120 so
    far", "I have MS, diagnosed 2015"), a question ("..., any good curriculum for 4th grade math?") or
    function words alone ("..., always have")."""
    first = part[0].lower
    if first == "been" or first in _QUESTION_OPENERS or all(t.lower in _EMPTY for t in part):
        return True
    # A comma, not "and", before it: "I run the 800 and 1500" lists, "... and named it Doughy" coordinates.
    if not text[max(0, part[0].start - 3) : part[0].start].rstrip().endswith(","):
        return False
    if first in IRREGULAR_PASTS or first.endswith("ed") and verb_lemma(part[0]) != first:
        return True
    if len(part) < 2 or not is_number(part[0]):
        return False
    return not (lemma in POSSESSION or lemma == "be") or part[1].lemma in _SPANS


def _aged(item: Item) -> bool:
    return item.lemma == "be" and len(item.words) == 1 and is_age(item.words[0])


def _points_back(words: list[Token]) -> bool:
    """Whether a complement only points back at something said before: "it", "the one", "one before";
    "IT" written in capitals is the field ("I work in IT"), not a pointer."""
    lowers = {t.text if t.text == "IT" else t.lower for t in words}
    return not lowers.isdisjoint(POINTERS) and lowers <= _POINTING


def _excepted(item: Item, parse: Parse) -> Item:
    """The affirmative of a negated item, for what "only" excepts from it."""
    lemma = parse.lemma
    return Item(lemma, third_person(lemma), Aspect.SIMPLE, item.words[1:])


def _bare(parse: Parse, lemma: str, aspect: Aspect) -> bool:
    """Whether a verb with nothing after it states something lasting: an activity ("I knit", "I never
    cook") or what the user is doing these days ("I'm consulting", "I've been freelancing"); a verb of the
    moment ("I'm leaving", "I'm kidding", "I agree") does not."""
    verb = parse.verb.lower
    if (
        lemma in ("be", "have")
        or lemma in MOMENT
        or verb in TRANSIENT
        or lemma in TRANSIENT
        or lemma in ONE_OFF
    ):
        return False
    if aspect is Aspect.PROGRESSIVE:
        # "I'm reading" is this moment's activity; "I'm consulting" is what the user does these days.
        return lemma not in ACTIVITIES and verb.endswith("ing")
    return lemma in ACTIVITIES or aspect is Aspect.PERFECT and verb.endswith("ing")


def _considering(names: set[str], rest: list[Token]) -> bool:
    """ "I'm thinking about going back to school": a plan under consideration, not a passing thought."""
    return (
        "think" in names
        and len(rest) > 1
        and rest[0].lower in ("about", "of")
        and any(t.lower.endswith("ing") for t in rest[1:3])  # "thinking about maybe going back"
    )


def predicate_items(text: str, parse: Parse, stated: bool = False) -> list[Item]:
    """The claims one first-person predicate states, one per coordinated item with its own verb; stated says
    a claim rule already read its verb as one, so "like" is the verb, not a filler ("I like, um, ...")."""
    if parse.modal not in (None, "would"):
        return []
    head = verb_head(parse)
    if head is None:
        return []
    lemma, verb_phrase, aspect, rest = head
    # The lemmatizer's guess for a participle can miss ("thinking" -> "thinke", "hearing" -> "hearing"); the
    # token's own lemma and the participle without its ending are asked too.
    names = {lemma, parse.verb.lemma, parse.verb.lower.removesuffix("ing")} if lemma != "be" else {lemma}
    if not names.isdisjoint(NOT_VERBS) and not (stated and lemma == "like"):
        return []
    infinitive = bool(rest) and rest[0].lower == "to" and not names.isdisjoint(INFINITIVE_OK)
    if not names.isdisjoint(NOT_ASSERTING) and not infinitive and not _considering(names, rest):
        return []
    if lemma in _KNOWING and rest and rest[0].lower in _KNOWN_SUBJECTS:
        return []  # "I know it's a thing", "I know you're busy": what is known is another statement
    parts = items_of(text, rest)
    if parts and ("," in text[parse.verb.end : rest[0].start] or rest[0].lower in CONNECTORS):
        # "I garden, bake bread and do a bit of woodworking", "I read and then journal": the verb is an
        # item alone.
        parts = [[], *parts]
    # "I hate when people text me": after a verb of feeling, "when" opens its object, not a time.
    feeling = lemma in FEELINGS and bool(parts) and bool(parts[0]) and parts[0][0].lower == "when"
    if not parts or not parts[0] or parts[0][0].lower in STOP and parts[0][0].lower != "so" and not feeling:
        # Nothing after the verb, or only a reason or a time: "I knit", "I've been freelancing since".
        if not _bare(parse, lemma, aspect):
            return []
        parts = [[], *parts[1:]] if parts and (not parts[0] or parts[0][0].lower not in STOP) else [[]]
    if len(parts[0]) > MAX_ITEM_WORDS or momentary(parts[0], lemma):
        return []
    # "got diagnosed", "got married", "got laid off": "get" before a participle is a change of state, not
    # an errand.
    if (
        aspect is Aspect.PAST
        and lemma in ONE_OFF
        and not (lemma == "get" and parts[0] and participle(parts[0][0]))
        and not _dated(parts[0])
    ):
        return []
    found = [Item(lemma, verb_phrase, aspect, parts[0])]
    for previous, part in zip(parts, parts[1:], strict=False):
        if (
            lemma in POSSESSION
            and len(part) == 1
            and is_number(part[0])
            and found[-1].words
            and not is_number(found[-1].words[-1])
            and after_comma(text, previous, part)
        ):
            continue  # "I have a son, 12, and a daughter, 9": a number after what is had is its age
        if (
            lemma == "be"
            and len(part) == 1
            and is_age(part[0])
            and found[-1].words
            and after_comma(text, previous, part)
        ):
            # "I'm a waitress, 23, and ...": a number alone after what the user is is their age.
            found.append(Item("be", "is", Aspect.SIMPLE, part))
            continue
        lead = next((t.lower for t in part if t.lower not in _LEADING_ADVERBS), "")
        if part[0].lower in _SUBJECTS or lead in _OWN_VERB_PHRASE or told_of(part):
            # another subject's statement ("..., it has a few hundred stars"), a negated one, or one with a
            # modality of its own ("she has dementia and can't be left alone")
            break
        if part[0].lower in _ESTIMATES and len(part) > 1 and is_number(part[1]):
            # An estimate, not a verb: "I'd love to retire early, like 50", "a small church, about 80
            # people on a good Sunday".
            break
        if part[0].lower in ("now", "currently", "still") and len(part) > 1 and part[1].lower.endswith("ing"):
            # "Born in Glasgow, now living in Leeds": what the user does now, in its own tense.
            found.append(
                Item(verb_lemma(part[1]), f"is {part[0].lower} {part[1].lower}", Aspect.PROGRESSIVE, part[2:])
            )
            continue
        if (
            aspect is Aspect.PROGRESSIVE
            and part[0].lower.endswith("ing")
            and len(part) > 1
            and verb_lemma(part[0]) != part[0].lower
        ) or continues_copula(text, previous, part, found[-1]):
            # "Saving up for a house, hoping to buy by next summer": another thing the user is doing; so is a
            # gerund with its object after "I'm ..." and a comma, whatever the first complement held ("I'm a
            # PhD student in chemistry, writing up my thesis").
            found.append(Item(verb_lemma(part[0]), f"is {part[0].lower}", Aspect.PROGRESSIVE, part[1:]))
            continue
        if parse.negated and part[0].lower == "only":
            found.append(Item(lemma, verb_phrase, aspect, part))
            continue
        if (
            lemma != "be"
            and part[0].lower in QUALIFIERS
            and len(part) > 1
            and not part[1].lower.endswith("ing")
        ):
            # "I run every morning, usually 5k": another object of the same verb, narrowed.
            qualifier = part[0].lower
            qualified = (
                f"{qualifier} {verb_phrase}" if aspect is Aspect.SIMPLE else f"{verb_phrase} {qualifier}"
            )
            found.append(Item(lemma, qualified, aspect, part[1:]))
            continue
        if part[0].lower == "been" and len(part) > 1 and part[1].lower not in _THERE:
            # "Grew up in Houston, been in Seattle since 2020": a left-out "I've" opens an item of its own.
            gerund = part[1].lower.endswith("ing")
            been = Item(verb_lemma(part[1]), f"has been {part[1].lower}", Aspect.PERFECT, part[2:])
            found.append(been if gerund else Item("be", "has been", Aspect.PERFECT, part[1:]))
            continue
        opened = item_verb(part, aspect)
        complement = copula_item(part, found[0]) if lemma == "be" and found[-1].lemma == "be" else None
        if opened is not None:
            found.append(opened)
        elif lemma in POSSESSION and part[0].lower in ARTICLES:
            found.append(Item(lemma, verb_phrase, aspect, part))  # "I have two kids and a dog named Biscuit"
        elif lemma in _OBJECT_LISTING and another_object(part, found[0].words):
            found.append(Item(lemma, verb_phrase, aspect, part))  # "I like hiking and camping"
        elif complement is not None:
            found.append(complement)
        elif _aside(part) or _afterthought(text, part, lemma) or own_subject(part) or _aged(found[-1]):
            # "Moved to Berlin in 2019, still here", "Started a new job, loving it so far", "I eat at weird
            # hours and the canteen closes at 8"; an age takes nothing more ("..., 45, and a mum of two")
            break
        else:
            found[-1].words = [*found[-1].words, *part]
    if parse.negated:
        # Which coordinated items a negation reaches is not clear from the words, except one it excepts:
        # "I don't drink coffee, only green tea". A negation left with nothing after its verb once another
        # statement is cut off ("I don't drive, my wife does") is read as `heads.verb_head` reads "I don't swim".
        never = "never" in (t.lower for t in parse.tokens[: parse.verb_at])
        bare = not found[0].words and not (never and lemma in ACTIVITIES)
        found = ([] if bare else found[:1]) + [
            _excepted(item, parse) for item in found[1:] if item.words[:1] and item.words[0].lower == "only"
        ]
    return [
        item
        for item in found
        if (item.words or item.lemma not in ("be", "have")) and not _points_back(item.words)
    ]


def item_claim(text: str, item: Item, lead: str = "", holder: str = "User", kin: bool = True) -> Claim:
    """The direct claim of one item, filed by the kind classifier under a key made of its own words; kin
    says whether another holder than the user is a person close to them or a thing of theirs."""
    complement = phrase_of(text, item.words)
    if lead:
        complement = f"{complement} {lead[:1].lower()}{lead[1:]}".strip()
    words = [t.lemma for t in item.words if t.lemma not in STOPWORDS]
    kind, longevity = classify(item.lemma, item.aspect, frozenset(words), holder, kin, item.words)
    subject = conflict_key(NAMESPACES[kind], [item.lemma, *words])
    predicate = Predicate(item.lemma, item.verb_phrase, Aspect.BARE, complement)
    return Claim(kind, Derivation.DIRECT, longevity, Polarity.ASSERT, subject, predicate, holder)


def _coordinated(text: str, parse: Parse) -> bool:
    """Whether an item after the first may open on its own, as predicate_items reads one: right after a
    comma, a coordinator or "but", a verb of its own (an ITEM_VERBS word, or any verb before its object's
    determiner), an article after a possession verb, any complement after a copula ("I'm vegan and gluten
    free"), "only" after a negation ("I don't drink coffee, only green tea") or a qualifier ("..., usually
    5k"). Most complements have none, and this one pass is far cheaper than splitting them into items."""
    rest = parse.rest
    if (
        not rest
        or "," not in text[rest[0].start : rest[-1].end]
        and not any(t.lower in CONNECTORS or t.lower == "but" for t in rest)
    ):
        return False
    copula = copula_rest(parse)
    words = rest if copula is None else copula
    possession = parse.lemma in POSSESSION
    for index in range(1, len(words)):
        token, before = words[index], words[index - 1]
        # The cheap test first: only a token after a comma or a coordinator can open an item.
        if before.lower == "but":
            if past_form(token):
                return True
            continue
        if before.lower not in CONNECTORS and "," not in text[before.end : token.start]:
            continue
        if (
            copula is not None
            or parse.lemma in _OBJECT_LISTING
            or possession
            and token.lower in ARTICLES
            or parse.negated
            and token.lower == "only"
            or token.lower in QUALIFIERS
            or verb_lemma(token) in ITEM_VERBS
            or verb_before_object(words, index)
        ):
            return True
    return False


def clause_first_claims(
    text: str, parse: Parse, lead: str = "", coordinated_only: bool = False
) -> list[Claim]:
    """Direct claims rewritten from one first-person predicate; coordinated_only keeps only the items after
    the first, when a claim rule already formed the first."""
    if coordinated_only and not _coordinated(text, parse):
        return []  # the common case, checked without splitting the complement into items
    items = predicate_items(text, parse, stated=coordinated_only)
    if coordinated_only:
        items = [
            item
            for item in items[1:]
            if item.lemma != items[0].lemma
            or item.lemma in _LISTED
            or item.verb_phrase != items[0].verb_phrase
        ]
    return [item_claim(text, item, lead) for item in items]
