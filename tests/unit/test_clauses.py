import pytest

from domain.formation.clauses import MAX_CLAUSE_CHARS, split_clauses


def texts(text: str) -> list[str]:
    return [c.text for c in split_clauses(7, text)]


def test_units_are_exact_slices_with_stable_ids() -> None:
    text = "I swim. I run!  Do you?"
    clauses = split_clauses(7, text)
    assert [c.id for c in clauses] == ["7:0", "7:1", "7:2"]
    for clause in clauses:
        assert text[clause.start : clause.end] == clause.text
    assert split_clauses(7, text) == clauses


@pytest.mark.parametrize(
    "sentence",
    [
        "I use tools, e.g. ripgrep and fd, every day.",
        "I compared it with i.e. the old one.",
        "Dr. Smith and Mr. Jones met at 7 a.m. in the U.S. office.",
        "I upgraded to v2.1.3 last week.",
        "The config is at /etc/app/conf.d/main.yaml on the server.",
        "I run Python 3.11.4 with numpy 1.26.",
        "It costs 2.50 dollars, roughly 0.5 percent more.",
        "See https://example.com/a.b/c.html for details.",
        "We need apples, pears, etc. for the party.",
    ],
)
def test_period_inside_a_clause_does_not_end_it(sentence: str) -> None:
    assert texts(sentence) == [sentence]


def test_period_before_whitespace_or_end_ends_a_clause() -> None:
    assert texts("I swim daily. It helps.") == ["I swim daily.", "It helps."]
    assert texts("Version is 1.2. Next.") == ["Version is 1.2.", "Next."]


def test_first_person_boundaries() -> None:
    assert texts("I lift on Mondays, and I swim on Fridays") == ["I lift on Mondays", "I swim on Fridays"]
    assert texts("I like tea; I hate coffee") == ["I like tea", "I hate coffee"]
    assert texts("I tried it but I stopped") == ["I tried it", "I stopped"]
    assert texts("I am building an agent and I am stuck") == ["I am building an agent", "I am stuck"]
    # A compound subject is not a boundary.
    assert texts("My wife and I swim on weekends.") == ["My wife and I swim on weekends."]


def test_quotes_lists_emoji_and_other_scripts() -> None:
    assert texts('He said "I swim." Then he left.') == ['He said "I swim."', "Then he left."]
    assert texts("Goals:\n- run a 10k\n- swim 2 km\n1. first\n2. second") == [
        "Goals:",
        "- run a 10k",
        "- swim 2 km",
        "1. first",
        "2. second",
    ]
    assert texts("I love 🏊 and 🚴! Great 🎉") == ["I love 🏊 and 🚴!", "Great 🎉"]
    assert texts("我喜欢游泳。你呢？") == ["我喜欢游泳。", "你呢？"]
    assert texts("Я плаваю каждый день. Это помогает.") == ["Я плаваю каждый день.", "Это помогает."]
    assert texts("أنا أسبح كل يوم") == ["أنا أسبح كل يوم"]


def test_blank_punctuation_and_control_characters() -> None:
    assert texts("") == []
    assert texts("   \n\t  ") == []
    assert texts("... !!! ???") == []
    assert texts("I swim\x00 daily\x07.") == ["I swim\x00 daily\x07."]


def test_unpunctuated_megabyte_splits_bounded() -> None:
    # Speed is the benchmark's job (benchmarks/fallback_throughput.py); this pins the bounds.
    text = "word " * 210_000
    clauses = split_clauses(1, text)
    assert all(len(c.text) <= MAX_CLAUSE_CHARS for c in clauses)
    assert sum(len(c.text) for c in clauses) >= len(text.strip()) - len(clauses)
    no_space = "a" * 1_048_576
    clauses = split_clauses(1, no_space)
    assert "".join(c.text for c in clauses) == no_space
