"""Where a clause's items end and who states them: a modal opens a verb phrase of its own, a noun phrase
after a copula's comma is another complement, a narrated past continues with another past, the words before
the first "I" may leave out their own "I", a feeling leaves out its "I", and a goal may be dated. Each
expected statement was written by hand from the utterance; each near miss names what must not form."""

import pytest

from tests.unit.test_former_clause_structure import statements


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My grandma has COPD and can't climb stairs anymore.", "User's grandma has COPD."),
        ("I'm 27, second year medical student, and I live with roommates.", "User is 27."),
        (
            "I'm 27, second year medical student, and I live with roommates.",
            "User is second year medical student.",
        ),
        ("Moved to Leeds in 2019, bought a flat in 2021.", "User bought a flat in 2021."),
        (
            "Spent ten years in the Navy, then I started a landscaping business.",
            "User spent ten years in the Navy.",
        ),
        ("Hate mornings, always have.", "User hates mornings."),
        ("Worked in Dubai for years, then moved back to Cork.", "User moved back to Cork."),
        ("I switched to decaf bc my heart races.", "User switched to decaf."),
        ("Love gardening and hate weeding.", "User loves gardening."),
        (
            "My goal this summer is to swim a mile without stopping.",
            "User wants to swim a mile without stopping.",
        ),
        ("My dream is to open a bookshop.", "User wants to open a bookshop."),
    ],
)
def test_each_item_forms_its_claim(text: str, expected: str) -> None:
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("My grandma has COPD and can't climb stairs anymore.", "COPD and"),
        ("Love you guys", "User loves"),
        ("Love this idea, thanks", "User loves"),
        ("Enjoy your weekend!", "User enjoys"),
        ("Hate to bother you, but can you check this?", "User hates"),
    ],
)
def test_a_near_miss_forms_nothing_of_it(text: str, unwanted: str) -> None:
    assert not any(unwanted in statement for statement in statements(text))


def test_a_past_whose_object_only_points_back_is_no_item_of_its_own() -> None:
    assert "User named it Crumbs." not in statements("Started a blog last month and named it Crumbs.")


@pytest.mark.parametrize(
    ("text", "expected", "unwanted"),
    [
        ("I cook, my husband cleans.", "User cooks.", "User cooks their husband cleans."),
        ("I bake, my daughter decorates.", "User bakes.", "User bakes their daughter decorates."),
        ("I garden, my partner did the patio.", "User gardens.", "User gardens their partner did the patio."),
    ],
)
def test_a_relatives_own_statement_after_a_comma_ends_the_item(text: str, expected: str, unwanted: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert unwanted not in formed


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I don't drive, my wife does.", "User does not drive their wife does."),
        ("I don't cook, my husband does.", "User does not cook their husband does."),
    ],
)
def test_a_negation_cut_before_a_relatives_do_forms_no_bare_negation(text: str, unwanted: str) -> None:
    # "I don't drive" with nothing after the verb is left alone, as "I don't swim." is by the fallback gate.
    formed = statements(text)
    assert unwanted not in formed
    assert not any(statement.startswith("User does not") for statement in formed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I've never been to Asia.", {"User has never been to Asia."}),
        ("I have never been on a plane.", {"User has never been on a plane."}),
        # A lapse narrated up to now, as "I haven't had time" is, states no standing negation.
        ("I haven't been to the gym since January.", set()),
        ("I haven't been to church in years.", set()),
    ],
)
def test_a_negated_perfect_copula_keeps_its_perfect(text: str, expected: set[str]) -> None:
    # Both formed "User is never to Asia." / "User is not to the gym." before.
    assert statements(text) == expected


@pytest.mark.parametrize(
    ("text", "expected", "bare"),
    [
        ("I swim laps every morning.", "User swims laps every morning.", "User swims every morning."),
        ("I bike to work every day.", "User bikes to work every day.", "User bikes every day."),
        ("I run 5k three mornings a week.", "User runs 5k three mornings a week.", "User runs."),
        ("I hike with my dog on weekends.", "User hikes with their dog on weekends.", "User hikes on weekends."),
    ],
)
def test_an_activity_keeps_what_the_user_does_with_it(text: str, expected: str, bare: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert bare not in formed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "I swim, run and bike on other days.",
            {"User swims on other days.", "User runs on other days.", "User bikes on other days."},
        ),
        ("I swim twice a week.", {"User swims twice a week."}),
    ],
)
def test_a_list_of_activities_or_a_bare_one_keeps_its_schedule(text: str, expected: set[str]) -> None:
    assert expected <= statements(text)


def test_an_activity_keeps_no_next_item_as_its_object() -> None:
    assert "User hikes bake bread." not in statements("On Sundays I hike, bake bread and do a bit of pottery.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm a PhD student in chemistry, writing up my thesis.", "User is writing up their thesis."),
        ("I'm in year 12, revising for my A levels.", "User is revising for their A levels."),
        ("I'm a nurse on a cardiac ward, training to be a midwife.", "User is training to be a midwife."),
    ],
)
def test_a_gerund_after_a_copulas_comma_is_what_the_user_is_doing(text: str, expected: str) -> None:
    # The first complement's preposition ("in chemistry") kept the gerund from reading as an item of its own.
    assert expected in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I'm into hiking and running.", "User is running."),
        ("I'm at the office in town, heading out soon.", "User is heading out soon."),
        ("I'm in Leeds for work, waiting for a train.", "User is waiting for a train."),
    ],
)
def test_a_gerund_of_the_moment_or_a_coordinated_object_is_no_item(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)


def test_a_list_of_gerunds_after_a_copula_stays_one_list() -> None:
    formed = statements("I'm usually either surfing at the point, fishing with my brother, or napping.")
    assert "User is usually either surfing at the point." not in formed
    assert "User is fishing with their brother, or napping." not in formed


@pytest.mark.parametrize(
    ("text", "expected", "bare"),
    [
        ("On weekends I go hiking.", "User hikes on weekends.", "User hikes."),
        ("Every morning I swim.", "User swims every morning.", "User swims."),
        ("On Sundays I bike with my son.", "User bikes with their son on Sundays.", "User bikes with their son."),
    ],
)
def test_a_schedule_before_the_subject_stays_with_the_activity(text: str, expected: str, bare: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert bare not in formed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I like hiking and camping.", {"User likes hiking.", "User likes camping."}),
        ("I love jazz and old films.", {"User loves jazz.", "User loves old films."}),
        ("I enjoy cooking and the occasional board game.", {"User enjoys the occasional board game."}),
        ("I hate mornings, traffic and small talk.", {"User hates traffic.", "User hates small talk."}),
        ("I use Excel and Tableau daily.", {"User uses Tableau daily."}),
    ],
)
def test_each_object_of_a_feeling_or_use_forms_its_claim(text: str, expected: set[str]) -> None:
    # Only the first object formed before ("User likes hiking.").
    assert expected <= statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I love my job and my coworkers are great.", "User loves their coworkers are great."),
        ("I like tea and it keeps me calm.", "User likes it keeps them calm."),
        ("I love Paris and then we went to Nice.", "User loves then we went to Nice."),
    ],
)
def test_a_statement_after_the_coordinator_is_no_object(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I don't drink, 6 years sober this month.", "User does not drink 6 years sober this month."),
        ("I don't smoke, quit in 2015.", "User does not smoke quit in 2015."),
    ],
)
def test_a_comma_after_a_negated_verb_ends_its_object(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I'm not into it.", "User is not into it."),
        ("I'm always behind on it.", "User is always behind on it."),
        ("I'm on it.", "User is on it."),
        ("I live with it.", "User lives with it."),
    ],
)
def test_a_preposition_before_a_pointer_only_points_back(text: str, unwanted: str) -> None:
    # "it" names something said before; with only a preposition before it the claim says nothing alone.
    assert unwanted not in statements(text)


def test_the_field_it_is_no_pointer() -> None:
    assert "User works in IT." in statements("I work in IT.")


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I'm 40 and still can't swim.", "User is 40 and still can't swim."),
        ("I'm 52 and still can't drive.", "User is 52 and still can't drive."),
    ],
)
def test_an_adverb_before_a_modal_opens_its_own_verb_phrase(text: str, unwanted: str) -> None:
    formed = statements(text)
    assert unwanted not in formed
    assert not any("still can't" in statement for statement in formed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I have a son, 12, and a daughter, 9.", {"User has a son.", "User has a daughter."}),
        ("I've got a stepson, 15, and a niece, 6, living with us.", {"User has a stepson."}),
    ],
)
def test_a_relatives_age_after_a_comma_is_an_aside(text: str, expected: set[str]) -> None:
    formed = statements(text)
    assert expected <= formed
    assert not any(statement.endswith((", 9.", ", 6.", ", 12.")) for statement in formed)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm booked solid until March.", "User is booked solid until March."),
        ("I'm on parental leave until June.", "User is on parental leave until June."),
        ("I'm teaching in Seoul until 2027.", "User is teaching in Seoul until 2027."),
    ],
)
def test_until_a_date_stays_with_the_statement(text: str, expected: str) -> None:
    # Each was cut before "until" ("User is on parental leave."), which only ends a clause of its own.
    assert expected in statements(text)


def test_until_a_clause_of_its_own_still_ends_the_statement() -> None:
    formed = statements("I'm staying with my parents until I find a flat.")
    assert "User is staying with their parents." in formed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I never learned to ride a bike.", "User never learned to ride a bike."),
        ("I've never learned to drive.", "User has never learned to drive."),
    ],
)
def test_never_before_an_infinitive_is_a_standing_negation(text: str, expected: str) -> None:
    # Both formed nothing: "to" was read as a pronoun object, as in "I don't want to."
    assert expected in statements(text)


@pytest.mark.parametrize("text", ["I don't want to.", "I don't want to go.", "I never meant to."])
def test_a_negated_infinitive_of_the_moment_forms_nothing(text: str) -> None:
    assert statements(text) == set()


@pytest.mark.parametrize(
    ("text", "expected", "unwanted"),
    [
        (
            "I work in a bank and on weekends I cook.",
            {"User works in a bank.", "User cooks on weekends."},
            "User works in a bank and on weekends.",
        ),
        (
            "I drive a bus, and at night I paint.",
            {"User drives a bus."},
            "User drives a bus, and at night.",
        ),
    ],
)
def test_a_time_before_the_next_i_opens_its_clause(text: str, expected: set[str], unwanted: str) -> None:
    # The first predicate ran on to the next "I" and took its time along.
    formed = statements(text)
    assert expected <= formed
    assert unwanted not in formed


def test_an_object_before_a_later_i_stays_with_its_verb() -> None:
    assert "User likes camping." in statements("I like hiking and camping I guess.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I like to paint.", "User likes to paint."),
        ("I like to read before bed.", "User likes to read before bed."),
        ("On my days off I like to bake bread.", "User likes to bake bread."),
    ],
)
def test_like_before_an_infinitive_is_an_interest(text: str, expected: str) -> None:
    # Each formed nothing ("I love to cook" formed its claim).
    assert expected in statements(text)


@pytest.mark.parametrize("text", ["I like to think I'm a decent cook.", "I like to say it's a hobby."])
def test_like_to_before_a_thought_forms_no_interest(text: str) -> None:
    assert not any(statement.startswith("User likes to") for statement in statements(text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm afraid of flying.", "User is afraid of flying."),
        ("I'm terribly afraid of dogs.", "User is terribly afraid of dogs."),
    ],
)
def test_afraid_of_something_is_a_standing_fear(text: str, expected: str) -> None:
    # Both formed nothing: "afraid" was read only as the conversation's ("I'm afraid I can't").
    assert expected in statements(text)


@pytest.mark.parametrize("text", ["I'm afraid I can't help with that.", "I'm afraid not."])
def test_a_polite_afraid_forms_nothing(text: str) -> None:
    assert statements(text) == set()


@pytest.mark.parametrize(
    ("text", "expected", "unwanted"),
    [
        (
            "I've been learning piano for two years.",
            "User has been learning piano for two years.",
            "User is learning piano for two years.",
        ),
        ("I'm learning Portuguese.", "User is learning Portuguese.", "User has been learning Portuguese."),
    ],
)
def test_learning_keeps_its_perfect(text: str, expected: str, unwanted: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert unwanted not in formed


@pytest.mark.parametrize(
    ("text", "expected", "unwanted"),
    [
        ("I was vegan in college.", "User was vegan in college.", "User is vegan in college."),
        (
            "I've been a vegetarian for years.",
            "User has been a vegetarian for years.",
            "User is a vegetarian for years.",
        ),
        ("I'm gluten intolerant.", "User is gluten intolerant.", "User was gluten intolerant."),
    ],
)
def test_a_limit_keeps_its_tense(text: str, expected: str, unwanted: str) -> None:
    formed = statements(text)
    assert expected in formed
    assert unwanted not in formed


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("we just moved house, my youngest started school", "User just moved house, their youngest started school."),
        ("I sold the van, my knee gave out", "User sold the van, their knee gave out."),
    ],
)
def test_a_things_own_past_after_a_comma_ends_the_item(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I like tea and the way it smells.", "User likes the way it smells."),
        ("I love him and his family.", "User loves his family."),
    ],
)
def test_a_clause_or_a_pronouns_company_is_no_further_object(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)


@pytest.mark.parametrize(
    ("text", "unwanted"),
    [
        ("I hike when I can.", "User hikes when."),
        ("I swim like a brick lol.", "User swims like a brick lol."),
    ],
)
def test_an_activity_keeps_no_clause_comparison_or_filler_as_its_object(text: str, unwanted: str) -> None:
    assert unwanted not in statements(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I eat at odd hours and the canteen shuts at 8.", {"User eats at odd hours."}),
        (
            "I have glaucoma in my left eye and the right one is going too.",
            {"User has glaucoma in their left eye."},
        ),
        (
            "I do my best thinking at night, and my manager keeps booking 8am calls.",
            {"User does their best thinking at night.", "User's manager keeps booking 8am calls."},
        ),
        # A plural noun ending the part is no verb: the odd coins are more of what is collected.
        ("I collect stamps and the odd coins.", {"User collects stamps and the odd coins."}),
    ],
)
def test_another_subjects_own_verb_after_and_ends_the_item(text: str, expected: set[str]) -> None:
    assert statements(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A number alone after what the user is, after a comma, is their age; an age takes nothing more.
        (
            "I'm a barista, 19, and I'm also at uni.",
            {"User is a barista.", "User is 19.", "User is also at uni."},
        ),
        ("I'm a plumber, 52.", {"User is a plumber.", "User is 52."}),
    ],
)
def test_an_age_after_a_copulas_comma_is_a_complement_of_its_own(text: str, expected: set[str]) -> None:
    assert statements(text) == expected


def test_an_age_takes_nothing_more() -> None:
    formed = statements("I'm 70 and my son set this up for me.")
    assert "User is 70." in formed
    assert not any(statement.startswith("User is 70 ") for statement in formed)
