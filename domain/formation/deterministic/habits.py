"""Habits and history: what the user does on a schedule ("I swim on other days", "I do 5x5 2-3x a week") and
has done for years ("I've trained most of my life", "six years of gymnastic strength training")."""

import re

from domain.candidates import ClaimKind, Longevity
from domain.formation.deterministic.claims import Claim, direct_claim
from domain.formation.deterministic.clause_words import FILLERS, STOP
from domain.formation.deterministic.kinds import by_noun
from domain.formation.deterministic.parsing import (
    AUX,
    Parse,
    aspect_of,
    content_words,
    cut,
    kept_rest,
    phrase_of,
)
from domain.formation.deterministic.patterns import folded, frequency, hinted
from domain.formation.deterministic.predicate_words import (
    ACTIVITY_CARRIERS,
    EXPERIENCE_VERBS,
    FREQUENCY_ADVERBS,
)
from domain.formation.deterministic.topic_words import (
    ACTIVITIES,
    NOUN_ACTIVITIES,
    TRAINING_WORDS,
    Activity,
    is_program,
)
from domain.formation.language import STOPWORDS, Token
from domain.formation.rendering import Aspect, Predicate, conflict_key, third_person

# The lookahead skips positions no alternative opens at (a leading \b gets no prefix scan): patterns.py.
_LIFETIME = re.compile(
    r"(?=[fmas])\b(?:for\s+(?:about\s+|around\s+|roughly\s+|almost\s+|nearly\s+|over\s+|more\s+than\s+|the\s+(?:last|past)\s+)?(?:\d+|a\s+few|a\s+couple\s+of|several|many|two|three|four|five|six|seven|eight|nine|ten|twenty|\w+teen)\s+(?:years?|decades?)"
    r"|for\s+(?:years|decades)|most\s+of\s+my\s+(?:adult\s+)?life|all\s+my\s+life|my\s+whole\s+life|since\s+I\s+was)\b",
    re.IGNORECASE,
)
_LIFETIME_HINTS = ("year", "decade", "life", "since")
# Years of something as the cause of what the clause has: "from years of" ("after years of calisthenics" is
# what came before, experience).
_CAUSED = re.compile(r"\b(?:from|because\s+of|due\s+to)\s+$", re.IGNORECASE)
_YEARS_OF = re.compile(
    r"(?P<q>\b(?:(?:about|around|roughly|almost|nearly|over|more\s+than|some)\s+)?(?:(?:\d+|a\s+few|several|many|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+)?)"
    r"years?\s+of\s+(?P<x>[^\W\d_][\w\s-]*?)(?=\s*(?:[,.;:!?)]|$)|\s+(?:and|but|before|after|so|then|which|that|because|when|with|in|at|on)\b)",
    re.IGNORECASE,
)
_YEARS_OF_HINTS = ("year",)
# What opens no object after an activity verb: a clause of its own or a comparison.
_NO_OBJECT = STOP | {"like"}


def activity_of(tok: Token, as_verb: bool) -> Activity | None:
    key = tok.lemma
    activity = ACTIVITIES.get(key)
    if activity is None:
        return None
    if key in NOUN_ACTIVITIES or as_verb:
        return activity
    return activity if tok.lower == activity.gerund else None


def _activity_list(text: str, tokens: list[Token], first_is_verb: bool) -> list[tuple[Token, Activity]]:
    """The first run of coordinated activities ("swimming, running and biking"), each atomically."""
    found: list[tuple[Token, Activity]] = []
    for index, tok in enumerate(tokens):
        activity = activity_of(tok, as_verb=first_is_verb and index == 0 or (first_is_verb and bool(found)))
        if activity is None:
            if found and tok.lower not in ("and", "or", "plus"):
                break
            continue
        if found:
            gap = text[found[-1][0].end : tok.start].strip(" ,&").lower()
            if gap not in ("", "and", "or", "plus", "as well as", "and also", "and then"):
                break
        if all(a.gerund != activity.gerund for _, a in found):
            found.append((tok, activity))
    return found


def habit_claims(text: str, parse: Parse, region_end: int) -> list[Claim]:
    claims: list[Claim] = []
    main = parse.lemma
    rest = parse.rest
    aspect, _ = aspect_of(parse)
    if aspect not in (Aspect.SIMPLE, Aspect.PROGRESSIVE):
        return claims
    verb_is_activity = main in ACTIVITIES and (
        not rest
        or rest[0].lower
        not in (
            "a",
            "an",
            "the",
            "my",
            "this",
            "that",
            "our",
            "his",
            "her",
            "their",
            "some",
            "it",
            "late",
            "out",
            "into",
        )
    )
    freq = frequency(text, parse.verb.start, region_end)
    if aspect is Aspect.PROGRESSIVE and freq is None:
        return claims
    # The routine: a named program ("5x5") with its schedule.
    program_at = next((i for i, t in enumerate(rest) if is_program(t.lower)), None)
    bounded = kept_rest(parse, text)
    if freq is not None and (not bounded or freq.start() > bounded[-1].end):
        freq = None
    if program_at is not None and freq is not None and main in {"do", "run", "follow", "train", "use", "be"}:
        program = rest[program_at].lower
        object_tokens = [t for t in rest if t.end <= freq.end()]
        kept = cut(object_tokens, text)
        complement = phrase_of(text, kept)
        if freq.end() > (kept[-1].end if kept else 0):
            complement = text[rest[0].start : freq.end()] if rest else freq.group(0)
        claims.append(
            direct_claim(
                ClaimKind.HABIT,
                f"routine:{program}",
                Predicate(main if main != "be" else "do", parse.verb.text, Aspect.SIMPLE, complement),
                Longevity.ONGOING,
            )
        )
    # Coordinated activities, each its own habit with the schedule that follows the list.
    if verb_is_activity or main in ACTIVITY_CARRIERS or program_at is not None:
        candidates = ([parse.verb] if verb_is_activity else []) + rest
        activities = _activity_list(text, candidates, first_is_verb=verb_is_activity)
        if activities:
            after = activities[-1][0].end
            schedule = frequency(text, after, region_end) or freq
            qualifier = schedule.group(0) if schedule is not None and schedule.start() >= after else ""
            if not qualifier and parse.lead:
                # "Every morning I swim": the schedule said before the subject.
                qualifier = parse.lead[:1].lower() + parse.lead[1:]
            # The verb alone its activity: what it does before the schedule stays with it ("I swim laps
            # every morning", "I run 5k three mornings a week", "I hike with my dog on weekends").
            done = (
                _done_before(text, parse, schedule.start() if qualifier and schedule is not None else None)
                if verb_is_activity and len(activities) == 1
                else ""
            )
            for _, activity in activities:
                complement = " ".join(part for part in (activity.complement, done, qualifier) if part)
                claims.append(
                    direct_claim(
                        ClaimKind.HABIT,
                        f"activity:{activity.gerund}",
                        Predicate(activity.verb, activity.verb, Aspect.SIMPLE, complement),
                        Longevity.ONGOING,
                    )
                )
    plain = main not in AUX or main in ("do", "have") and rest and rest[0].lower not in ("not", "to", "no")
    if not claims and freq is None and aspect is Aspect.SIMPLE and plain:
        # A schedule said before the verb: "I usually go to bed around 11", "Every Friday I call my mom".
        often = [a for a in parse.adverbs if a in FREQUENCY_ADVERBS]
        kept = kept_rest(parse, text)
        if (often or parse.lead) and kept and any(t.lemma not in STOPWORDS for t in kept):
            lead = parse.lead[:1].lower() + parse.lead[1:] if parse.lead else ""
            complement = " ".join(p for p in (phrase_of(text, kept), lead) if p)
            claims.append(
                direct_claim(
                    ClaimKind.HABIT,
                    conflict_key("habit", [main] + content_words(kept)),
                    Predicate(main, " ".join([*often, third_person(main)]), Aspect.BARE, complement),
                    Longevity.ONGOING,
                )
            )
    if not claims and freq is not None and aspect is Aspect.SIMPLE and plain:
        kept = kept_rest(parse, text)
        # The schedule must belong to this predicate, not to a subordinate clause after a cut.
        if kept and kept[-1].end >= freq.end() and any(t.lemma not in STOPWORDS for t in kept):
            words = [main] + content_words(kept)
            claims.append(
                direct_claim(
                    ClaimKind.HABIT,
                    conflict_key("habit", words),
                    Predicate(main, parse.verb.text, Aspect.SIMPLE, phrase_of(text, kept)),
                    Longevity.ONGOING,
                )
            )
    return claims


def _done_before(text: str, parse: Parse, schedule_at: int | None) -> str:
    """The words right after an activity verb up to its schedule (or the end of what the clause states);
    none after a comma ("On weekends I hike, bake bread and ...": the next item)."""
    kept = kept_rest(parse, text)
    if not kept or text[parse.verb.end : kept[0].start] != " " or kept[0].lower in _NO_OBJECT:
        return ""  # "I hike when I can", "I swim like a brick": a clause or a comparison, not what is done
    done = [t for t in kept if schedule_at is None or t.end <= schedule_at]
    while done and done[-1].lower in FILLERS:
        done.pop()
    return phrase_of(text, done)


def history_claims(text: str, parse: Parse, region_end: int) -> list[Claim]:
    claims: list[Claim] = []
    aspect, surface = aspect_of(parse)
    region = text[parse.verb.start : region_end]
    low = folded(region)
    lifetime = _LIFETIME.search(text, parse.verb.start, region_end) if hinted(low, _LIFETIME_HINTS) else None
    if lifetime is not None and lifetime.group(0)[:1] in "sS":
        # "I'm a big fan, been going to Anfield since I was a kid": the user's age dates another clause's
        # statement when the cut leaves it out.
        dated = kept_rest(parse, text)
        if not dated or dated[-1].end < lifetime.end():
            lifetime = None
    restarting = parse.lemma in {"restart", "resume", "return", "start"}
    experienced = (
        parse.lemma in EXPERIENCE_VERBS or parse.lemma in ACTIVITIES or parse.lemma in TRAINING_WORDS
    )
    # One scan serves both questions: whether a restart names years of something, and which years.
    all_years = (
        list(_YEARS_OF.finditer(region))
        if (restarting or experienced) and hinted(low, _YEARS_OF_HINTS)
        else []
    )
    restart = restarting and (_mentions_training_word(parse.tokens) or bool(all_years))
    years_of = all_years if experienced else []
    main_is_years = parse.lemma == "have" and bool(years_of)
    if (
        (lifetime is not None or restart or parse.used_to)
        and not main_is_years
        and aspect is not Aspect.PROGRESSIVE
    ):
        kept = kept_rest(parse, text)
        if lifetime is not None and (not kept or kept[-1].end < lifetime.end()):
            # The duration is the point of a history claim; keep it even past a cut.
            kept = [t for t in parse.rest if t.end <= lifetime.end()]
        complement = phrase_of(text, kept)
        if aspect is Aspect.SIMPLE and lifetime is not None:
            aspect = Aspect.PERFECT
        if parse.lemma == "have" and parse.verb.lower == "got":
            aspect, surface = Aspect.PERFECT, "had"  # "I've got asthma since I was 6": had it since
        # A history of an illness ("I've had asthma since I was 6") is the recurring condition it names, not
        # experience.
        kind, longevity = ClaimKind.SKILL, Longevity.DURABLE
        named = by_noun([t.lemma for t in kept], kept)
        if named is not None and named[0] is ClaimKind.RECURRING_STATE:
            kind, longevity = named
        claims.append(
            direct_claim(
                kind,
                conflict_key("history", [parse.lemma] + content_words(kept)),
                Predicate(parse.lemma, surface, aspect, complement),
                longevity,
            )
        )
    for match in years_of:
        what = match.group("x").strip()
        if not what or what.lower() in ("age", "experience"):
            continue
        if _CAUSED.search(region, 0, match.start()) is not None:
            continue  # "a herniated disc from years of hauling pots": what the years caused, not experience
        quantity = match.group("q").strip()
        phrase = f"{quantity} years of {what}".strip() if quantity else f"years of {what}"
        tail = "" if what.lower().endswith(("experience", "practice")) else " experience"
        claims.append(
            direct_claim(
                ClaimKind.SKILL,
                conflict_key("history", what),
                Predicate("have", "has", Aspect.SIMPLE, f"{phrase}{tail}"),
            )
        )
    return claims


def _mentions_training_word(tokens: list[Token]) -> bool:
    return any(t.lemma in TRAINING_WORDS or t.lower in TRAINING_WORDS or is_program(t.lower) for t in tokens)
