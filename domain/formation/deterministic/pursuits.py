"""Projects, goals and progress: what the user is building or wants, and whether they are progressing."""

from functools import lru_cache

from domain.candidates import ClaimKind, Longevity
from domain.formation.clauses import Clause
from domain.formation.deterministic.claims import Claim, direct_claim, software_hypothesis
from domain.formation.deterministic.coordination import verb_before_object
from domain.formation.deterministic.parsing import Parse, content_words, cut, kept_rest, phrase_of
from domain.formation.deterministic.patterns import says_not_stalled
from domain.formation.deterministic.predicate_words import META_GOALS, MORE_PROJECT_VERBS, PROJECT_VERBS
from domain.formation.deterministic.topic_words import SOFTWARE_WORDS
from domain.formation.language import verb_lemma
from domain.formation.rendering import Aspect, Predicate, conflict_key


def project_claims(text: str, parse: Parse) -> list[Claim]:
    working_on = parse.lemma == "work" and parse.rest[:1] and parse.rest[0].lower == "on"
    setting = parse.verb.lower in ("set", "setting", "sets")
    setting_up = setting and parse.rest[:1] and parse.rest[0].lower == "up"
    if not (
        (parse.progressive or parse.been)
        and (parse.lemma in PROJECT_VERBS or parse.lemma in MORE_PROJECT_VERBS or working_on or setting_up)
    ):
        return []
    if setting and not setting_up or parse.rest[:1] and parse.rest[0].lower in ("to", "for"):
        # "planning to ..." and "preparing for ..." are goals.
        return []
    rest = parse.rest[1:] if working_on or setting_up else parse.rest
    kept = cut(rest, text, keep_and=True)
    words = content_words(kept)
    if not words:
        return []
    complement = phrase_of(text, kept)
    predicate = (
        Predicate("work", "working", Aspect.PROGRESSIVE, f"on {complement}")
        if working_on
        else Predicate(
            "set" if setting_up else parse.lemma,
            f"{parse.verb.text} up" if setting_up else parse.verb.text,
            Aspect.PROGRESSIVE,
            complement,
        )
    )
    claims = [
        direct_claim(ClaimKind.ONGOING_PROJECT, conflict_key("project", words), predicate, Longevity.ONGOING)
    ]
    if set(words) & SOFTWARE_WORDS:
        claims.append(software_hypothesis())
    return claims


def goal_claims(text: str, parse: Parse) -> list[Claim]:
    rest = parse.rest
    lemma = parse.lemma
    if lemma in {"wonder", "decide", "figure", "choose", "think"} and rest:
        # "I am wondering what to use for web search": deciding between tools is a goal.
        head = rest[1:] if rest[0].lower == "out" else rest
        if len(head) >= 3 and head[0].lower in ("what", "which") and head[1].lower == "to":
            kept = [head[0], head[1]] + cut(head[2:], text, keep_and=True)
            tail = phrase_of(text, kept)
            words = ["choose"] + [
                w for w in content_words(kept[2:]) if w not in {"use", "choose", "pick", "get"}
            ]
            return [
                direct_claim(
                    ClaimKind.GOAL,
                    conflict_key("goal", words),
                    Predicate("want", "wants", Aspect.SIMPLE, f"to decide {tail}"),
                    Longevity.ONGOING,
                )
            ]
        return []
    if (
        (parse.progressive or parse.been)
        and lemma in {"train", "save", "prepare", "study"}
        and len(rest) >= 2
        and rest[0].lower in ("for", "up")
    ):
        kept = kept_rest(parse, text)
        words = [w for w in content_words(kept) if w != "up"]
        if not words:
            return []
        return [
            direct_claim(
                ClaimKind.GOAL,
                conflict_key("goal", [lemma] + words),
                Predicate(lemma, parse.verb.text, Aspect.PROGRESSIVE, phrase_of(text, kept)),
                Longevity.ONGOING,
            )
        ]
    wants = lemma in {"want", "hope", "plan", "aim", "intend", "try", "wish", "need"} or (
        lemma in {"like", "love"} and parse.modal == "would"
    )
    if not wants or len(rest) < 2:
        return []
    # "i want start my own bussiness": the "to" left out before a verb and its object.
    bare = rest[0].lower != "to" and verb_before_object(rest, 0)
    if rest[0].lower != "to" and not bare:
        return []
    target = rest[0] if bare else rest[1]
    if verb_lemma(target) in META_GOALS:
        return []
    kept = cut(rest, text) if bare else [rest[0]] + cut(rest[1:], text)
    complement = f"to {phrase_of(text, kept)}" if bare else phrase_of(text, kept)
    words = content_words(kept)
    if not words:
        return []
    kind = (
        ClaimKind.ONGOING_PROJECT
        if verb_lemma(target) in PROJECT_VERBS and lemma in {"plan", "intend"}
        else ClaimKind.GOAL
    )
    if lemma in {"like", "love", "wish"}:
        predicate = Predicate("want", "wants", Aspect.SIMPLE, complement)
    elif parse.progressive:
        predicate = Predicate(lemma, parse.verb.text, Aspect.PROGRESSIVE, complement)
    else:
        predicate = Predicate(lemma, parse.verb.text, Aspect.SIMPLE, complement)
    namespace = "project" if kind is ClaimKind.ONGOING_PROJECT else "goal"
    return [direct_claim(kind, conflict_key(namespace, words), predicate, Longevity.ONGOING)]


def status_claims(text: str, clause: Clause, parse: Parse) -> list[Claim]:
    lemma = parse.lemma
    progressing = (
        lemma in {"progress", "improve"}
        and parse.progressive
        or (lemma == "make" and any(t.lemma == "progress" for t in parse.rest[:3]))
    )
    stalled = lemma in {"stall", "plateau"} or (
        lemma == "be" and any(t.lower in ("stalled", "stuck", "plateaued") for t in parse.rest[:2])
    )
    if not (progressing or stalled):
        return []
    not_stalled = says_not_stalled(clause.text)
    if progressing and parse.negated:
        return []
    parts: list[str] = []
    if progressing:
        parts.append("is still progressing" if "still" in parse.adverbs else "is progressing")
    if not_stalled:
        parts.append("has not stalled")
    elif stalled and not parse.negated:
        parts.append("has stalled")
    if not parts:
        return []
    return [
        direct_claim(
            ClaimKind.PROJECT_FACT,
            "status:training-progress" if _mentions_training(text) else "status:progress",
            Predicate("progress", " and ".join(parts), Aspect.BARE, ""),
            Longevity.ONGOING,
        )
    ]


# Every progress clause of one event asks about the same event text; scanning it again for each of them made
# a long turn cost quadratic time. A string caches its hash, so the repeated lookups cost nothing.
@lru_cache(maxsize=1)
def _mentions_training(text: str) -> bool:
    lowered = text.lower()
    return any(
        word in lowered
        for word in ("train", "lift", "5x5", "strength", "workout", "gym", "squat", "progress")
    )
