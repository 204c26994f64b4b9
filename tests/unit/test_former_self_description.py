"""A list of verbless fragments describing the user is read fragment by fragment, as the sentences they
stand for; a list that reads as fewer than two such fragments forms nothing. Each expected statement was
written by hand from the utterance; each near miss names what must not form."""

import pytest

from domain.candidates import ClaimKind
from domain.formation.deterministic.former import fallback_candidates
from tests.unit.test_fallback import event
from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "52, widowed, two grown daughters, teach high school chemistry",
            {
                "User is 52.",
                "User is widowed.",
                "User has two grown daughters.",
                "User teaches high school chemistry.",
            },
        ),
        ("engaged, one stepson, live near Boise", {"User is engaged.", "User has one stepson."}),
        ("Mom of 3, part-time nurse", {"User is a mom of 3.", "User is a part-time nurse."}),
        ("vegetarian, married, 2 cats", {"User is vegetarian.", "User is married."}),
        ("married for 12 years, 4 kids", {"User is married for 12 years.", "User has 4 kids."}),
    ],
)
def test_each_fragment_forms_its_claim(text: str, expected: set[str]) -> None:
    assert expected <= statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "eggs, milk, two onions, bread",  # a shopping list
        "2, maybe 3",
        "Monday, Tuesday at 3pm",
        "20, 30, 40, divorced",  # a list of numbers is no age
        "ok, thanks, that helps",
        "divorced, sadly",  # one fragment alone is no list of them
        "If I were 40, married, with three kids, would I still do it?",
    ],
)
def test_a_list_that_is_no_self_description_forms_nothing(text: str) -> None:
    assert statements(text) == set()


def test_an_age_is_filed_as_who_the_user_is() -> None:
    formed = fallback_candidates([event("44, divorced, work in sales")])
    assert {(c.claim_kind, c.statement) for c in formed} >= {(ClaimKind.ROLE, "User is 44.")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dog person, obviously.", "User is a dog person."),
        ("Early riser.", "User is an early riser."),
        ("Introvert, mostly.", "User is an introvert."),
        ("Huge tea snob here.", "User is a huge tea snob."),
        ("Wedding florist in Bath, ten years now.", "User is a wedding florist in Bath."),
        ("Pediatrician, part-time.", "User is a pediatrician."),
        ("Hotel electrician, nights mostly.", "User is a hotel electrician."),
        ("Jazz lover here.", "User is a jazz lover."),
    ],
)
def test_a_kind_of_person_with_its_i_am_left_out_forms_who_the_user_is(text: str, expected: str) -> None:
    # A head naming a kind of person ("person", "owl", "snob", "lover") or a person by its ending ("-ist",
    # "-ician"), not only the roles listed by name.
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "Dentist appointment tomorrow.",
        "Big fan of your work!",
        "Playlist, please.",
        "Checklist for the move?",
        "The person at the desk was rude.",
        "Assist me with this.",
        "Dog person or cat person?",
        "Exist, resist, persist.",
    ],
)
def test_a_phrase_that_only_looks_like_a_kind_of_person_forms_nothing(text: str) -> None:
    assert statements(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Crane operator, 30 years.", "User is a crane operator."),
        ("Night cleaner at the hospital.", "User is a night cleaner at the hospital."),
        ("Dog groomer in Leeds.", "User is a dog groomer in Leeds."),
        ("Forklift driver, mostly days.", "User is a forklift driver."),
        ("School bus dispatcher here.", "User is a school bus dispatcher."),
    ],
)
def test_an_agent_noun_with_its_i_am_left_out_forms_who_the_user_is(text: str, expected: str) -> None:
    # No role list names these: the noun is one who does what its verb says ("operate", "clean", "groom").
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "Dentist at 3, then groceries.",  # an appointment with one, a listed role's noun
        "Hairdresser on Friday, then lunch with Mum.",
        "Vet at 10am tomorrow for the cat.",
        "Shower in the morning then work.",
        "Nurse at the desk was rude.",  # the role is the subject of its own verb
        "Number at the top is wrong.",
        "Printer at work is jammed again.",
        "Charger for my laptop, where is it?",  # "charge" + "-er", by the user's own thing
        "Mother in hospital, visiting tonight.",
    ],
)
def test_a_role_noun_that_is_an_appointment_a_subject_or_a_thing_forms_no_role(text: str) -> None:
    assert not any(statement.startswith("User is a") for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dad of 3 boys, all under 6", "User is a dad of 3 boys."),
        ("Proud mum of twins.", "User is a proud mum of twins."),
        ("Single father of two, full-time.", "User is a single father of two."),
    ],
)
def test_a_parent_of_some_with_i_am_left_out_forms_who_the_user_is(text: str, expected: str) -> None:
    # Each formed nothing alone: a parent read only in a list of two or more fragments.
    assert expected in statements(text)


@pytest.mark.parametrize("text", ["Dad of the bride here, any speech tips?", "Mom of my friend called."])
def test_a_parent_of_someone_else_forms_no_claim_of_the_user(text: str) -> None:
    assert not any(statement.startswith("User is a") for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("About me: retired teacher, 67, widowed.", "User is a retired teacher."),
        ("Background: night nurse, 41, two kids.", "User is a night nurse."),
    ],
)
def test_a_label_before_a_colon_is_no_part_of_the_first_fragment(text: str, expected: str) -> None:
    # The label's words kept the role out of the first fragment's first words.
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Been a smoker for 20 years, quit in January.", "User has been a smoker for 20 years."),
        ("been vegan since 2015", "User has been vegan since 2015."),
    ],
)
def test_been_with_its_ive_left_out_and_a_duration_is_a_standing_state(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize("text", ["Been a while!", "Been busy lately.", "Been there, done that."])
def test_been_without_a_duration_forms_nothing(text: str) -> None:
    assert statements(text) == set()


@pytest.mark.parametrize("text", ["Been there for 5 years, loved it.", "been on hold for 20 minutes"])
def test_been_with_a_pointer_or_a_moments_duration_forms_nothing(text: str) -> None:
    assert statements(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Night porter, mostly overnights.", {"User is a night porter.", "User works mostly overnights."}),
        ("ER nurse, nights, two kids.", {"User is an ER nurse.", "User works nights.", "User has two kids."}),
        ("Crane operator, nights, 5 on 2 off.", {"User is a crane operator.", "User works nights."}),
    ],
)
def test_a_shift_beside_a_role_is_when_the_user_works(text: str, expected: set[str]) -> None:
    formed = statements(text)
    assert expected <= formed
    assert not any(statement.startswith("User 5") for statement in formed)  # a number is no verb


@pytest.mark.parametrize(
    "text", ["Nights, days, whenever really.", "Hiking, weekends mostly, and nights out with friends."]
)
def test_a_shift_word_without_a_role_is_no_work(text: str) -> None:
    assert not any(statement.startswith("User works") for statement in statements(text))


@pytest.mark.parametrize(
    "text",
    [
        "Flower at the window",  # "flow" + "-er", but "to flower" is a verb of its own: a thing, no person
        "Shower at the gym then work.",
        "Corner table at Luigi's, 8pm.",
    ],
)
def test_a_fragment_noun_that_is_no_person_or_agent_forms_no_role(text: str) -> None:
    assert not any(statement.startswith("User is a") for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Bus driver, 14 years", "User is a bus driver."),
        ("Crane operator, 30 years.", "User is a crane operator."),
        ("I'm a forklift driver.", "User is a forklift driver."),
        ("I am a night cleaner at the hospital.", "User is a night cleaner at the hospital."),
    ],
)
def test_an_agent_noun_the_user_is_is_filed_as_a_role(text: str, expected: str) -> None:
    # The ninth pass formed these and filed them as project facts: no role list names the noun.
    assert (expected, ClaimKind.ROLE) in {
        (c.statement, c.claim_kind) for c in fallback_candidates([event(text)])
    }


def test_a_comparative_shaped_like_an_agent_noun_is_no_role() -> None:
    # "thinner" is "thin" + "-er" and "thinning" lemmatizes to "thin", but the word is the adjective's.
    kinds = {c.statement: c.claim_kind for c in fallback_candidates([event("I'm on blood thinners.")])}
    assert kinds == {"User is on blood thinners.": ClaimKind.PROJECT_FACT}
