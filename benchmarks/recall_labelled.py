"""The recall benchmark's hand-written relevance sets: beliefs that read like what consolidation forms about
one person, and questions an agent would be asked, each naming the one belief that answers it.

Seven sets, each its own person: DEV (below), which ordering and matching rules may be tuned on; DEV2
(recall_dev2.json, 67 pairs and its own distractor clauses), a second development set written before any
rule was changed on it, so its first reading is an honest one on fresh text and later readings may be
tuned on; DEV3 (recall_dev3.json, 64 pairs about a retired Toronto electrician, with colloquial, indirect
questions and its own distractor clauses), written before the structural ranking changes and read for
totals only, as a check on each of them; DEV4 (recall_dev4.json, 64 pairs about a Lagos engineering
student, questions with typos, Nigerian English and indirect phrasing, and its own distractor clauses), written,
frozen and scored before the rules of its round; HELDOUT (recall_heldout.json, 62 pairs and its own distractor
clauses), written after DEV and before any rule was changed on it, scored for totals only; and HELDOUT2
(recall_heldout2.json, 66 pairs about a Waikato dairy farmer, questions with typos, paraphrase and farm slang,
and its own distractor clauses), written and frozen before the bounded read and the contraction fix, scored
for totals only; and HELDOUT3 (recall_heldout3.json, 62 pairs about a Texas owner-operator trucker, questions
paraphrased so most share few or no words with their answer, "what should you call me?" for a name, and
its own distractor clauses), written and frozen before recall by meaning, scored for totals only (two of
its questions were reworded after its first reading, results unread, as they repeated dev3's word for word). Each JSON set is frozen by its .sha256 record (the
loader refuses an edited file).

TARGETS are (subject, statement, question) triples written by hand; the question is phrased as a person
would ask it, not copied from the statement, so some share only one word with their answer (full-text recall
matches words after stemming, not meaning: a question that shares none fails, and the score says so).
DEV's distractors are 945 more beliefs of the same person built from hand-written clauses (people, places, food,
work, health, habits), so the questions' common words ("work", "like", "week") also hold for beliefs that do
not answer them; the JSON sets' distractors are built the same way from their own clauses.
"""

import hashlib
import json
import random
from pathlib import Path
from string import ascii_lowercase
from typing import Final, NamedTuple

from domain.beliefs.relevance import STOP_WORDS

HERE = Path(__file__).resolve().parent

TARGETS: Final[tuple[tuple[str, str, str], ...]] = (
    (
        "person:sister",
        "User's sister Maya lives in Lisbon and works as an architect.",
        "Where does my sister live?",
    ),
    ("pet:dog", "User has a beagle named Biscuit who is afraid of thunderstorms.", "What's my dog called?"),
    ("health:allergy", "User is allergic to penicillin.", "Which antibiotics am I allergic to?"),
    ("diet:coffee", "User drinks oat-milk flat whites and avoids dairy milk.", "How do I take my coffee?"),
    (
        "work:employer",
        "User works as a data engineer at a logistics startup called Freightly.",
        "Which company is my employer?",
    ),
    (
        "work:stack",
        "User's team migrated their pipelines from Airflow to Dagster last quarter.",
        "What orchestrator did we move our pipelines to?",
    ),
    (
        "travel:japan",
        "User is planning a two-week trip to Japan in April with a stop in Kyoto.",
        "When am I going to Japan?",
    ),
    (
        "hobby:climbing",
        "User goes bouldering at the climbing gym on Tuesday and Thursday evenings.",
        "Which evenings do I go climbing?",
    ),
    (
        "family:daughter",
        "User's daughter Ines started primary school this September.",
        "When did Ines start school?",
    ),
    (
        "home:apartment",
        "User rents a third-floor apartment in Porto without an elevator.",
        "Does my apartment have an elevator?",
    ),
    ("car:vehicle", "User drives a 2015 Toyota Prius that needs new brake pads.", "What car do I drive?"),
    (
        "language:german",
        "User is learning German and practises on Duolingo every morning.",
        "Which language am I learning?",
    ),
    ("diet:vegetarian", "User has been vegetarian for six years but still eats eggs.", "Do I eat eggs?"),
    (
        "health:sleep",
        "User struggles with insomnia and stops caffeine after 2 pm.",
        "Why do I avoid caffeine in the afternoon?",
    ),
    (
        "finance:mortgage",
        "User is saving for a mortgage deposit and wants to buy by 2027.",
        "When do I want to buy a house with a mortgage?",
    ),
    (
        "music:instrument",
        "User plays bass guitar in a weekend cover band called The Late Trains.",
        "What's the name of my band?",
    ),
    ("reading:books", "User is reading Middlemarch and finds it slow going.", "Which novel am I reading?"),
    (
        "fitness:running",
        "User is training for the Porto half marathon in November.",
        "Which race am I training for?",
    ),
    (
        "work:manager",
        "User's manager is called Tomasz and they meet every Monday for a one-on-one.",
        "Who is my manager?",
    ),
    (
        "person:partner",
        "User's partner Sam is a nurse who works night shifts.",
        "What does Sam do for a living?",
    ),
    (
        "preference:communication",
        "User prefers short bullet-point answers over long explanations.",
        "How do I like answers formatted?",
    ),
    (
        "project:side",
        "User is building a personal AI agent that summarises email.",
        "What side project am I building?",
    ),
    (
        "health:medication",
        "User takes levothyroxine every morning for an underactive thyroid.",
        "What medication do I take in the morning?",
    ),
    ("food:dislike", "User dislikes coriander and asks for it to be left out.", "Which herb do I hate?"),
    ("home:garden", "User grows tomatoes and basil on the balcony.", "What do I grow on my balcony?"),
    ("travel:airline", "User avoids Ryanair after a lost-luggage incident.", "Which airline do I avoid?"),
    (
        "education:degree",
        "User has a master's degree in applied mathematics from the University of Coimbra.",
        "Where did I study mathematics?",
    ),
    ("person:friend", "User's oldest friend Rui moved to Toronto last year.", "Where did Rui move to?"),
    (
        "work:hours",
        "User works remotely on Fridays and goes to the office the rest of the week.",
        "Which day do I work from home?",
    ),
    ("tech:laptop", "User uses a ThinkPad X1 Carbon running Fedora.", "Which Linux distribution do I run?"),
    ("hobby:photography", "User shoots film photography with an old Pentax K1000.", "Which camera do I use?"),
    (
        "event:wedding",
        "User's brother is getting married in Seville on 14 June.",
        "When is my brother's wedding?",
    ),
    (
        "health:injury",
        "User has a recurring knee injury and avoids running downhill.",
        "Which knee problem do I have?",
    ),
    ("diet:alcohol", "User stopped drinking alcohol in January.", "Do I still drink alcohol?"),
    ("pet:cat", "User's cat Pimenta needs a kidney-diet food.", "What food does Pimenta need?"),
    (
        "finance:budget",
        "User tracks spending in a YNAB budget and reviews it on Sundays.",
        "Which budgeting app do I use?",
    ),
    ("work:oncall", "User is on call for the data platform every fourth week.", "How often am I on call?"),
    (
        "preference:meetings",
        "User blocks mornings for focused work and avoids meetings before 11.",
        "When do I avoid meetings?",
    ),
    (
        "volunteer:foodbank",
        "User volunteers at a food bank on the first Saturday of each month.",
        "Where do I volunteer?",
    ),
    ("game:chess", "User plays online chess and has a rapid rating around 1500.", "What's my chess rating?"),
    (
        "home:heating",
        "User's apartment has a broken boiler that the landlord has not fixed.",
        "What's wrong with the boiler?",
    ),
    (
        "travel:passport",
        "User's passport expires in March 2026 and needs renewing.",
        "When does my passport expire?",
    ),
    (
        "family:parents",
        "User's parents live in a village near Braga and visit at Easter.",
        "Where do my parents live?",
    ),
    (
        "food:cooking",
        "User bakes sourdough bread every weekend with a starter called Gertrude.",
        "What is my sourdough starter called?",
    ),
    (
        "health:diet-goal",
        "User is trying to eat 100 grams of protein a day.",
        "How much protein am I aiming for?",
    ),
    (
        "work:promotion",
        "User is hoping to be promoted to senior engineer at the next review.",
        "Which promotion am I hoping for?",
    ),
    ("tech:phone", "User switched from an iPhone to a Pixel 8 this year.", "Which phone do I have now?"),
    (
        "hobby:gaming",
        "User is playing through Baldur's Gate 3 with friends on Wednesday nights.",
        "Which game am I playing with friends?",
    ),
    ("commute:bike", "User cycles to work on an e-bike when it is not raining.", "How do I get to work?"),
    (
        "person:colleague",
        "User's colleague Priya reviews most of their pull requests.",
        "Who reviews my pull requests?",
    ),
    (
        "music:concert",
        "User has tickets to see Radiohead in Lisbon in July.",
        "Which concert do I have tickets for?",
    ),
    (
        "health:dentist",
        "User has a dentist appointment for a crown on 3 March.",
        "When is my dentist appointment?",
    ),
    (
        "diet:breakfast",
        "User usually eats porridge with blueberries for breakfast.",
        "What do I eat for breakfast?",
    ),
    (
        "learning:course",
        "User is taking an evening course in woodworking at the community college.",
        "What evening course am I taking?",
    ),
    (
        "preference:tone",
        "User wants the assistant to skip small talk and get to the point.",
        "Should you make small talk with me?",
    ),
)


class Filler(NamedTuple):
    """Distractor clauses ((subject, template) with {person}, {place}, {day}, {thing}, {food}) and their fills."""

    clauses: tuple[tuple[str, str], ...]
    people: tuple[str, ...]
    places: tuple[str, ...]
    days: tuple[str, ...]
    things: tuple[str, ...]
    food: tuple[str, ...]


class LabelledSet(NamedTuple):
    name: str
    targets: tuple[tuple[str, str, str], ...]
    filler: Filler


class FrozenDigestMismatch(ValueError):
    """A frozen set's JSON differs from its sha256 record."""


_PEOPLE = ("Maya", "Sam", "Rui", "Tomasz", "Priya", "Ines", "Carla", "João", "Leo", "Ana", "Marta", "Nuno")
_PLACES = (
    "Lisbon",
    "Porto",
    "Braga",
    "Madrid",
    "Berlin",
    "London",
    "the office",
    "the gym",
    "the park",
    "the market",
)
_DAYS = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "most weekends",
    "every week",
)
_CLAUSES = (
    ("work:task", "User needs to finish the {thing} report for {person} by {day}."),
    ("work:meeting", "User has a recurring meeting with {person} on {day} about the {thing} project."),
    ("work:tool", "User uses {thing} at work and finds it clunky."),
    ("social:plan", "User is meeting {person} in {place} on {day}."),
    ("social:friend", "User's friend {person} recommended {thing}."),
    ("food:restaurant", "User liked a restaurant in {place} that serves {food}."),
    ("food:shopping", "User buys {food} at {place} {day}."),
    ("habit:routine", "User tries to walk in {place} on {day}."),
    ("errand:todo", "User has to return the {thing} to {person}."),
    ("preference:like", "User likes {food} but not too spicy."),
    ("media:watch", "User watched a documentary about {thing} and enjoyed it."),
    ("health:routine", "User stretches after work on {day} to help their back."),
    ("travel:weekend", "User spent a weekend in {place} with {person}."),
    ("home:chore", "User cleans the {thing} on {day}."),
)
_THINGS = (
    "quarterly", "budget", "migration", "hiring", "onboarding", "analytics", "Jira", "Slack", "Notion", "Excel",
    "blender", "drill", "tent", "ladder", "umbrella", "oven", "fridge", "bathroom", "windows", "octopuses",
    "volcanoes", "jazz", "the Roman empire", "deep-sea fishing", "a podcast", "a new series",
)  # fmt: skip
_FOOD = (
    "ramen",
    "pastéis de nata",
    "grilled sardines",
    "tacos",
    "dumplings",
    "curry",
    "pizza",
    "falafel",
    "sushi",
)


DEV: Final = LabelledSet("dev", TARGETS, Filler(_CLAUSES, _PEOPLE, _PLACES, _DAYS, _THINGS, _FOOD))


def misspelt(labelled: LabelledSet) -> LabelledSet:
    """The same set with one typo in each question: its longest word that is not a stop word (the first of
    equals) gets one random edit, a letter deleted, two neighbours swapped, one replaced or one inserted,
    seeded by the set's name. The edit may make another real word ("live" -> "love"), as a real typo may."""
    rng = random.Random(f"typos-{labelled.name}")
    targets = []
    for subject, statement, question in labelled.targets:
        words = [w.strip("?.,!") for w in question.split()]
        word = max((w for w in words if w.lower() not in STOP_WORDS and w.isalpha()), key=len)
        at = rng.randrange(len(word) - 1)
        edit = rng.choice(("delete", "swap", "replace", "insert"))
        if edit == "delete":
            typo = word[:at] + word[at + 1 :]
        elif edit == "swap":
            typo = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
        else:
            others = [c for c in ascii_lowercase if c != word[at].lower()]
            typo = word[:at] + rng.choice(others) + word[at + (edit == "replace") :]
        targets.append((subject, statement, question.replace(word, typo, 1)))
    return LabelledSet(f"{labelled.name}-typos", tuple(targets), labelled.filler)


FROZEN: Final = ("dev2", "dev3", "dev4", "heldout", "heldout2", "heldout3")


def frozen_digest(name: str) -> str:
    return hashlib.sha256((HERE / f"recall_{name}.json").read_bytes()).hexdigest()


def recorded_digest(name: str) -> str:
    return (HERE / f"recall_{name}.sha256").read_text("utf-8").split()[0]


def frozen(name: str) -> LabelledSet:
    """A frozen set (recall_<name>.json); refuses a file that no longer matches its sha256 record."""
    if frozen_digest(name) != recorded_digest(name):
        raise FrozenDigestMismatch(f"recall_{name}.json does not match recall_{name}.sha256")
    document = json.loads((HERE / f"recall_{name}.json").read_text("utf-8"))
    fills = document["distractors"]
    return LabelledSet(
        name,
        tuple((t["subject"], t["statement"], t["question"]) for t in document["targets"]),
        Filler(
            tuple((subject, clause) for subject, clause in fills["clauses"]),
            *(tuple(fills[key]) for key in ("people", "places", "days", "things", "food")),
        ),
    )


def distractors(rng: random.Random, count: int, filler: Filler) -> list[tuple[str, str]]:
    """count (subject, statement) pairs from the filler's clauses, filled at random."""
    made = []
    for _ in range(count):
        subject, clause = rng.choice(filler.clauses)
        made.append(
            (
                subject,
                clause.format(
                    person=rng.choice(filler.people),
                    place=rng.choice(filler.places),
                    day=rng.choice(filler.days),
                    thing=rng.choice(filler.things),
                    food=rng.choice(filler.food),
                ),
            )
        )
    return made
