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
