"""A standing wish is rendered as a person would write it: what it is about, then what is to be done with
it ("User does not want jargon used."), not as an order to the assistant. Each expected statement was written
by hand from the utterance; each near miss names what must not form."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please never mention calories to me.", "User does not want calories mentioned to them."),
        ("Stop suggesting podcasts, I never listen to them.", "User does not want podcasts suggested."),
        ("please don't recommend chain restaurants", "User does not want chain restaurants recommended."),
        ("Always include the page numbers.", "User wants the page numbers always included."),
        ("Never suggest hikes without shade.", "User does not want hikes without shade suggested."),
        ("Please describe charts with words.", "User wants charts described with words."),
        (
            "Could you stop using headings in every answer?",
            "User does not want headings used in every answer.",
        ),
        ("Please keep recipes under 30 minutes.", "User wants recipes kept under 30 minutes."),
        ("Never schedule calls before 10am.", "User does not want calls scheduled before 10am."),
        ("big fonts from now on", "User wants big fonts."),
        ("pls no long intros", "User does not want long intros."),
        ("No emojis please, and no exclamation marks.", "User does not want exclamation marks."),
        ("Please don't send me links to paywalled sites.", "User does not want links to paywalled sites."),
        ("Please always send me the total in dollars.", "User wants the total in dollars."),
        ("Don't call me ma'am, call me Ruth.", "User wants to be called Ruth."),
    ],
)
def test_a_wish_names_its_thing_first(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # No noun phrase after the verb: the wish stays an instruction.
        ("Please always answer in Spanish.", "User wants the assistant to always answer in Spanish."),
        ("Never call me sir.", "User wants the assistant never to call them sir."),
    ],
)
def test_a_wish_without_an_object_stays_an_instruction(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "Please keep the tone casual.",  # where the object ends is not known
        "Please give me three more ideas.",  # one piece of work, not a standing wish
        "Please don't make the font so small.",  # cut before its complement
        "Please don't give me the answer, just a hint.",  # about this answer
        "Don't tell me the ending please!",
        "Please suggest hikes with shade.",
        "short answers are fine for now",
    ],
)
def test_a_one_off_or_unclear_wish_forms_no_rendered_wish(text: str) -> None:
    assert not any("want" in statement for statement in statements(text))


@pytest.mark.parametrize(
    "text", ["They call me Red at work.", "Can you call me a taxi?", "call me when you can"]
)
def test_a_name_wish_needs_an_instruction_and_a_name(text: str) -> None:
    assert not any("to be called" in statement for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I'm new to running so please be patient with me.",
            "User wants the assistant to be patient with them.",
        ),
        ("I'm a slow reader so go easy on me.", "User wants the assistant to go easy on them."),
        (
            "So remind me to water the tomatoes every evening.",
            "User wants the assistant to remind them to water the tomatoes every evening.",
        ),
        ("My spelling is awful so please flag my typos.", "User wants their typos flagged."),
        ("I'm learning French, so correct my grammar please.", "User wants their grammar corrected."),
    ],
)
def test_a_polite_or_so_instruction_about_the_user_is_a_standing_wish(text: str, expected: str) -> None:
    # How the agent is to treat the user ("with me", "remind me", "my typos") holds beyond this answer.
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm stuck so give me a hint.",  # one piece of work for the user
        "so please send me the file",
        "I'm confused so explain it again.",  # about this answer, and not the user
        "So tell me about Rome.",
        "Remind me to call the bank so I don't forget.",  # "so" opens the user's own clause, not the order
    ],
)
def test_a_task_for_the_user_forms_no_wish(text: str) -> None:
    assert not any("want" in statement for statement in statements(text))


@pytest.mark.parametrize(
    "text",
    [
        "So remind me what you said earlier.",  # about this conversation
        "so be honest with me, is it good?",  # about the answer asked for
        "Please remind me.",
    ],
)
def test_an_instruction_about_the_user_for_this_answer_forms_no_wish(text: str) -> None:
    assert not any("want" in statement for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Don't give me recipes with mushrooms, I can't stand them.", "User does not want recipes with mushrooms."),
        ("Don't suggest any podcasts, I never listen.", "User does not want any podcasts suggested."),
        ("Don't recommend restaurants with loud music.", "User does not want restaurants with loud music recommended."),
    ],
)
def test_a_refused_kind_of_thing_is_a_standing_wish_without_please(text: str, expected: str) -> None:
    # Both formed no wish: without "please" or "from now on" a "don't" was read as about this answer.
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text", ["Don't tell me the ending!", "Don't worry about it.", "Don't forget the eggs.", "Don't give me the answer."]
)
def test_a_dont_about_this_answer_forms_no_wish(text: str) -> None:
    assert not any("want" in statement for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A first word that only looks like a verb ("Honestly", "Lol") yields to the "please" that opens the
        # instruction.
        ("Honestly I'm a slow reader so pls don't send me long articles.", "User does not want long articles."),
        ("Lol I hate phone calls so please use email for everything.", "User wants email used for everything."),
        # "dont" typed without its apostrophe, alone or after a comma.
        ("dont recommend chain restaurants pls", "User does not want chain restaurants recommended."),
        ("I'm vegan, dont send me recipes with eggs.", "User does not want recipes with eggs."),
        ("I work nights, don't email me newsletters.", "User does not want newsletters."),
    ],
)
def test_a_wish_opened_after_a_discourse_word_or_a_comma_is_read(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A "please" that closes a request of no verb keeps its reading from the clause's start.
        ("Metric units please, I'm in Germany.", "User wants metric units."),
        ("Short answers please, I'm busy.", "User wants short answers."),
    ],
)
def test_a_please_that_closes_a_request_does_not_open_one(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    "text",
    [
        "so i sleep till 2pm, dont message me tips for mornings",
        "I eat fish, don't eat meat.",
        "I'm tired, don't give me the lecture.",
    ],
)
def test_a_dont_after_a_comma_is_no_item_of_the_clause_before_it(text: str) -> None:
    # Each formed "User does dont ..." / "User does don't ...": the "don't" read as another verb of the list.
    assert not any(" does do" in statement for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm allergic to shellfish, so nothing with shrimp please.", "User wants nothing with shrimp."),
        ("Nothing with nuts please, my son is allergic.", "User wants nothing with nuts."),
        ("I dont like sweet food, also no spicy please", "User does not want spicy."),
    ],
)
def test_a_polite_nothing_with_a_kind_or_a_no_after_also_is_a_standing_wish(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize("text", ["nothing please, I'm fine", "so nothing else please", "Nothing for me, thanks."])
def test_a_polite_nothing_that_names_no_kind_forms_no_wish(text: str) -> None:
    assert not any(statement.startswith("User wants nothing") for statement in statements(text))
