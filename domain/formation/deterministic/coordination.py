"""Coordination: where a first-person predicate's complement splits into items, and which verb each opens.

"I hike, read, and do some woodworking" is three items, each with its own verb; "I'm 34, single" two
complements of one copula; "I have two kids and a dog" two objects of one possession verb; "On Sundays I
clean the house, call my mom and do meal prep" three items, the second opened by a verb recognised by the
object that follows it. An item that is someone else's statement ("..., rent went up", "... and my brother
is in college") ends the list. clause_first turns the items into claims.
"""

from dataclasses import dataclass

from domain.formation.deterministic.clause_words import (
    CONNECTORS,
    FILLERS,
    ITEM_VERBS,
    LIFE_EVENT_DATES,
    MOMENT,
    SAME_FORM_PAST,
    STOP,
    TRAILING,
    TRANSIENT,
)
from domain.formation.deterministic.inflection import IRREGULAR_PASTS
from domain.formation.deterministic.parsing import (
    ASKING,
    PAST_FORMS,
    WEEKDAYS,
    clock_time,
    corrected_count,
    is_number,
    since_age,
)
from domain.formation.deterministic.topic_words import RELATIVES
from domain.formation.language import STOPWORDS, Token, verb_lemma
from domain.formation.rendering import Aspect, third_person

# Words that open a verb's object: after one, the word before it may be a verb opening an item.
_OBJECT_OPENERS = frozenset({"my", "the", "our", "his", "her", "their", "some", "a", "an"})
_FINITE = frozenset({"is", "are", "was", "were", "has", "have", "had", "'s"})
# "..., my wife does": "do" standing for another person's verb.
_DO_FORMS = frozenset({"do", "does", "did"})
QUALIFIERS = frozenset({"mostly", "mainly", "primarily", "largely", "especially", "usually", "partly"})
_SINCE_WHEN = frozenset({"last", "college", "childhood", "high", "uni", "university", "school", "birth"})
_UNTIL = frozenset({"until", "till", "til"})
_UNTIL_WHEN = LIFE_EVENT_DATES | WEEKDAYS
# Adverbs an item may open with before its verb.
_ITEM_ADVERBS = frozenset({"just", "also", "recently", "still", "then", "later", "finally", "eventually"})
ARTICLES = frozenset({"a", "an"})
_UNITS = frozenset({"minute", "second"})
_POSSESSIVES = frozenset({"my", "our", "his", "her", "their"})
# A coordinated part holding one of these states something of its own: "... and the food is great".
_FINITE_WORDS = frozenset({"is", "are", "was", "were", "'s", "has", "have", "had", "do", "does", "did"})
_MAX_OBJECT_WORDS = 4
_YOUNGEST, _OLDEST = 16, 99
_SUBJECT_DETERMINERS = _POSSESSIVES | {"the"}
# A determiner, a noun, a verb and what it takes: the fewest words another subject's statement has here.
_OWN_SUBJECT_LEAST = 4
# How far into a coordinated part its own verb may stand: "the right one is".
_NAMED_REACH = 4
# A complement opening with a gerund within this many words is a list of gerunds ("either climbing ...").
_LIST_OPENING = 2
_NAMED_WORDS = 5
_PRONOUNS = frozenset({"it", "them", "that", "this", "those", "these", "him", "her", "one"})
# A coordinated part holding one of these is no object of its own: "... and the way it smells".
_NOT_IN_OBJECTS = _FINITE_WORDS | _PRONOUNS | {"he", "she", "they", "we", "you", "i"}
_CONTRASTED = ARTICLES | {"the", "my"}
_STRONG = (";", ":", "(", ")", "—", "–", '"', "“", "”", " - ", "!", "?")


@dataclass(slots=True)
class Item:
    """One coordinated item: the verb phrase it renders with and the tokens of its complement."""

    lemma: str
    verb_phrase: str
    aspect: Aspect
    words: list[Token]


def items_of(text: str, tokens: list[Token]) -> list[list[Token]]:
    """The complement split at commas and coordinators, up to where the clause's own statement ends."""
    items: list[list[Token]] = [[]]
    last = len(tokens) - 1
    for index, token in enumerate(tokens):
        low = token.lower
        if index:
            gap = text[tokens[index - 1].end : token.start]
            # Most gaps are one space; only the rest can hold a mark.
            if gap != " " and gap and not clock_time(gap, tokens[index - 1], token):
                if any(mark in gap for mark in _STRONG):
                    break
                if "," in gap:
                    if low == "do" and index < last and tokens[index + 1].lower == "not":
                        break  # "I sleep till 2pm, dont message me ...": a clause of its own, not an item
                    items.append([])
        if low == "but" and index < last and past_form(tokens[index + 1]):
            if items[-1]:
                items.append([])
            continue
        if low == "not" and index and index < last and tokens[index + 1].lower in _CONTRASTED:
            break  # "a plumber not an electrician": what the user is not is a contrast, not more object
        if low == "not" and corrected_count(tokens, index):
            break
        if low == "then" and index and tokens[index - 1].lower == "and":
            continue  # "I walk the dog and then meditate": "and then" coordinates
        if low == "then" and 0 < index < last and "," in gap and past_form(tokens[index + 1]):
            continue  # "Lived in Osaka, then moved back to Ohio": ", then" before a past coordinates
        if low == "since" and (aged := since_age(tokens, index)):
            items[-1].extend(tokens[index:aged])  # "roofing since I was 19": the statement's time ends it
            break
        if index and low in STOP:
            following = tokens[index + 1].lower if index < last else ""
            infinitive = following == "to" and low in ASKING
            dated = following and _dates(tokens[index + 1], low)
            if not infinitive and not dated:
                break
        if low in CONNECTORS:
            if items[-1]:
                items.append([])
            continue
        items[-1].append(token)
    return [trimmed for item in items if (trimmed := _trim(item))]


def _dates(token: Token, word: str) -> bool:
    """Whether "since" or "until" before this word dates the statement ("since 2016", "since college",
    "until March") rather than giving a reason or opening a clause of its own ("since I moved", "until I
    find a flat"; "since I was 12" is read by since_age)."""
    if word == "since":
        return token.lower.isdigit() or token.lower in _SINCE_WHEN
    return word in _UNTIL and (token.lower.isdigit() or token.lower in _UNTIL_WHEN)


def _trim(words: list[Token]) -> list[Token]:
    while words and (words[-1].lower in FILLERS or words[-1].lower in TRAILING):
        if words[-1].lower == "now" and len(words) > 1 and words[-2].lower == "right":
            words = words[:-1]  # "right now" names the moment, like "now" alone
        words = words[:-1]
    return words


def past_form(token: Token) -> bool:
    """Whether a word is the past of a verb that can open an item of its own ("..., but grew up in ...")."""
    lemma = PAST_FORMS.get(token.lower) or verb_lemma(token)
    return (
        lemma in ITEM_VERBS
        and (token.lower != lemma or lemma in SAME_FORM_PAST)
        and not token.lower.endswith(("ing", "s"))
    )


def participle(token: Token) -> bool:
    """Whether a word is a past participle: a regular one ("married") or an irregular one the lemmatizer
    reads back to its verb ("laid" -> "lay"); a gerund or a third-person form is not."""
    low = token.lower
    return low.endswith("ed") or low != token.lemma and not low.endswith(("ing", "s"))


def verb_before_object(words: list[Token], at: int) -> bool:
    """A plain verb form followed by its object's determiner: "..., call my mom", "..., feed the cats"."""
    if at + 1 >= len(words) or words[at + 1].lower not in _OBJECT_OPENERS:
        return False
    token = words[at]
    low = token.lower
    lemma = verb_lemma(token)
    return (
        low.isalpha()
        and low not in STOPWORDS
        and not low.endswith("ly")  # "..., especially the heavy ones"
        and (low == lemma or low == third_person(lemma))
    )


def item_verb(part: list[Token], aspect: Aspect) -> Item | None:
    """The item a part opens with a verb of its own, an adverb before it kept ("... and just started a
    PhD"), or None."""
    if part[0].lower in _ITEM_ADVERBS and len(part) > 1:
        item = item_verb(part[1:], aspect)
        if item is not None:
            item.verb_phrase = f"{part[0].lower} {item.verb_phrase}"
        return item
    verb = _verb_of(part, aspect)
    return Item(verb[0], verb[1], verb[2], part[1:]) if verb is not None else None


def _verb_of(part: list[Token], aspect: Aspect) -> tuple[str, str, Aspect] | None:
    token = part[0]
    lemma = PAST_FORMS.get(token.lower) or verb_lemma(token)
    if lemma not in ITEM_VERBS:
        if aspect is Aspect.SIMPLE and verb_before_object(part, 0):
            return lemma, third_person(lemma), Aspect.SIMPLE
        narrated = (
            aspect in (Aspect.PAST, Aspect.PERFECT) and len(part) > 1 and part[1].lower not in _PRONOUNS
        )
        if narrated and participle(token) and lemma != token.lower:
            # "moved to Leeds in 2019, bought a flat in 2021": a past continues a narrated past; one whose
            # object only points back ("named it Doughy Parton") says nothing on its own.
            return lemma, token.lower, Aspect.PAST
        return None
    if token.lower.endswith("ing"):
        return (lemma, f"is {token.lower}", Aspect.PROGRESSIVE) if aspect is Aspect.PROGRESSIVE else None
    if token.lower == lemma or token.lower == third_person(lemma):
        if aspect is Aspect.PAST:
            # "I used to smoke but quit five years ago": a verb whose past is its base form continues a past.
            return (lemma, token.lower, Aspect.PAST) if lemma in SAME_FORM_PAST else None
        return lemma, third_person(lemma), Aspect.SIMPLE
    return lemma, token.lower, Aspect.PAST


def told_of(part: list[Token]) -> bool:
    """Whether an item is a statement about its own first words: "..., rent went up", "... and my brother
    is still in college"."""
    if len(part) < 2 or part[0].lower in ARTICLES or part[0].lower in _ITEM_ADVERBS:
        return False
    if part[0].lower in ("my", "our"):
        if any(t.lower in _FINITE or t.lower in _DO_FORMS for t in part[2:5]):
            return True
        # "..., my husband cleans", "..., my partner did the patio": a relative's own verb right after them;
        # "..., my youngest started school", "..., my knee gave out": anyone's or anything's own past.
        return len(part) > 2 and (part[1].lemma in RELATIVES and _finite_verb(part[2]) or _past(part[2]))
    second = part[1]
    lemma = PAST_FORMS.get(second.lower) or verb_lemma(second)
    return lemma != second.lower and not second.lower.endswith(("s", "ing", "en"))


def _past(token: Token) -> bool:
    """A verb's simple past, regular or irregular ("started", "gave"), not a plural noun or a participle
    the lemmatizer cannot tell from an adjective."""
    lemma = PAST_FORMS.get(token.lower) or verb_lemma(token)
    return lemma != token.lower and (token.lower.endswith("ed") or token.lower in IRREGULAR_PASTS)


def _finite_verb(token: Token) -> bool:
    """A verb's third-person or past form ("cleans", "did"), not its base or an -ing form."""
    lemma = PAST_FORMS.get(token.lower) or verb_lemma(token)
    return lemma != token.lower and token.lower not in STOPWORDS and not token.lower.endswith("ing")


def own_subject(part: list[Token]) -> bool:
    """Whether a coordinated part opens with a determined noun and its own verb ("and the canteen closes at
    8", "and my boss keeps booking calls", "and the right one is starting"): another subject's statement.
    The verb comes after at least one noun word and has words after it, so a plural noun ending the part
    ("and the odd coins") is no verb."""
    if len(part) < _OWN_SUBJECT_LEAST or part[0].lower not in _SUBJECT_DETERMINERS:
        return False
    return any(
        token.lower in _FINITE_WORDS or _finite_verb(token)
        for token in part[2 : min(len(part) - 1, _NAMED_REACH)]
    )


def copula_item(part: list[Token], first: Item) -> Item | None:
    """An item continuing "I am ...": a short complement of its own ("I'm 34, single"), a participle with
    its phrase ("I'm 67, retired from the post office"), or a progressive verb with an object when the first
    complement was a plain one ("I'm 16 and trying to get my first job"; not "I'm into hiking and running")."""
    head = part[0].lower
    if len(first.words) == 1 and head.endswith("ed") and not first.words[0].lower.isdigit():
        return None  # "born and raised in Glasgow": two participles sharing one complement
    if any(t.lower in QUALIFIERS for t in part):
        return None  # "I'm an electrician, mostly residential" narrows the first item
    if all(is_number(t) for t in (*first.words, *part)):
        return None  # "my kids are 4 and 7": one list of ages
    # After a preposition a short item is its object: "I'm fluent in German and Italian".
    plain = not any(t.lower in TRAILING or t.lower.endswith("ing") for t in first.words)
    # A noun phrase of its own: "I'm 19, first gen college student".
    named = len(part) <= _NAMED_WORDS and not any(t.lower in STOPWORDS for t in part[1:])
    if (len(part) <= 3 or named) and not head.endswith("ing") and plain:
        return Item("be", "is", Aspect.SIMPLE, part)
    if head.endswith("ed") and verb_lemma(part[0]) != head:
        return Item("be", "is", Aspect.SIMPLE, part)
    if head.endswith("ing") and len(part) > 2 and plain:
        return Item(verb_lemma(part[0]), f"is {head}", Aspect.PROGRESSIVE, part[1:])
    return None


def is_age(token: Token) -> bool:
    """A number standing alone that reads as an adult's or a teenager's age ("41", not "3" or "2017")."""
    return token.lower.isdigit() and _YOUNGEST <= int(token.lower) <= _OLDEST


def momentary(words: list[Token], lemma: str) -> bool:
    """Whether a word ties the complement to this moment; "here" only after a copula ("I'm here", not "I
    moved here from Seoul"), a minute or a second only when no number counts it ("90 minutes each way" is a
    duration), and "afraid" only when no "of" names a fear ("I'm afraid I can't", not "afraid of flying")."""
    for index, token in enumerate(words):
        if token.lower not in TRANSIENT and token.lemma not in TRANSIENT:
            continue
        if token.lower == "afraid":
            if words[index + 1 : index + 2] and words[index + 1].lower == "of":
                continue
            return True
        if token.lower == "here":
            if lemma == "be":
                return True
        elif not (token.lemma in _UNITS and index and is_number(words[index - 1])):
            return True
    return False


def continues_copula(text: str, previous: list[Token], part: list[Token], last: Item) -> bool:
    """Whether an item after "I am ..." and a comma is a gerund with its object that is not of the moment;
    after a gerund it is one more of a list ("I'm usually either climbing at the gym, hiking with the dog, or
    sleeping")."""
    head = part[0]
    if last.lemma != "be" or len(part) < 2 or not head.lower.endswith("ing"):
        return False
    if any(t.lower.endswith("ing") for t in last.words[:_LIST_OPENING]):
        return False
    lemma = verb_lemma(head)
    return (
        lemma != head.lower
        and lemma not in MOMENT
        and after_comma(text, previous, part)
        and not momentary(part, lemma)
    )


def after_comma(text: str, previous: list[Token], part: list[Token]) -> bool:
    """Whether a comma, not only "and", parts a coordinated part from the one before it: "a son, 12"."""
    return "," in text[previous[-1].end if previous else part[0].start : part[0].start]


def another_object(part: list[Token], first: list[Token]) -> bool:
    """Whether a coordinated part is one more short noun phrase, not a statement of its own ("... and the
    way it smells"); after an object with a possessive ("my wife and kids") the part shares it, and after a
    pronoun ("him and his family") it names someone the pronoun's, both left alone."""
    if len(part) > _MAX_OBJECT_WORDS or any(t.lower in _NOT_IN_OBJECTS for t in part):
        return False
    if first and first[0].lower in _PRONOUNS:
        return False
    return not (first and first[0].lower in _POSSESSIVES and part[0].lower not in _POSSESSIVES)
