"""Word families: synonyms both ways, broader words one way down, kinds of food and drink also upward, and
idioms read as their word."""

from domain.beliefs.relevance import query_terms
from domain.beliefs.word_families import family


def test_synonyms_bring_each_other() -> None:
    assert family("migraines") == ("migraines", "headache", "migraine")
    assert family("headache") == ("headache", "migraine")
    assert family("mobile") == ("mobile", "cellphone", "phone", "smartphone")


def test_a_broader_word_finds_narrower_ones_and_not_the_other_way() -> None:
    assert family("summer") == ("summer", "august", "july", "june")
    assert family("june") == ("june",)
    assert family("sleeping") == ("sleeping", "asleep", "awake", "bedtime", "insomnia", "nap")
    assert family("awake") == ("awake",)
    assert family("daughter") == ("daughter", "girl")
    # the narrower words of a synonym count too: "love" covers a favourite as "like" does
    assert family("love") == ("love", "adore", "enjoy", "favorite", "favourite", "like")
    assert family("favourite") == ("favourite", "favorite")


def test_a_member_of_a_kind_of_food_finds_the_kind() -> None:
    assert family("prawns") == ("prawns", "shellfish")
    assert family("peanut") == ("peanut", "nut")
    assert family("shellfish")[:3] == ("shellfish", "clam", "crab")
    # a pet is not a kind: "pet:tortoise" holds "pet", and the dog would find every pet
    assert family("dog") == ("dog",)


def test_an_idiom_is_read_as_its_word() -> None:
    [job] = query_terms("What do I do for a living?")
    assert job[0] == "job" and {"occupation", "work", "teacher"} <= set(job)
    assert "living" not in job and "live" not in job
    assert query_terms("What time do I get up?") == (("time",), ("wake",))
    # only the whole idiom: "living" alone is a word of its own
    assert query_terms("living room") == (("living",), ("room",))


def test_a_negated_auxiliary_is_not_searched() -> None:
    assert query_terms("Is there a food I won't eat?") == (("food",), ("eat",))
    assert query_terms("why isn’t the baby crying") == (("baby",), ("crying",))
    # not negated, "won" is a word of its own
    assert query_terms("I won the race") == (("won",), ("race",))


def test_occupations_are_jobs_and_means_of_transport_a_commute() -> None:
    assert {"carpenter", "nurse", "teacher"} <= set(family("job"))
    # "work" is a synonym of "job": its family covers the occupations too
    assert "carpenter" in family("work")
    assert family("carpenter") == ("carpenter",)
    [commute, work] = query_terms("How do I get to work?")
    assert commute[0] == "commute" and {"bus", "bike", "cycle", "train"} <= set(commute)
    # a walk is exercise more often than a way to work
    assert "walk" not in commute
    assert work[0] == "work"


def test_two_neighbouring_words_that_make_an_english_word_search_it_too() -> None:
    assert query_terms("How often do I have my hair cut?") == (("often",), ("hair",), ("cut",), ("haircut",))
    # not across a stop word, and not when the two make no word
    assert query_terms("hair and cut") == (("hair",), ("cut",))
    assert query_terms("hair colour") == (("hair",), ("colour", "color"))


def test_a_question_frame_is_read_as_the_predicate_family_it_asks_for() -> None:
    [age] = query_terms("How old am I?")
    assert age[0] == "age" and {"born", "birthday", "turn"} <= set(age) and "old" not in age
    assert query_terms("What does Craig do?")[0] == ("craig",)
    assert query_terms("What does Craig do?")[1][0] == "job"
    assert query_terms("what does my wife do for work")[0] == ("wife", "husband", "spouse")
    [folks, origin] = query_terms("Where did my folks come from?")
    assert folks == ("folks",) and origin[0] == "origin" and {"emigrated", "born", "hometown"} <= set(origin)
    [assistant, *_] = query_terms("How should you explain things to me?")
    assert assistant[0] == "assistant" and {"answer", "tone"} <= set(assistant)
    assert query_terms("Do I want you to sugar-coat things?")[0][0] == "assistant"
    # not the frames: an activity, a residence, an "old" that is no age, the assistant asked to do something
    assert query_terms("Can you tell me about Rome?") == (("tell",), ("rome",))
    assert query_terms("What do I do on Sundays?") == (("sundays",),)
    assert query_terms("Where do I live?") == (("live",),)
    assert query_terms("my old car")[0] == ("old",)
