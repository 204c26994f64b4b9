"""Whether a rendered claim is a memory: one well-formed statement of something durable about the user.

Every claim the deterministic former reads passes this check before it becomes a candidate. A statement that
is not well formed is not formed (`ILL_FORMED`): a verb that is no verb ("User ands the kids ..."), a second
finite verb spliced in ("User is losing their job was hard."), a dangling end ("User is lucky to have places
like."), an object that is only a pronoun or a demonstrative whose referent the user's words do not give
exactly ("User named it Ned."), a possessive "'s" read as "is" ("User's grandma is recipe."), a "there" or a
bare number standing for what the words before name ("User has been there 4 yrs.", "User's son Danny has
three."), a possessive "her" or "his" nobody the user named stands for ("User turned the den into her
bedroom."). A statement that
is well formed but holds nothing durable gets the disposition the provider's distillation gives the same
clause: a reaction addressed to the other party or a momentary feeling or state is `TRANSIENT` ("User is so
proud of you.", "User is so excited to hear."), small talk and a vague statement is `NOT_MEMORY` ("User has no
idea.", "User does other things."). A moment told as news is `TRANSIENT` too: how a progressive goes ("User is
healing slowly."), where a change stands ("User is already walking without the cane.", "User can barely see
straight."), a past day after day or a trip ("User hiked every day.", "User drove up to Banff."), a sore body
part ("User's fingers are wrecked."), a state compared with before and nothing named to compare it with
("User's band sounds way fuller."), how a person is doing or what something is at this moment ("User feels
good.", "User's sister is good.", "User's garage is basically a honey factory rn."). Both are counted in the stage metrics and never committed. One thing a
"we" is, said of the user alone, is not well formed ("User is basically a team." of "we're basically a
team").

Where the referent is exact the pronoun is replaced by it, not dropped: "him" or "her" by the one relative of
that gender the clause or the user's clause before it names ("My dad has Parkinson's and I drive him to his
appointments"), "it" by the one noun phrase with a determiner before it there ("I keep a journal, I write in
it most nights"), the "it" of "speak it" by the one language named ("Any good Cantonese podcasts? my daughter
refuses to speak it"), a possessive "her" of the user's statement by the one person not male the user named
before ("My boss quit so I'm covering her job": "their boss's job"). A trailing word addressed to the
listener ("I love bowling man") or a trailing hedge ("actually", "tho") is taken off; a comma-joined tail that
fails the check is cut where the statement before it stands ("User grew up in Somerville, moving to Jersey
feels like betrayal.", "User wears hearing aids now, decades of sirens will do."), and so is a phrase of
place or time a possessive nobody is named for opens ("User is getting married next October at his family's
farm" becomes "User is getting married next October.").
"""

import re
from dataclasses import replace
from enum import StrEnum
from typing import Final

from domain.beliefs.wordnet import only_a_noun, only_a_verb
from domain.candidates import ClaimKind, Polarity
from domain.formation.deterministic.belongings import PEOPLE
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.topic_words import LANGUAGES, RELATIVES
from domain.formation.equivalence import NUMBER_WORDS
from domain.formation.language import STOPWORDS, lemma
from domain.formation.rendering import Aspect, Predicate


class Verdict(StrEnum):
    FORMED = "formed"
    ILL_FORMED = "ill_formed"
    TRANSIENT = "transient"
    NOT_MEMORY = "not_memory"


# Members read once: each read of a member through its enum class is a lookup (Python 3.11), and this check
# runs for every claim the former reads.
_FORMED: Final = Verdict.FORMED
_ILL_FORMED: Final = Verdict.ILL_FORMED
_TRANSIENT: Final = Verdict.TRANSIENT
_NOT_MEMORY: Final = Verdict.NOT_MEMORY
_ASSERT: Final = Polarity.ASSERT
_PREFERENCE: Final = ClaimKind.PREFERENCE


_TYPED: Final = re.compile(r"[A-Za-z]+")
_VERB_REACH: Final = 40
# A capital opening a word; a pattern that opens with a class is scanned for fast (_inside reads what is before).
_CAPITALIZED: Final = re.compile(r"[A-Z](?=[a-z])")
# Read on the lower-cased complement; the lookahead skips positions no pronoun opens at (patterns.py).
_PRONOUN_HINT: Final = re.compile(r"(?=[itho])\b(?:it|them|him|her|his|this|that|these|those|ones?)\b")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Verbs that say nothing without an object or a place: "User goes every saturday morning."
_PRO_VERBS: Final = _words("go do move meet come")
_TIME_WORDS: Final = _words(
    "every other each on in at last this next the a most twice once of now then today tonight tomorrow yesterday"
    " first too again also morning mornings night nights evening evenings afternoon afternoons day days week"
    " weeks weekend weekends month months year years spring summer fall winter monday tuesday wednesday"
    " thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays january"
    " february march april may june july august september october november december"
)
_FILLERS: Final = _words("actually literally really totally so just seriously honestly")
_FLOATING: Final = _words("all both")
# Pro-verbs whose object a time and a place do not stand for: "User meets ... at the library." (of "we meet").
_NEEDS_WHAT: Final = _words("meet do")
_SIGNED_UP: Final = re.compile(r"^up\b(?!.*\b(?:for|to|at)\b)")
_PLACE_OPENERS: Final = _words("at in")
# Words a verb slot never holds: a parse that took one for the verb renders "User ands", "User buts".
_NOT_VERBS: Final = _words(
    "and but or nor so yet in on at of for with to from by all both each sure gtg ttyl idk lol omg the a an"
    " not just also really too very because if than then there here yes"
)
_DANGLING: Final = _words(
    "like and or but the a an to of with for at in on from by about than as because so my their his our its"
    " very really just if when that into is are was were be some any every"
)
# Said to the listener or to hedge, at the end of a statement: taken off ("I love bowling man").
_TRAILING: Final = _words("man dude bro girl lol haha lmao tho though actually btw")
# Of those, the words no noun phrase ends on: taken off after a determiner's phrase too ("a keys player tho").
_HEDGING: Final = _TRAILING - _words("man dude bro girl")
_TRAILING_ENDS: Final = tuple(_TRAILING)
_DETERMINED: Final = _words("a an the their my this that his her our")
# Where a statement's tail may be cut (read from the last): a comma, "and", a question to the listener.
_BOUNDARIES: Final = re.compile(r",|\s+and\s+|\s+(?:can|could|will|would)\s+(?:you|u)\b")
_PRONOUNS: Final = _words("it them him her this that these those one ones")
_TENS: Final = _words("twenty thirty forty fifty sixty seventy eighty ninety hundred")
_DEMONSTRATIVES: Final = _words("this that these those")
_ADDRESSED: Final = _words("you your yours yourself u ya y'all ur")
_MALE: Final = _words(
    "son dad father brother husband boyfriend uncle grandpa grandfather nephew stepdad stepson boy grandson"
    " papa pop fiance"
)
_FEMALE: Final = _words(
    "daughter mom mum mother sister wife girlfriend aunt grandma grandmother niece stepmom stepdaughter girl"
    " granddaughter mama fiancee nan nana"
)
# A person the user names with "my" ("my roommate Priya", "their boss" once rendered), and which of them
# "her" may stand for.
_PERSON: Final = re.compile(r"\b(?:my|our|their)\s+([a-z-]+)(?:\s+((?-i:[A-Z][a-z]+)))?", re.IGNORECASE)
_PLURAL_KIN: Final = _words("kids children twins sons daughters parents boys girls grandkids grandchildren")
_PERSONS: Final = _MALE | _FEMALE | RELATIVES
_HERS: Final = (_FEMALE | RELATIVES | PEOPLE) - _MALE
_HIS: Final = (_MALE | RELATIVES | PEOPLE) - _FEMALE
_POSSESSIVES: Final = _words("her his")
_PEOPLE_HELD: Final = _PERSONS | PEOPLE
# Prepositions opening a phrase of place or time, which a statement stands without.
_ADJUNCT_OPENERS: Final = _words("at in on near from during")
# A phrase after a place's preposition is where, not what "it" names ("In my country we ...").
_PREPOSITIONS: Final = _words("in on at from to into near by inside outside")
_KIN_TAIL: Final = re.compile(r",\s*(?:my|our)\s+\w+\s*$", re.IGNORECASE)
# "Rosalind after my grandmother but we call her Rosie": the relative a name is for is not who "her" is.
_NAMED_FOR: Final = ("after", "like")
# Verbs whose "it" a language named before stands for.
_SPOKEN: Final = _words("speak speaks speaking spoke learn learning learned understand read write study")
_WITH_USER: Final = re.compile(r"\s+(?:and|&)\s+(?:i|me)\b", re.IGNORECASE)
_KIN: Final = re.compile(
    r"\b(?:my|our)\s+(?:(?:older|younger|little|big|baby|eldest|oldest|youngest)\s+)?(\w+)", re.IGNORECASE
)
# A noun phrase "it" can stand for: a determiner and one to three words up to a function word or a mark,
# with the word before it (a preposition there rules it out).
_PHRASE: Final = re.compile(
    r"(?:^|(?<=\s))(?:(\w+)\s+)?(my|our|a|an|the)\s+((?:[\w][\w-]*\s+){0,2}[\w][\w-]*)", re.IGNORECASE
)
# Words a noun phrase ends before: "a sourdough starter last week".
_PHRASE_ENDS: Final = _words("last next every each yesterday today tonight tomorrow")
# Feelings and states of the moment ("so excited", "is doing well", "is good"): what a friend reacts with.
_FEELINGS: Final = _words(
    "tired exhausted excited nervous relieved jealous sad happy glad thrilled proud sorry scared worried"
    " stressed anxious upset bored annoyed mad angry confused shocked surprised grateful thankful lucky"
    " blessed good well ok okay fine great alright awesome sure free ready busy hungry sleepy freaking"
    " stressing dreading panicking managing dying crying overwhelmed psyched pumped stoked bummed devastated"
    " heartbroken terrified honored fried swamped slammed wiped bad happier sadder calmer better worse"
)
_DEGREE: Final = _words(
    "so really super very pretty kinda just honestly totally already still also too little bit kind of sooo"
    " soo doing feeling not all much"
)
# Reactions whatever follows them: "so excited to start", "lucky to have places like".
_MOMENTARY_ANYWAY: Final = _words("excited sorry proud happy lucky glad thrilled")
_WEARY: Final = _words("tired sick bored")
_BEING_NOW: Final = _words("is are was were feels feel felt")
# "is so short staffed", "is so done": "so" and one or two words, and nothing it is so for or of.
_SO_WHAT: Final = re.compile(r"^is (?:\w+ )?so [\w-]+(?: [\w-]+)?$")
# A feeling word followed by one of these is a lasting trait or skill ("good at chess", "free of cancer").
_LASTING_AFTER: Final = _words("at with in into to")
_LEAVING: Final = re.compile(
    r"^(?:has to|have to|gotta|got to|needs to|need to|should|must)\s+(?:go|run|head|leave|get going|get back|jump)\b"
)
_SOON: Final = re.compile(
    r"\bin (?:a (?:few |couple )?(?:min|mins|minutes|sec|secs|seconds|hours?|bit)"
    r"|\d+ ?(?:min|mins|minutes|m|hrs?|hours?)|five|ten|fifteen|twenty|thirty|an hour|a sec)$"
)
# Every match of _SOON ends with one of these.
_SOON_ENDS: Final = (
    *("min", "mins", "minutes", "m", "sec", "secs", "seconds", "hour", "hours", "hr", "hrs", "bit"),
    *("five", "ten", "fifteen", "twenty", "thirty"),
)
# A relative or the user doing something right now, said as the reason to break off.
_OF_THE_MOMENT: Final = re.compile(
    r"\b(?:is|are) (?:\w+ )?(?:calling|crying|sleeping|napping|waiting|texting|yelling|screaming|barking"
    r"|asleep|awake|here|home|back)(?: again| now| rn)?$"
)
# A sentence opener written with its capital inside a statement: a second sentence glued on.
_GLUED: Final = re.compile(
    r"\s(?=[TASBNHPYWO])(?:Today|Then|Also|So|But|And|Now|Anyway|Honestly|Plus|Yesterday|Tomorrow|Tonight|Well|Oh)\s"
)
_MOMENT_ENDS: Final = (
    *("calling", "crying", "sleeping", "napping", "waiting", "texting", "yelling", "screaming", "barking"),
    *("asleep", "awake", "here", "home", "back", "again", "now", "rn"),
)
# How something is going now, said of a progressive: "is healing slowly", "is recovering nicely".
_HOW_IT_GOES: Final = (
    *("slowly", "quickly", "nicely", "well", "fine", "better", "worse", "badly", "gradually", "steadily"),
    *("okay", "ok", "great"),
)
_GOING: Final = re.compile(r"^is (?:\w+ )?\w+ing (?:" + "|".join(_HOW_IT_GOES) + ")$")
# Where a change stands at this moment: "is already walking without the cane", "can barely see straight".
_ALREADY_OPENS: Final = ("is already ", "can barely", "can hardly")
_ALREADY: Final = re.compile(r"^(?:(?:is|are) already \w+ing\b|can (?:barely|hardly)\b)")
_OTHERS_ALREADY: Final = ("is already ", "are already ")
_IRREGULAR_PAST: Final = _words("went drove rode swam ran ate slept got saw took made flew sat woke")
# Practice or experience with nothing it is of: "User has had forty years of practice.".
_PRACTICE: Final = re.compile(r" years of (?:practice|experience)$")
_TRAVELLED: Final = _words("drove flew hiked headed traveled travelled")
_TRIP: Final = re.compile(r"^\w+ (?:(?:up|down|out|over|back) )?to [a-z]+(?: [a-z]+)?$")
_EVERY_DAY: Final = ("every day", "every night", "every morning", "each day")
_BODY: Final = _words(
    "finger fingers hand hands arm arms leg legs knee knees foot feet back neck shoulder shoulders eyes head"
    " body muscles calves forearm forearms wrist wrists ankle ankles thighs quads hamstrings hips glutes abs"
    " throat stomach lungs"
)
_SORE: Final = _words("wrecked destroyed sore dead shot toast aching numb swollen fried killing")
# Said of the moment after a state: "User's forearms are dead rn.".
_NOW_WORDS: Final = _words("rn now today tonight currently")
# A reply a parse took for a noun after "a": "yes sir" of "yes sir. may is good for crappie" ("User is a yes
# sir.").
# One day and nothing else after a verb that is not "be": what happens that day is not said.
_DATED_ONLY: Final = re.compile(
    r"^on (?:the )?(?:\d{1,2}(?:st|nd|rd|th)|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$"
)
# A clock time the parse took for the thing had: "User had a 9am." (a class at nine that day).
_CLOCK_SLOT: Final = re.compile(r"^(?:a|an|the) \d{1,2}(?::\d\d)? ?(?:am|pm)$")
# A self-correction after a comma: what comes after it takes back what the statement says.
_CORRECTED: Final = re.compile(r", (?:well|i mean|or rather|or like)(?:,|$)")
# A state compared with before, no "than" naming what with: "sounds way fuller now" ("much taller than
# their brother" does not end on the comparative).
_LINKING: Final = _words("be sound look seem feel get")
_COMPARED: Final = re.compile(
    r"^(?:\w+ )?(?:way|much|so much|a lot|even|far|lots|loads|heaps) \w+er(?: now| these days| lately)?$"
)
# Every match of _COMPARED ends with one of these.
_COMPARED_ENDS: Final = ("er", " now", " days", " lately")
# "we're basically a team": one thing a group is, which the user alone is not.
_ONE_THING: Final = re.compile(r"^(?:\w+ )?an? ")
_REPLIES: Final = _words("yes yeah yep yup nope ok okay lol haha thanks thx sure hey hi bye")
# Of those, the replies no noun is made of ("a yes man", "an okay cook" are): "User is a thanks man.".
_ONLY_REPLIES: Final = _words("thanks thx lol haha hey hi bye yup nope")
# "there is", "there are": "there" opens a sentence of its own, no place.
_EXISTENTIAL: Final = _words("is are was were 's")
# Verbs whose bare number is a measure, not a number of things: "turns 30", "weighs 180", "bowled 246".
_MEASURES: Final = _words("be turn weigh score bowl average shoot bench squat deadlift lift cost run")
_BEFORE_NUMBER: Final = _words("all like about around only just over nearly almost")
# A number followed by these still counts something the statement names ("two of them" is the pronoun
# rule's; "one of the bridesmaids").
_COUNTED_AFTER: Final = _words("of more")
# "one" is the pronoun rule's ("a snowy one"); "once" and "twice" are how often.
_NOT_COUNTS: Final = _words("one once twice")
# Every match of _SMALL_TALK or _VAGUE_OBJECTS holds one of these words.
_VAGUE_HINTS: Final = _words("much talk ttyl ya gtg bye things stuff some something")
_SMALL_TALK: Final = re.compile(r"\b(?:nothing much|talk soon|talk later|ttyl|see ya|gtg|bye)\b")
_VOCATIVES: Final = _words("man dude bro girl guy")
_CALLING: Final = re.compile(
    r"\b(?:yeah|yes|yep|thanks|ok|okay|lol|hey|omg|haha|sure|no)[\s,]+(?:man|dude|bro|girl|guy)\b",
    re.IGNORECASE,
)
_OBLIGED: Final = ("has to", "have to", "gotta", "got to", "needs to", "need to", "should", "must")
_NOW_ENDS: Final = ("today", "tonight", "tomorrow", "now", "morning", "afternoon", "evening")
_NOW: Final = re.compile(r"\b(?:today|tonight|tomorrow|right now|this (?:morning|afternoon|evening))$")
# What something of the user's is at this moment: "User's garage is basically a honey factory rn." (the
# user's own "doing a big job in Tacoma rn" is the work they do these months).
_MOMENT_NOW_ENDS: Final = ("now", "rn", "atm", "moment", "point")
_MOMENT_NOW: Final = re.compile(r"\b(?:right now|rn|atm|at the moment|at this point)$")
_VAGUE_OBJECTS: Final = re.compile(
    r"^(?:(?:other|some|sad|random)\s+)?(?:things|stuff|some|something|nothing much)$"
)
_VAGUE: Final = frozenset({"has no idea", "knows right", "knows", "thinks so", "guesses so", "hopes so"})
# A finite verb that opens a clause of its own inside a statement, unless a subordinator or a coordinator
# comes first ("since they were 12", "and it's").
_FINITE: Final = _words("is are was were am 's 're 've 'd 'll feels seems")
# A modal is finite after a comma: "hearing aids now, decades of sirens will do".
_MODALS: Final = _words("will would can could should might must won't can't")
# Joining words that, right after a comma, open a sentence of their own: ", and cold air is the worst trigger".
_CLAUSE_JOINS: Final = _words("and but so")
# A noun phrase after a comma that may be the subject of a sentence of its own, and how far its verb may be.
_SUBJECT_OPENERS: Final = _words("the my our his her their half most all some both everyone everybody nobody")
_SUBJECT_REACH: Final = 8
# Adverbs between a joining word and the sentence it opens: "and now they're obsessed".
_BETWEEN: Final = _words("now then honestly also still yeah so")
_PRONOUN_FINITE: Final = re.compile(r"^(?:she|he|it|they|we|i)(?:'s|’s|'re|’re|'ve|’ve|'ll|’ll|'d|’d)$")
_OPENING_ADVERBS: Final = _words(
    "often usually always never sometimes still also just really no likely even rarely generally mostly only"
    " now already finally actually"
)
_SUBJECT_PRONOUNS: Final = _words("she he it i")
_OPENS_CLAUSE: Final = _FINITE | _SUBJECT_PRONOUNS | _MODALS
_JOINS: Final = _words(
    "and but or so because since while when where who which that if as until till before after than though"
    " although whenever what how why"
)


# The verdict, the claim as it would be formed (its pronouns resolved, its tail cut) and its rendered
# statement: a plain tuple, whose construction costs a fraction of a NamedTuple's.
Judged = tuple[Verdict, Claim, str]


def judge(claim: Claim, previous: str, prefix: str) -> Judged:
    """The claim's verdict, the claim as it would be formed and its statement. A pronoun points back into
    the user's own words: prefix, its clause up to the claim, first, then previous, the user's clause
    before."""
    predicate = claim.predicate
    if (
        _names_a_thing(predicate.verb, prefix)
        or predicate.verb == "be"
        and _possessive_read(predicate, prefix)
    ):
        return (_ILL_FORMED, claim, "")
    if predicate.verb == "be" and _called(predicate.complement, prefix):
        return (_NOT_MEMORY, claim, "")
    if claim.predicate.verb in _FLOATING:
        claim = _floated(claim)
    judged = _judged(claim, previous, prefix)
    if judged[0] is _FORMED:
        return judged
    complement = claim.predicate.complement
    # A tail that spoils a statement standing without it is cut: "..., their third one", "... and my
    # granddaughter set this up for me", "... on friday can u quiz me".
    for boundary in reversed(list(_BOUNDARIES.finditer(complement))):
        head = complement[: boundary.start()].rstrip()
        cut = _judged(replace(claim, predicate=replace(claim.predicate, complement=head)), previous, prefix)
        if cut[0] is _FORMED or (judged[0] is _ILL_FORMED and cut[0] is not _ILL_FORMED):
            return cut
    return judged


def _names_a_thing(verb: str, prefix: str) -> bool:
    """ "backend roles mostly, Go and Python": a capitalized word inside a sentence read as the verb is a
    name ("User goes Python.")."""
    # The verb ends the prefix: its last few words are enough, and most prefixes hold no capital inside.
    start = max(0, len(prefix) - _VERB_REACH)
    if not any(_inside(prefix, start, m.start()) for m in _CAPITALIZED.finditer(prefix, start)):
        return False
    for typed in reversed(_TYPED.findall(prefix, start)):
        if lemma(typed.lower()) != verb:
            continue
        if not typed[:1].isupper() or not typed[1:].islower():  # "I", "TA" (an acronym) are no names
            return False
        before = prefix[: prefix.rfind(typed)].rstrip()
        return bool(before) and before[-1] not in '.!?:;"“(-'
    return False


def _inside(prefix: str, start: int, at: int) -> bool:
    """Whether the capitalized word at at follows a space after a word that ends no sentence, from start."""
    if at <= start or not prefix[at - 1].isspace():
        return False
    before = prefix[start:at].rstrip()
    return bool(before) and before[-1] not in ".!?"


def _possessive_read(predicate: Predicate, prefix: str) -> bool:
    """ "my grandma's recipe": a typed "'s" before one bare noun is a possessive, not "is" ("User's grandma is
    recipe."); "my fav subject is chemistry" typed its "is"."""
    complement = predicate.complement
    return (
        prefix.endswith(("'s ", "’s "))
        and " " not in complement
        and complement.islower()
        and only_a_noun(complement.strip(",.!?"))
    )


def _called(complement: str, prefix: str) -> bool:
    """ "yeah man, last day was friday": the listener called "man" is not what the user is ("User is a
    man.")."""
    called = complement.lower().removeprefix("a ").strip(" ,.!")
    return called in _VOCATIVES and _CALLING.search(prefix) is not None


def _floated(claim: Claim) -> Claim:
    """ "we all hate the closing shifts": a quantifier after the subject is no verb ("User alls hate ..."); the
    word after it is."""
    predicate = claim.predicate
    if not predicate.complement:
        return claim
    verb, _, rest = predicate.complement.partition(" ")
    if not verb.isalpha() or verb.lower() in STOPWORDS:
        return claim
    floated = Predicate(lemma(verb.lower()), verb, Aspect.SIMPLE, rest)
    return replace(claim, predicate=floated)


def _judged(claim: Claim, previous: str, prefix: str) -> Judged:
    resolved = _resolved(claim, previous, prefix)
    if resolved is None:
        return (_ILL_FORMED, claim, "")
    statement = resolved.statement()
    return (_verdict(statement, resolved), resolved, statement)


def _resolved(claim: Claim, previous: str, prefix: str) -> Claim | None:
    """The claim with a trailing word to the listener taken off and each object pronoun replaced by its
    exact referent; None when a pronoun's referent is not exact."""
    complement = claim.predicate.complement
    lowered = complement.lower()
    # Most claims: nothing to resolve or take off. Both tests are looser than the word-by-word reading below
    # ("human" ends as "man" does), never stricter.
    if not lowered.rstrip(",.!?").endswith(_TRAILING_ENDS) and _PRONOUN_HINT.search(lowered) is None:
        return claim
    words = complement.split()
    # "is a lovely young man" is no word to the listener: a phrase opened by a determiner keeps its noun.
    determined = bool(words) and words[0].lower() in _DETERMINED
    while len(words) > 1 and (
        (last := words[-1].lower().strip(",.!?")) in _HEDGING
        or last in _TRAILING
        and not determined
        and words[-2].lower() not in _DETERMINED
    ):
        words.pop()
    out: list[str] = []
    for at, word in enumerate(words):
        typed = word.strip(",.!?")
        bare = typed.lower()
        following = words[at + 1].lower().strip(",.!?") if at + 1 < len(words) else ""
        if (
            bare in _POSSESSIVES
            and claim.holder == "User"
            and following
            and (bare == "his" or not _is_object(bare, following, words, at))
        ):
            if _PERSON.search(" ".join(out)) is not None:
                out.append(word)  # the statement names whose: "drives their mom to her appointments"
                continue
            # "my boss quit so I'm covering her job": the one person the user named before, not the user.
            owner = _owner(bare, prefix, previous)
            if owner is not None or _named(out):
                out.append(word if owner is None else f"{owner}'s")
                continue
            # Nobody the user named: a phrase of place or time it opens is left off ("getting married next
            # October at his family's farm"), else the statement is not formed ("turned the den into her
            # bedroom").
            opened = max((j for j, w in enumerate(out) if j and w.lower() in _ADJUNCT_OPENERS), default=0)
            if not opened:
                return None
            out = out[:opened]
            break
        # "IT" is a trade, not a pronoun.
        if bare not in _PRONOUNS or typed.isupper() or not _is_object(bare, following, words, at):
            out.append(word)
            continue
        said = " ".join(words[:at])
        if bare not in ("one", "ones") and _referent(bare, said) is not None:
            out.append(word)  # the statement names it before: "bought a Corolla and drives it daily"
            continue
        referent = _referent(bare, f"{prefix} {said}")
        if referent is None and not _mentions(bare, f"{prefix} {said}"):
            referent = _referent(bare, previous)
            if referent is None and bare == "it" and not said:
                referent = _same_verb_object(claim.predicate.verb, f"{previous} {prefix}")
        if referent is None and bare == "it" and at and words[at - 1].lower() in _SPOKEN:
            referent = _language(f"{previous} {prefix} {said}")
        if referent is None:
            return None
        out.append(referent + word[len(bare) :])
    rewritten = " ".join(out)
    if rewritten == complement:
        return claim
    return replace(claim, predicate=replace(claim.predicate, complement=rewritten))


def _owner(possessive: str, prefix: str, previous: str) -> str | None:
    """The one person of the possessive's gender (not male for "her", not female for "his") the user named
    with "my" ("their boss", "their roommate Priya"): in the clause, else in the clause before; None when
    there is not exactly one."""
    whose = _HERS if possessive == "her" else _HIS
    for window in (prefix, previous):
        found = {
            (m.group(1).lower(), m.group(2) or "")
            for m in _PERSON.finditer(window)
            if m.group(1).lower() in whose
        }
        if found:
            if len(found) != 1:
                return None
            noun, name = found.pop()
            return f"their {noun} {name}".rstrip()
    return None


def _named(said: list[str]) -> bool:
    """Whether the statement names someone before a possessive: a capitalized word that is no month or day
    ("engaged to Sam and his family")."""
    return any(
        word[:1].isupper() and word[1:2].islower() and word.lower().strip(",.") not in _TIME_WORDS
        for word in said
    )


def _is_object(word: str, following: str, words: list[str], at: int) -> bool:
    if word == "her":
        # "her job" is a possessive; "for her", "call her Rosie", "with her." are objects.
        return not following or following in STOPWORDS or words[at + 1][:1].isupper()
    if word in _DEMONSTRATIVES:
        # "this May" names a month: a determiner before a capitalized word.
        return not following or following in STOPWORDS and not words[at + 1][:1].isupper()
    if word in ("one", "ones"):
        # "a snowy one", "the 2am one": a noun left out; "one teenage son", "one of the bridesmaids" are not.
        # "eighty one" is a number.
        after_number = at > 0 and (words[at - 1].isdigit() or words[at - 1].lower() in _TENS)
        return at > 0 and not after_number and following != "of" and (not following or following in STOPWORDS)
    return True


def _referent(pronoun: str, window: str) -> str | None:
    """The one phrase a pronoun stands for in the user's words before it, or None when there is not exactly
    one."""
    if pronoun in ("him", "her", "them"):
        kin = _MALE if pronoun == "him" else _FEMALE if pronoun == "her" else _PLURAL_KIN
        # "My brother and I take turns driving him": a relative the user acts with is not the one acted on.
        found = {
            m.group(1).lower()
            for m in _KIN.finditer(window)
            if m.group(1).lower() in kin
            and not _WITH_USER.match(window, m.end())
            and not window[: m.start()].rstrip().lower().endswith(_NAMED_FOR)
        }
        return f"my {found.pop()}" if len(found) == 1 else None
    if pronoun in ("one", "ones"):
        # "a new one": the noun of the one phrase before, its names and determiner left out ("My guide dog
        # Rosie" -> "guide dog").
        nouns = {
            " ".join(w for w in phrase.split()[1:] if not w[:1].isupper()) for phrase in _phrases(window)
        }
        nouns.discard("")
        return nouns.pop() if len(nouns) == 1 else None
    if pronoun == "it":
        phrases = _phrases(window)
        if len(phrases) == 1:
            return phrases.pop()
    return None


def _same_verb_object(verb: str, window: str) -> str | None:
    """ "we dont celebrate christmas on 25 december, we celebrate it 7 january": the object the same verb
    took before, in the clause or the clause before."""
    same = re.search(rf"\b{re.escape(verb)}\w*\s+(?!it\b)([a-z][\w-]*)\b", window, re.IGNORECASE)
    if same is None or same.group(1).lower() in STOPWORDS or only_a_verb(same.group(1).lower()):
        return None
    return same.group(1)


def _language(window: str) -> str | None:
    """ "Any good Cantonese podcasts for kids? my daughter refuses to speak it": the one language named."""
    named = {typed.lower() for typed in _TYPED.findall(window) if typed.lower() in LANGUAGES}
    return named.pop().capitalize() if len(named) == 1 else None


def _mentions(pronoun: str, window: str) -> bool:
    """Whether the clause itself offers a referent of the pronoun's kind, so the clause before is not read."""
    if pronoun in ("him", "her", "them"):
        return _KIN.search(window) is not None
    return bool(_phrases(window))


def _phrases(window: str) -> set[str]:
    # A phrase after a place's preposition is where, not what "it" names ("In my country we ...").
    found = {
        _phrase(m.group(2), m.group(3))
        for m in _PHRASE.finditer(window)
        if (m.group(1) or "").lower() not in _PREPOSITIONS
    }
    found.discard(None)
    return {phrase for phrase in found if phrase is not None}


def _phrase(determiner: str, words: str) -> str | None:
    """ "a journal" as "the journal", "my english" as it is; cut at the first function word; None when no
    content word is left."""
    kept: list[str] = []
    for word in words.split():
        lower = word.lower()
        if lower in STOPWORDS or lower in _PRONOUNS or lower in _JOINS or lower in _PHRASE_ENDS:
            break
        if only_a_verb(lower):
            break
        kept.append(word)
    # "it" stands for no person: "My girlfriend got me into it" names no referent.
    if not kept or any(word.lower() in _PERSONS for word in kept):
        return None
    lead = "the" if determiner.lower() in ("a", "an") else determiner.lower()
    return f"{lead} {' '.join(kept)}"


def _verdict(statement: str, claim: Claim) -> Verdict:
    predicate = claim.predicate
    verb = predicate.verb
    if verb in _NOT_VERBS or predicate.surface.lower() in _NOT_VERBS:
        return _ILL_FORMED
    if verb == "sign" and _SIGNED_UP.match(predicate.complement):
        return _ILL_FORMED  # "User signed up with their brother Omar.": signed up for nothing named
    if verb in _PRO_VERBS or verb == "like":
        complement = predicate.complement.lower().split()
        # "User goes every saturday morning.", "User moved in september.": no object, only a time.
        timed_only = complement and all(w.strip(",.") in _TIME_WORDS for w in complement)
        if (
            claim.holder == "User"
            and verb in _PRO_VERBS
            and (timed_only or verb in _NEEDS_WHAT and _placed(complement))
        ):
            return _ILL_FORMED
        if verb == "like" and complement and complement[0] in _FILLERS:
            return _ILL_FORMED  # "like actually allergic": "like" as a filler, not a verb
    if "," in predicate.complement and _KIN_TAIL.search(predicate.complement):
        return _ILL_FORMED  # "User drove up to Banff, their wife." of "We drove up to Banff, my wife and I"
    if _GLUED.search(statement):
        return _ILL_FORMED  # "... with it today Today they want ...": two sentences glued into one
    body = statement.rstrip(".!?").lower()
    words = body.replace(",", " , ").replace(";", " ; ").split()
    if not words or words[-1] in _DANGLING or words[-1] in (",", ";") or _spliced(body, words):
        return _ILL_FORMED
    if words[-1] == "here" or verb == "be" and _reply_read(predicate.complement):
        return _ILL_FORMED  # "User starts at 10 here.": a place only the moment of speaking gives
    if "there" in words and claim.holder == "User" and _there(predicate.complement):
        return _ILL_FORMED  # "User has been there 4 yrs.": a place only the words before give
    if verb not in _MEASURES and _counted_only(predicate.complement):
        return _ILL_FORMED  # "User's son Danny has three.": a number of things not named
    told = predicate.complement
    if (
        told[:3] in ("on ", "On ")
        and verb != "be"
        and claim.holder == "User"
        and _DATED_ONLY.match(told.lower())
    ):
        return _ILL_FORMED  # "User closes on the 30th.": a day, and nothing closed on it
    if ", " in body and _CORRECTED.search(body):
        return _ILL_FORMED  # "User has started surfing, well, falling off a board ...": cut where it stands
    # To an agent "you" is the agent a wish is for ("in anything you write"); elsewhere it is the listener a
    # reaction is for ("so proud of you").
    if not _ADDRESSED.isdisjoint(words) and claim.kind is not _PREFERENCE:
        return _TRANSIENT
    if claim.polarity is _ASSERT and body.endswith(_MOMENT_ENDS) and _OF_THE_MOMENT.search(body):
        return _TRANSIENT  # "User's mom is calling.", "User's baby is crying again."
    if verb in _LINKING and claim.polarity is _ASSERT:
        told = predicate.complement.lower()
        if told.endswith(_COMPARED_ENDS) and _COMPARED.match(told):
            return _TRANSIENT  # "User's band sounds way fuller.": a change told as news
        if claim.collective and verb == "be" and _ONE_THING.match(told):
            return _ILL_FORMED  # "User is basically a team." of "we're basically a team"
    if claim.holder != "User" or claim.polarity is not _ASSERT or words[0] != "user":
        return (
            _TRANSIENT
            if _sore(claim) or _others_already(claim, body) or _others_moment(claim, body)
            else _FORMED
        )
    rest = body[len("user ") :]
    if words[1] in _TRAVELLED and _TRIP.match(rest):
        return _TRANSIENT  # "User drove up to Banff.": a trip told, not where the user lives or goes
    if body.endswith(_EVERY_DAY) and _past(words[1]):
        return _TRANSIENT  # "User hiked every day." of a trip: a habit of a time gone by, told as news
    if (
        _momentary(rest, words[1:])
        or verb == "have"
        and body.endswith("m")
        and _CLOCK_SLOT.match(rest.partition(" ")[2])
    ):
        return _TRANSIENT
    if (
        rest in _VAGUE
        or " years of " in rest
        and _PRACTICE.search(rest)
        or not _VAGUE_HINTS.isdisjoint(words)
        and (_SMALL_TALK.search(rest) or _VAGUE_OBJECTS.match(rest.partition(" ")[2]))
    ):
        return _NOT_MEMORY
    return _FORMED


def _others_moment(claim: Claim, body: str) -> bool:
    """ "User's sister is good.", "User's garage is basically a honey factory rn.": how someone else is, or
    what something is this moment, as of the user."""
    if claim.polarity is not _ASSERT or not body.startswith("user's "):
        return False
    told = body[len(claim.holder) + 1 :]
    if told.endswith(_MOMENT_NOW_ENDS) and _MOMENT_NOW.search(told) is not None:
        return True
    # How a person is doing; "User's english is not so good." is how well it is known.
    return claim.holder.rpartition(" ")[2].lower() in _PEOPLE_HELD and _feeling(told.split())


def _others_already(claim: Claim, body: str) -> bool:
    """ "User's mom is already planning the menu.": someone else's doing of the moment, as for the user."""
    if claim.polarity is not _ASSERT or claim.holder == "User":
        return False
    told = body[len(claim.holder) + 1 :]
    return told.startswith(_OTHERS_ALREADY) and _ALREADY.match(told) is not None


def _past(verb: str) -> bool:
    return verb.endswith("ed") and verb != "used" or verb in _IRREGULAR_PAST


def _there(complement: str) -> bool:
    """ "has been there 4 yrs", "moved out there": "there" as the place, not "there is"."""
    told = complement.lower().replace(",", " ").split()
    if not told:
        return False
    if told[-1].strip(".!?") == "there":
        return True
    return told[0] == "there" and (len(told) == 1 or told[1] not in _EXISTENTIAL)


def _counted_only(complement: str) -> bool:
    """ "has three", "knows all 100 by heart": a number opens the object and no noun follows it."""
    told = complement.lower().replace(",", " ").split()
    while told and told[0] in _BEFORE_NUMBER:
        told.pop(0)
    if not told:
        return False
    number = told[0].strip(".!?")
    if not (number.isdigit() or number in NUMBER_WORDS) or number in _NOT_COUNTS:
        return False
    following = told[1].strip(".!?") if len(told) > 1 else ""
    return not following or following in STOPWORDS and following not in _COUNTED_AFTER


def _reply_read(complement: str) -> bool:
    """ "User is a yes sir.": a reply word after an article the parse read as a noun."""
    article, _, rest = complement.lower().partition(" ")
    reply, _, after = rest.partition(" ")
    # "a yes man" is a kind of person: only a reply alone or to someone addressed as sir is no noun.
    reply = reply.strip(",.!")
    return (
        article in ("a", "an")
        and reply in _REPLIES
        and (after in ("", "sir", "ma'am", "maam") or reply in _ONLY_REPLIES)
    )


def _sore(claim: Claim) -> bool:
    """ "User's fingers are wrecked.": a part of the body worn out by the day."""
    predicate = claim.predicate
    if predicate.verb != "be" or claim.holder.rpartition(" ")[2].lower() not in _BODY:
        return False
    words = predicate.complement.lower().replace(",", " ").split()
    while words and words[-1].strip(".!") in _NOW_WORDS:
        words.pop()
    return bool(words) and words[-1].strip(".!") in _SORE


def _placed(complement: list[str]) -> bool:
    """ "the first tuesday of every month at the library": a time and a place, and nothing met or done."""
    for at, word in enumerate(complement):
        if word.strip(",.") not in _TIME_WORDS:
            before = at - 1
            while before >= 0 and complement[before] in _DETERMINED:
                before -= 1
            return before >= 0 and complement[before] in _PLACE_OPENERS
    return False


def _momentary(rest: str, words: list[str]) -> bool:
    """ "is so excited to hear", "is doing well", "has to go", "has a standup in five"."""
    if rest.startswith(_OBLIGED) and _LEAVING.match(rest):
        return True
    if (
        rest.endswith(_SOON_ENDS)
        and " in " in rest
        and _SOON.search(rest)
        or rest.endswith(_NOW_ENDS)
        and _NOW.search(rest)
    ):
        return True
    if (
        rest.endswith(_HOW_IT_GOES)
        and _GOING.match(rest)
        or rest.startswith(_ALREADY_OPENS)
        and _ALREADY.match(rest)
    ):
        return True
    if " so " in rest and _SO_WHAT.match(rest) and all(w not in STOPWORDS for w in words[2:]):
        return True  # "is so short staffed": an exclamation of how it is now
    if " a little " in rest or " a bit " in rest:
        words = rest.replace(" a little ", " little ").replace(" a bit ", " bit ").split()
    return _feeling(words)


def _feeling(words: list[str]) -> bool:
    """ "is so excited to hear", "feels good", "are doing well": a feeling or how one is doing, now."""
    # "has been anxious since ..." lasts: only the present or past of "be" and "feel" is of the moment.
    if not words or words[0] not in _BEING_NOW:
        return False
    for at, word in enumerate(words[1:], start=1):
        if word in _FEELINGS and word not in _DEGREE:
            following = words[at + 1] if at + 1 < len(words) else ""
            if word in _WEARY and following == "of":
                return False  # "so tired of their commute": a lasting complaint
            return following not in _LASTING_AFTER or word in _MOMENTARY_ANYWAY
        if word not in _DEGREE:
            return False
    return False


def _opens_sentence(words: list[str], at: int) -> bool:
    """Whether the word at at follows "and", "but" or "so", alone or with an adverb between."""
    before = words[at - 1]
    return before in _CLAUSE_JOINS or before in _BETWEEN and words[at - 2] in _CLAUSE_JOINS


def _plain_verb(word: str, before: str) -> bool:
    """ "half the riders on their route speak it": a word only ever a verb, not a participle, not after "to"."""
    return before != "to" and not word.endswith(("ing", "ed")) and word.isalpha() and only_a_verb(word)


def _spliced(body: str, words: list[str]) -> bool:
    """Whether a finite verb after the statement's own opens a clause no joining word introduces: "User is
    losing their job was hard", "User grew up in Somerville, moving to Jersey feels like betrayal"."""
    if len(words) < 3:
        return False
    # Most statements: no second finite verb to look for. The apostrophes of the words after the first two
    # are counted on the statement, not word by word.
    if (
        _OPENS_CLAUSE.isdisjoint(words[2:])
        and "," not in words
        and body.count("'") == words[0].count("'") + words[1].count("'")
    ):
        return False
    # The statement's own finite verb: "User is ...", "User no longer is ...", "User's sister Hannah is ...".
    # A statement opened by an adverb ("User often feels", "User no longer is") has its finite verb still to
    # come; "User grew up ..." has had it.
    own = 1 if words[0] == "user's" or len(words) > 1 and words[1] in _OPENING_ADVERBS else 0
    joined = False
    comma = -1
    for at in range(2, len(words)):
        word = words[at]
        if word in _CLAUSE_JOINS and words[at - 1] == ",":
            comma = at
        elif word in _JOINS:
            joined = True
        elif word == ",":
            joined = False
            comma = at
        elif joined and _PRONOUN_FINITE.match(word) and _opens_sentence(words, at):
            return True  # "got them into fly fishing and now they're obsessed": a second statement
        elif joined:
            continue
        # "the six hens they're getting": a pronoun's clause after a noun is a relative clause; after a comma
        # it is a sentence of its own.
        elif (
            comma >= 0
            and words[comma + 1] in _SUBJECT_OPENERS
            and comma + 2 < at <= comma + _SUBJECT_REACH
            and _plain_verb(word, words[at - 1])
        ):
            return True  # the statement's own verb is before the comma
        elif (
            word in _FINITE
            or word in _MODALS
            and comma >= 0
            or words[at - 1] == ","
            and _PRONOUN_FINITE.match(word)
            or word in _SUBJECT_PRONOUNS
            and at + 1 < len(words)
            and words[at + 1] in _FINITE
        ):
            if own == 0:
                return True
            own -= 1
    return False
