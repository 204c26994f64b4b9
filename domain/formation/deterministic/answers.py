"""Short answers to the agent's own question: the answer borrows the question's predicate.

"How long have you lived in Chicago?" answered "pretty much all my life" forms "User has lived in Chicago
pretty much all their life."; "Which languages do you speak?" answered "English and Tagalog" forms "User
speaks English and Tagalog.". Only the answer is the user's assertion, so the claim cites the answer's clause
alone; the question supplies wording, never a fact. "Where are you based?" answered "Halifax" forms "User is
based in Halifax."; "Any pets?" answered "one spoiled parrot" forms "User has one spoiled parrot."; a "yes" to
"Are you vegetarian?" or "Do you cook?" states the question's predicate, also when the clause goes on with a
statement of its own ("yes, and my kids ..."); "How many kids do you have?" answered "Four" forms "User has
four kids."; "What's your job?" forms "User works as ..."; "Which city are you in?" forms "User is in ..."; "What
grade are you in?" answered "8th" forms "User is in 8th grade."; "Who do you
live with?" forms "User lives with ..."; "Are you a morning or evening person?" answered "Evening" forms "User
is an evening person.". An
aside after a comma ("line cook, been doing it 6 yrs", "..., except four years of college", "Since 1971,
raised all four kids there"), how long after a "yes" ("yep, 22 years this June") and a conjunction opening the
question ("And where did you grow up?") are not part of the answer. A "no" borrows the question's predicate
too, as the user's own denial ("Do you drink coffee?" "no" is "I don't drink coffee.", "Have you ever skied?"
"no" is "I have never skied."), which the former reads
through the same rules as any clause, so only a denial they would form from the user's own words forms. A
"yes" or "no" to the agent's offer ("Do you want me to ...?"), an answer that states its own claim, and a
question shape not read here form nothing.
"""

import re

from domain.candidates import Derivation, Polarity
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_first import NAMESPACES, POINTERS
from domain.formation.deterministic.dropped_subject import opens_with_past
from domain.formation.deterministic.inflection import simple_past
from domain.formation.deterministic.kinds import classify
from domain.formation.equivalence import NUMBER_WORDS
from domain.formation.language import STOPWORDS, tokenize, verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key, third_person

MAX_ANSWER_WORDS = 14
_TERMINATORS = (".", "!", "?", "\n")
_PERFECT = re.compile(r"^how long have you (?P<rest>[^?]+)\?$", re.IGNORECASE)
_DO = re.compile(
    r"^(?:what|which|who)\b(?P<np>[^?]*?)\s*\b(?P<aux>do|did) you (?P<adv>(?:usually|normally|typically|mostly|often) )?"
    r"(?P<verb>[a-z]+)(?P<tail>[^?]*)\?$",
    re.IGNORECASE,
)
_WHERE = re.compile(r"^where (?P<aux>do|did) you (?P<verb>[a-z]+)(?P<tail>[^?]*)\?$", re.IGNORECASE)
_YOUR = re.compile(r"^what(?:'s| is| are) your (?P<np>[^?]+)\?$", re.IGNORECASE)
_DOING = re.compile(r"^what are you (?P<verb>[a-z]+ing)(?P<tail>[^?]*)\?$", re.IGNORECASE)
_TRAILING_WORDS = frozenset({"as", "in", "from", "at", "on"})
_LIVING = re.compile(r"^what do you do(?: for (?:a living|work|your job))?\?$", re.IGNORECASE)
_HAVE = re.compile(r"^(?:do|did) you have (?P<np>[^?]+)\?$", re.IGNORECASE)
_VERB_ANY = re.compile(r"^(?:do|did) you (?P<verb>[a-z]+) any [^?]+\?$", re.IGNORECASE)
_OLD = re.compile(r"^how old are you\?$", re.IGNORECASE)
_HOW_MANY = re.compile(r"^how many (?P<np>[^?]+?) do you (?P<verb>[a-z]+)(?P<tail>[^?]*)\?$", re.IGNORECASE)
_JOB = re.compile(
    r"^what(?:'s| is) your (?:day )?(?:job|occupation|profession|line of work)\?$", re.IGNORECASE
)
# "Which city are you in?": the question names the kind of place, its preposition governs the answer.
_WHICH_PLACE = re.compile(
    r"^(?:which|what) (?:city|town|country|state|province|county|area|neighbou?rhood|part of [a-z]+) are you "
    r"(?P<rest>(?:based |living |located )?(?:in|from|at))\?$",
    re.IGNORECASE,
)
# "What grade are you in?", "What kind of music are you into?": the question names what the user is in.
_WHAT_ARE_YOU = re.compile(
    r"^(?:which|what) (?P<np>[a-z][a-z ]*?) are you (?P<prep>in|into|on|at|with|for)\?$", re.IGNORECASE
)
_ORDINAL = re.compile(
    r"^(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
    r"|final|last)$",
    re.IGNORECASE,
)
_ANSWER_QUALIFIERS = frozenset({"mostly", "mainly", "usually", "currently", "still", "just"})
_OLD_YOUR = re.compile(r"^how old (?P<verb>is|are) your (?P<np>[^?]+)\?$", re.IGNORECASE)
_PREPOSITIONS = frozenset({"in", "at", "on", "for", "with", "from", "to", "about"})
_TO_DO = re.compile(r"^to do\b\s*", re.IGNORECASE)
# A time at the end of the question stays at the end of the claim: "working on (a game) these days".
_WHEN = re.compile(
    r"\s*\b(?:these days|nowadays|lately|right now|now|at the moment|currently|this (?:week|month|year))$",
    re.IGNORECASE,
)
_WHERE_ARE = re.compile(r"^where are you (?P<rest>[a-z ]*[a-z])\?$", re.IGNORECASE)
_ANY = re.compile(r"^(?:(?:and|so|oh)\s+)?(?:got\s+)?any (?P<np>[^?]+)\?$", re.IGNORECASE)
# Yes/no questions: a "yes" answer states the question's own predicate ("Are you vegetarian?" "yep").
_FUNCTION_OPENERS = (
    STOPWORDS | set(NUMBER_WORDS) | {"since", "until", "till", "mostly", "mainly", "about", "around", "only"}
)
# "Two goats and a very loud parrot": what an answer says the user has, one thing a claim.
_AND = " and "
_COUNTED_OPENERS = frozenset({"a", "an", *NUMBER_WORDS})
# "And where did you grow up?": a conjunction opening the question is the conversation's.
_QUESTION_LEAD = re.compile(r"^(?:and|so|oh|ok|okay|also)\b[\s,]*", re.IGNORECASE)
_ARE_YOU = re.compile(r"^are you (?P<rest>[^?]+)\?$", re.IGNORECASE)
# "Are you a morning or evening person?": the answer names one of two kinds, the question the noun.
_CHOICE = re.compile(
    r"^are you an? (?P<one>[a-z]+) or (?:an? )?(?P<other>[a-z]+) (?P<noun>[a-z]+)\?$", re.IGNORECASE
)
# "Have you ever done any martial arts?", "Have you been to Japan before?": a "no" says never of a life's
# experience; "Have you tried restarting it?" asks about this moment.
_HAVE_YOU = re.compile(r"^have you (?:ever (?P<rest>[^?]+)|(?P<before>[^?]+ before))\?$", re.IGNORECASE)
_DO_YOU = re.compile(
    r"^do you (?P<adv>(?:still|usually|normally|often|also|ever|really) )?(?P<verb>[a-z]+)(?P<tail>[^?]*)\?$",
    re.IGNORECASE,
)
_YES = re.compile(r"^(?:yes|yeah|yep|yup|yea|sure|definitely|absolutely|of course)\b", re.IGNORECASE)
# An answer that limits how far the question holds also says yes: "Only during the day", "Mostly weekends".
_QUALIFYING = re.compile(
    r"^(?:only|mostly|mainly|usually|sometimes|occasionally|every|most|on weekends|twice|once)\b",
    re.IGNORECASE,
)
# A question about the agent's offer or this moment: a "yes" says nothing about the user.
_OWN_STATEMENT = re.compile(r"(?:and|but|so|though|my|our|i|i'm|im|we|he|she|they|it)\b", re.IGNORECASE)
_OFFER = re.compile(r"\b(?:me|I|sure|ready|ok|okay|there)\b", re.IGNORECASE)
# A question about the conversation itself: whatever answers it says nothing about the user.
_CONVERSATION = re.compile(r"\b(?:questions?|anything else)\b", re.IGNORECASE)
# "Do you have any pets?" "yes": a "yes" to "any" says there are some, not what ("User has any pets.").
_ANY_WORD = re.compile(r"\bany\b", re.IGNORECASE)
_LEADING = re.compile(
    r"^(?:(?:yes|yeah|yep|yup|sure|well|um|uh|oh|so|hmm|ok|okay)\b[\s,!.:-]*)+", re.IGNORECASE
)
_TRAILING = re.compile(
    r"(?:[\s,]+(?:lol|tbh|haha|honestly|i guess|i think))+[\s.!]*$|[\s.!,]+$", re.IGNORECASE
)
# After a comma these open a statement or an exception of its own, which the answer does not include:
# "line cook, been doing it 6 yrs", "all my life, except four years of college".
_ASIDE = re.compile(
    r",\s*(?:except|but|so|been|was|is|it's|its|i|im|i'm|i've|ive|which|since|though|although|my|our|he|she|"
    r"they|we)\b.*$",
    re.IGNORECASE | re.DOTALL,
)
_NO = re.compile(r"^(?:no|nope|none|not really|nah|never)\b", re.IGNORECASE)
_DENIED = re.compile(r"^(?:(?:god|hell) no|no|nope|nah|not really|not at all|never)\b", re.IGNORECASE)
_OWN_VOICE = {"your": "my", "yours": "mine", "yourself": "myself", "you": "me"}
_PLACE_PREPOSITIONS = ("in ", "at ", "on ", "near ", "from ", "outside ", "by ", "around ")
# An adverb before a place's preposition: "just outside Leicester", "right by the station".
_NEAR_ADVERBS = ("just ", "right ", "quite ", "very ")
_ENDING_PREPOSITIONS = (" from", " in", " at", "from")
_YOU = re.compile(r"\b(?:your|yours|yourself|you)\b", re.IGNORECASE)
# A question after the user's allergies ("Any allergies?", "Do you have any food allergies?"): the answer
# names what they are allergic to.
_ALLERGIES = re.compile(r"^(?:do you have |got )?any (?:[a-z]+ )?allergies\b", re.IGNORECASE)
_YOU_VOICE = {"your": "their", "yours": "theirs", "yourself": "themselves", "you": "them"}


def last_question(text: str) -> str | None:
    """The agent's last question: the sentence ending at its last question mark. Found from that mark
    backwards, so the cost is linear (a regex scanning for questions retries from every position)."""
    end = text.rfind("?")
    if end < 0:
        return None
    start = max(text.rfind(mark, 0, end) for mark in _TERMINATORS) + 1
    return text[start : end + 1].strip()


def _tensed(match: re.Match[str]) -> str:
    """The question's verb as the answer states it: past after "did", else the present third person."""
    lemma = match["verb"].lower()
    if match["aux"].lower() != "did":
        return third_person(lemma)
    return simple_past(lemma)


def _voice(phrase: str, voice: dict[str, str] = _YOU_VOICE) -> str:
    """The question's words with "you" in the user's third person, or in their own voice (_OWN_VOICE)."""
    return _YOU.sub(lambda m: voice[m.group(0).lower()], phrase).strip()


def _split_tail(tail: str) -> tuple[str, str]:
    """A question's words after its verb, split into what governs the answer and a closing time."""
    match = _WHEN.search(tail)
    return (tail[: match.start()], match.group(0).strip()) if match else (tail, "")


def _answer(clause_text: str) -> str | None:
    answer = _TRAILING.sub("", _ASIDE.sub("", _LEADING.sub("", clause_text.strip())))
    # "Since 1971, raised all four kids there": a statement with its "I" left out after a comma is an aside.
    comma = answer.find(",")
    # "Knitting, fishing and the odd jigsaw": after a gerund a gerund is one more of the list.
    listed = answer.split(" ", 1)[0].lower().rstrip(",").endswith("ing")
    while comma > 0:
        following = answer[comma + 1 :].lstrip()
        if opens_with_past(following) and not (listed and following.split(" ", 1)[0].lower().endswith("ing")):
            answer = answer[:comma]
            break
        comma = answer.find(",", comma + 1)
    if not answer or _NO.match(answer) or len(answer.split()) > MAX_ANSWER_WORDS:
        return None
    # "Since 1971", "Only on weekends", "Knitting, ...": a function word's or a gerund's capital is the
    # sentence's.
    head, _, tail = answer.partition(" ")
    lowered = head.lower()
    sentence_capital = lowered in _FUNCTION_OPENERS or lowered.rstrip(",").endswith("ing")
    return f"{lowered} {tail}".strip() if sentence_capital else answer


def _affirmed(question: str, clause_text: str) -> tuple[str, str, Aspect, str] | None:
    """A "yes" to "Are you ...?" or "Do you ...?": the question's predicate, with what the answer adds."""
    qualified = _QUALIFYING.match(clause_text.strip()) is not None
    if not (affirms(clause_text) or qualified) or _OFFER.search(question) is not None:
        return None
    if qualified:
        # "Do you still drive?" "Only during the day, my night vision ...": a yes, limited.
        added = _answer(clause_text) or ""
    else:
        added = _TRAILING.sub("", _LEADING.sub("", clause_text.strip()))
    if _OWN_STATEMENT.match(added):
        added = ""  # "yes, and my kids answer me in English": what follows is a statement of its own
    if len(added.split()) > MAX_ANSWER_WORDS:
        return None
    if match := _ARE_YOU.match(question):
        if added[:1].isdigit():
            added = ""  # "Are you married?" "yep, 22 years this June": how long, not what

        return "User", "is", Aspect.SIMPLE, f"{_voice(match['rest'])} {added}".strip()
    if match := _DO_YOU.match(question):
        if match["verb"].lower() == "have" and added:
            return "User", "has", Aspect.SIMPLE, added  # "Do you have kids?" "yes, a daughter"
        if not added and _ANY_WORD.search(match["tail"]):
            return None
        # "Do you still drive?": the adverb stays before the verb, "ever" asks and is not stated.
        adverb = (match["adv"] or "").lower().replace("ever ", "")
        verb = f"{adverb}{third_person(match['verb'].lower())}"
        return "User", verb, Aspect.SIMPLE, f"{_voice(match['tail'])} {added}".strip()
    return None


def _placed(answer: str) -> bool:
    """Whether an answer opens with its own place preposition, after an adverb or not."""
    low = answer.lower()
    for adverb in _NEAR_ADVERBS:
        low = low.removeprefix(adverb)
    return low.startswith(_PLACE_PREPOSITIONS)


def _counted(word: str) -> bool:
    return word.lower() in NUMBER_WORDS or word.isdigit()


def _count_of(count: str, question_np: str, more: str) -> str:
    """The answer's count of what the question named, then what the answer adds after its comma: "Four,
    ages 2 to 11" to "How many kids ...?" is "four kids, ages 2 to 11"."""
    return f"{count.strip().lower()} {_voice(question_np)}{',' + more if more else ''}"


def _filled(match: re.Match[str], answer: str) -> tuple[str, str, Aspect, str] | None:
    """ "What grade are you in?" "8th" is "in 8th grade": an ordinal is one of the question's noun. What the
    user is into is a taste ("mostly kpop" is "mostly into kpop"); what they are in, on or at otherwise may be
    this moment's ("What room are you in?" "the kitchen"), and a pointer ("a good one") names nothing."""
    prep = match["prep"].lower()
    first = answer.split(",", 1)[0].split()
    if _ORDINAL.match(first[0]):
        return "User", "is", Aspect.SIMPLE, f"{prep} {first[0]} {match['np'].split()[-1].lower()}"
    if prep != "into" or first[-1].lower() in POINTERS:
        return None
    qualifier, _, rest = answer.partition(" ")
    if qualifier.lower() in _ANSWER_QUALIFIERS and rest:
        return "User", "is", Aspect.SIMPLE, f"{qualifier.lower()} {prep} {rest}"
    return "User", "is", Aspect.SIMPLE, f"{prep} {answer}"


def _borrowed(question: str, answer: str) -> tuple[str, str, Aspect, str] | None:
    """The holder, the verb phrase, the aspect and the complement the question lends the answer."""
    if match := _CHOICE.match(question):
        chosen = answer.split(maxsplit=1)[0].strip(",.!").lower()
        if chosen not in (match["one"].lower(), match["other"].lower()):
            return None
        article = "an" if chosen[:1] in "aeiou" else "a"
        return "User", "is", Aspect.SIMPLE, f"{article} {chosen} {match['noun'].lower()}"
    if match := _PERFECT.match(question):
        rest = _voice(match["rest"])
        return "User", "has", Aspect.PERFECT, f"{rest} {answer}"
    if match := _WHERE.match(question):
        verb = _tensed(match)
        place = answer if _placed(answer) else f"in {answer}"
        return "User", verb, Aspect.PAST, f"{_voice(match['tail'])} {place}".strip()
    if match := _DOING.match(question):
        particle, when = _split_tail(_voice(match["tail"]))
        return (
            "User",
            f"is {match['verb'].lower()}",
            Aspect.PROGRESSIVE,
            f"{particle} {answer} {when}".strip(),
        )
    if _ALLERGIES.search(question):
        # "Any allergies?" "Penicillin": what the user is allergic to, not an allergy they have.
        allergen = answer.split(",", 1)[0]
        if allergen.split(" ", 1)[0].lower() in STOPWORDS:
            return None  # "not that I know of", "just the usual"
        return "User", "is", Aspect.SIMPLE, f"allergic to {allergen[:1].lower()}{allergen[1:]}"
    if match := _VERB_ANY.match(question):
        # "Do you play any instruments?" "piano and a bit of guitar"; "Do you have any pets?" "two cats"
        return "User", third_person(match["verb"].lower()), Aspect.SIMPLE, answer
    if _OLD.match(question):
        return "User", "is", Aspect.SIMPLE, answer
    if match := _HOW_MANY.match(question):
        count, _, more = answer.partition(",")
        if _counted(count.strip()):
            # "How many kids do you have?" "Four, ages 2 to 11": the count is of what the question named.
            np = _count_of(count, match["np"], more)
            return "User", third_person(match["verb"].lower()), Aspect.SIMPLE, f"{np}{match['tail']}"
    if _JOB.match(question):
        return "User", "works as", Aspect.SIMPLE, answer
    if match := _WHICH_PLACE.match(question):
        rest = match["rest"].lower()
        place = answer if answer.lower().startswith(_PLACE_PREPOSITIONS) else f"{rest.split()[-1]} {answer}"
        return "User", "is", Aspect.SIMPLE, " ".join([*rest.split()[:-1], place])
    if match := _WHAT_ARE_YOU.match(question):
        return _filled(match, answer)
    if match := _OLD_YOUR.match(question):
        return f"User's {_voice(match['np'])}", match["verb"].lower(), Aspect.SIMPLE, answer
    if match := _WHERE_ARE.match(question):
        rest = match["rest"].lower()
        # "Where are you from?" ends on its own preposition; "Where are you based?" takes "in".
        place = (
            answer
            if rest.endswith(_ENDING_PREPOSITIONS) or answer.lower().startswith(_PLACE_PREPOSITIONS)
            else f"in {answer}"
        )
        return "User", "is", Aspect.SIMPLE, f"{rest} {place}"
    if match := _ANY.match(question):
        return "User", "has", Aspect.SIMPLE, answer
    if match := _YOUR.match(question):
        np = _voice(match["np"])
        verb = "are" if question.lower().startswith("what are") else "is"
        return f"User's {np}", verb, Aspect.SIMPLE, answer
    if match := _LIVING.match(question):
        return "User", "works as", Aspect.SIMPLE, answer
    if match := _HAVE.match(question):
        count, _, more = answer.partition(",")
        if _counted(count.strip()):
            # "Do you have kids?" "two, a boy and a girl": the count is of what the question named.
            return "User", "has", Aspect.SIMPLE, _count_of(count, match["np"], more)
        if _counted(next(iter(count.split()), "")):
            return "User", "has", Aspect.SIMPLE, answer  # "Do you have pets?" "two cats, Miso and Tofu"
    if match := _DO.match(question):
        verb = _tensed(match)
        adverb = match["adv"] or ""
        tail = _voice(match["tail"])
        if tail.lower() in _PREPOSITIONS:
            # "What city do you live in?" "Denver": the preposition governs the answer.
            return "User", f"{adverb}{verb}", Aspect.SIMPLE, f"{tail} {answer}"
        # "What do you like to do for fun?" "hiking": the answer is what is done.
        tail = _TO_DO.sub("", tail)
        return "User", f"{adverb}{verb}", Aspect.SIMPLE, f"{answer} {tail}".strip()
    return None


def denial(question: str, clause_text: str) -> str | None:
    """A "no" answer as the user's own denial of the question's predicate: "Are you a morning person?" "God
    no" is "I'm not a morning person.", "Any pets?" "nope" is "I have no pets.". An adverb the denial would
    drop ("Do you usually ...?" "no" does not say "never") forms nothing; "still" becomes "no longer"."""
    question = _QUESTION_LEAD.sub("", question.strip())
    if _DENIED.match(clause_text.strip()) is None or _OFFER.search(question) is not None:
        return None
    if match := _ARE_YOU.match(question):
        rest = _voice(match["rest"], _OWN_VOICE)
        return None if rest.lower().startswith("still ") else f"I'm not {rest}."
    if match := _DO_YOU.match(question):
        verb = match["verb"].lower()
        tail, _ = _split_tail(_voice(match["tail"], _OWN_VOICE))
        adverb = (match["adv"] or "").strip().lower()
        if verb == "have" and not adverb and tail.lower().startswith("any "):
            return f"I have no {tail[4:]}."
        negation = {"": "don't", "still": "no longer", "ever": "never"}.get(adverb)
        return None if negation is None else f"{f'I {negation} {verb} {tail}'.strip()}."
    if match := _ANY.match(question):
        np, _ = _split_tail(_voice(match["np"], _OWN_VOICE))
        return f"I have no {np}."
    if match := _HAVE_YOU.match(question):
        return f"I have never {_voice(match['rest'] or match['before'], _OWN_VOICE)}."
    return None


def affirms(clause_text: str) -> bool:
    """Whether an answer opens with a "yes", which answers the question whatever else the clause says."""
    return _YES.match(clause_text.strip()) is not None


def answer_claims(question: str, clause_text: str) -> list[Claim]:
    """The claim a short answer makes with the predicate of the question it answers."""
    question = _QUESTION_LEAD.sub("", question.strip())
    if _CONVERSATION.search(question):
        return []  # "Do you have any questions?" "yes, one about pricing": about this conversation
    answer = _answer(clause_text)
    borrowed = _borrowed(question, answer) if answer is not None else None
    if borrowed is None:
        borrowed = _affirmed(question, clause_text)
    if borrowed is None:
        return []
    holder, verb_phrase, aspect, complement = borrowed
    # The verb, not a preposition the question lent with it ("works as").
    head = next(t for t in reversed(tokenize(verb_phrase)) if t.lower not in _TRAILING_WORDS)
    lemma = verb_lemma(head)
    claims: list[Claim] = []
    for thing in _things_had(verb_phrase, complement):
        tokens = tokenize(thing)
        words = [t.lemma for t in tokens if t.lemma not in STOPWORDS]
        kind, longevity = classify(lemma, aspect, frozenset(words), tokens=tokens)
        subject = conflict_key(NAMESPACES[kind], [lemma, *words])
        predicate = Predicate(lemma, verb_phrase, Aspect.BARE, thing)
        claims.append(Claim(kind, Derivation.DIRECT, longevity, Polarity.ASSERT, subject, predicate, holder))
    return claims


def _things_had(verb_phrase: str, complement: str) -> list[str]:
    """What the user has, one thing each when the answer lists counted things with "and" and no comma; a
    comma's list ("three, two boys and a girl") describes one thing."""
    parts = complement.split(_AND)
    if verb_phrase != "has" or len(parts) < 2 or "," in complement:
        return [complement]
    counted = all(part.split(" ", 1)[0].lower() in _COUNTED_OPENERS or part[:1].isdigit() for part in parts)
    return parts if counted else [complement]
