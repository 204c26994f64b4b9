"""The formation@9 deterministic former's entry points: the claims of one clause, the candidates of events.

Distillation falls back to fallback_candidates when the provider's answer is unusable or no provider is
configured, and reads with clause_claims whether a clause retracts something.
"""

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.candidates import CandidateOrigin, ClaimKind, Derivation, EvidenceSpan, MemoryCandidate
from domain.events import SourceEvent, SourceEventKind
from domain.formation.clauses import Clause, split_clauses
from domain.formation.deterministic.answers import affirms, answer_claims, denial, last_question
from domain.formation.deterministic.attachments import attachment_claims
from domain.formation.deterministic.belongings import belonging_claims
from domain.formation.deterministic.claims import Claim
from domain.formation.deterministic.clause_first import clause_first_claims, opens_question
from domain.formation.deterministic.corrections import correction_claims, parted_claims
from domain.formation.deterministic.dropped_subject import dropped_subject_claims, opens_with_past
from domain.formation.deterministic.groups import group_of
from domain.formation.deterministic.headed_lists import headed_sentences
from domain.formation.deterministic.parsing import (
    Parse,
    copula_rest,
    cut,
    object_gap,
    parse_predicate,
    since_age,
)
from domain.formation.deterministic.patterns import folded, frequency, hinted, says_not_stalled
from domain.formation.deterministic.positions import position_claims
from domain.formation.deterministic.possessives import possessive_claims
from domain.formation.deterministic.preferences import negated_claims
from domain.formation.deterministic.relatives import held_claims, opens_with_kin, relative_claims
from domain.formation.deterministic.replacements import CUES, replaced_claims
from domain.formation.deterministic.reported import only_introduces, reported_by_other, reported_clause
from domain.formation.deterministic.requests import hints_request, request_claims
from domain.formation.deterministic.rules import predicate_claims
from domain.formation.deterministic.self_description import self_description
from domain.formation.deterministic.states import constraint_claims, kept_from_claims, refusal_claims
from domain.formation.deterministic.topic_words import RELATIVES
from domain.formation.deterministic.wellformed import Verdict, judge
from domain.formation.language import STOPWORDS, Token, tokenize

MAX_CLAIMS_PER_CLAUSE = 12
# Members read once: each read of a member through its enum class is a lookup (Python 3.11), and the loop
# below reads them for every event and every claim.
_ASSISTANT = SourceEventKind.ASSISTANT_MESSAGE
_FORMED = Verdict.FORMED
_TRANSIENT = Verdict.TRANSIENT
_FIRST_FRAGMENT_WORDS = 4
_INVERSION = frozenset(
    {
        "should",
        "would",
        "could",
        "can",
        "do",
        "does",
        "did",
        "will",
        "am",
        "was",
        "have",
        "shall",
        "may",
        "might",
        "must",
        "were",
    }
)
_HYPOTHETICAL = frozenset(
    {"if", "whether", "suppose", "supposing", "imagine", "unless", "assuming", "hypothetically", "pretend"}
)
# A subject after these opens a subordinate clause ("when I was 19"), which qualifies a statement rather
# than making one of its own.
_SUBORDINATE = frozenset(
    {"when", "whenever", "since", "while", "until", "before", "after", "than", "as", "once", "where", "what"}
    | {"how", "why", "who", "which", "whether", "that", "like"}
)
_REWRITE_ONLY_SUBJECTS = frozenset({"we", "im"})
_PRESENT_BE = frozenset({"am", "'m", "is", "are", "'re"})
_POSITIONED = ("as a ", "as an ", "as the ", "as my ", "being a ", "being an ")
# Before the clause's first subject these make a negation a correction: "Wait, I don't have a sister".
_CORRECTING = frozenset({"wait", "correction", "oops", "whoops"})
# An agent's turn that says what the user is: "Since you're a teacher", "Got it, you're a vegetarian", "As a
# nurse, you ...".
_ATTRIBUTING = re.compile(r"\byou(?:'re|’re| are)\b|(?:^|[.!?]\s+)as an? \w+,", re.IGNORECASE)
_HEDGES = frozenset({"think", "guess", "believe", "suspect", "probably", "maybe", "possibly", "perhaps"})
# The lookahead skips positions no alternative opens at (a leading \b gets no prefix scan): patterns.py.
_FIRST_PERSON_HINT = re.compile(r"(?=[IiMmOoWw])\b(?:I|i|my|My|MY|[Oo]ur|[Ww]e|[Ii]m|[Ii]ve)\b")
# A clause opening with "can't" or "cannot" and no subject leaves out "I": no instruction opens so.
_CANT = re.compile(r"(?:(?:honestly|so|and|just|really)[\s,]+)?(?:can['’]?t|cannot)\b", re.IGNORECASE)
# Contractions typed without their apostrophe, and "cannot", read as the two words they stand for: "i dont
# eat pork", "i cant stand the cold", "ive been a carpenter for 20 years", "I cannot eat gluten".
_CONTRACTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "ive": (("i", "i"), ("have", "have")),
    "dont": (("do", "do"), ("not", "not")),
    "doesnt": (("does", "do"), ("not", "not")),
    "didnt": (("did", "do"), ("not", "not")),
    "cant": (("can", "can"), ("not", "not")),
    "cannot": (("can", "can"), ("not", "not")),
    "wont": (("will", "will"), ("not", "not")),
    "isnt": (("is", "be"), ("not", "not")),
    "wasnt": (("was", "be"), ("not", "not")),
    "havent": (("have", "have"), ("not", "not")),
    "hasnt": (("has", "have"), ("not", "not")),
    # Phone typing for "because": "I prefer audiobooks bc I'm always driving".
    "bc": (("because", "because"),),
    "cuz": (("because", "because"),),
    "coz": (("because", "because"),),
}
_UNSPLIT = frozenset(_CONTRACTIONS)
# "I wanna learn Japanese" formed "User wannas learn Japanese.": a verb fused with its "to", which no rule
# renders (both words would cite one typed word).
_TYPED_TO = frozenset({"wanna", "gonna", "gotta", "hafta"})
# The lookahead skips positions no alternative opens at (a leading \b gets no prefix scan): patterns.py.
_REQUEST_HINT = re.compile(
    r"(?=[anefgi])\b(?:always|never|ever|from now on|going forward|in (?:the )?future)\b", re.IGNORECASE
)
# Every match of _REQUEST_HINT contains one of these ("ever" also stands for "never").
_REQUEST_HINTS = ("always", "ever", "from now on", "going forward", "future")
_QUOTES = ('"', "“", "”")
# A single quote opens before a word's letter after a space and closes after a word before a space or a
# mark; an apostrophe inside a word ("I'm") or before a year ("'68") is neither.
_OPENING_SINGLE = re.compile(r"(?:^|(?<=\s))['‘](?=[A-Za-z])")
_CLOSING_SINGLE = re.compile(r"(?<=[\w.,!?])['’](?=\s|$|[.,!?;:])")
_LEAD_WORDS = frozenset(
    {"every", "each", "on", "most", "some", "daily", "weekly", "nightly", "in", "once", "twice", "thrice"}
)
# A time or a place that opens the next clause after "and" or a comma: "... and on weekends I cook".
_JOINING_WORDS = frozenset({"and", "but", "so", "then"})
_LEAD_OPENERS = _LEAD_WORDS | {"at", "after", "before", "during", "when"}
_MAX_LEAD_WORDS = 5
_ME_AND_WORDS = 2  # "me and my older brother"


def _inside_quote(text: str, start: int, at: int) -> bool:
    """Whether an odd number of quotation marks opens before position at within the clause, or a single
    quote opens there and has not closed ("Translate 'I am a doctor' into French")."""
    span = text[start:at]
    # The opening quote's lookahead reads the word at at.
    opened = len(_OPENING_SINGLE.findall(text, start, at + 1))
    return sum(span.count(q) for q in _QUOTES) % 2 == 1 or opened > len(_CLOSING_SINGLE.findall(span))


def _split_contractions(tokens: list[Token]) -> list[Token]:
    """Each apostrophe-less contraction as its two words, both citing the typed word."""
    split: list[Token] = []
    for token in tokens:
        for lower, lemma in _CONTRACTIONS.get(token.lower, ((token.lower, token.lemma),)):
            split.append(token._replace(lower=lower, lemma=lemma))
    return split


def _sentence_claims(sentence: str, clause: Clause) -> list[Claim]:
    """The claims of a first-person sentence a clause stands for (a denial, a headed list's item), read by
    the same rules as the user's own words; the evidence stays the clause's."""
    return clause_claims(sentence, Clause(clause.seq, clause.index, 0, len(sentence), sentence))


def clause_claims(text: str, clause: Clause, agent_turn: str = "") -> list[Claim]:
    """All claims one clause of an owner-asserted event states; empty when it states none. agent_turn is the
    agent's last turn, read only when the clause denies something: what the agent said the user is ("Since
    you're a teacher, ...") is corrected by the denial."""
    body = clause.text
    lowered = folded(body)
    requested = (
        hinted(lowered, _REQUEST_HINTS)
        and _REQUEST_HINT.search(text, clause.start, clause.end) is not None
        or hints_request(lowered)
    )
    implied = False
    # "No caffeine after 2pm for me": a limit that names the user only as "me".
    kept_from = lowered.startswith("no ") and " for me" in lowered
    if _FIRST_PERSON_HINT.search(text, clause.start, clause.end) is None:
        if kept_from:
            return kept_from_claims(text, tokenize(text, clause.start, clause.end))
        if lowered.startswith(_POSITIONED):
            # "As a nurse, what's the best way ...?": the position holds whatever follows its comma.
            positioned = position_claims(text, tokenize(text, clause.start, clause.end))
            if positioned:
                return positioned
        past = opens_with_past(body)
        implied = _CANT.match(body) is not None
        # A short first fragment before a comma may open a self-description: "41, divorced, ...".
        comma = body.find(",")
        listed = comma > 0 and body.count(" ", 0, comma) < _FIRST_FRAGMENT_WORDS
        if not requested and not past and not implied and not listed and not opens_with_kin(body):
            return []
        tokens = tokenize(text, clause.start, clause.end)
        related = relative_claims(text, tokens) if tokens and opens_with_kin(body) else []
        if related:
            return related
        if not implied:
            # "dont use emojis": an instruction typed without its apostrophe reads as "don't".
            requests = []
            if requested:
                unsplit = not _UNSPLIT.isdisjoint(t.lower for t in tokens)
                requests = request_claims(text, _split_contractions(tokens) if unsplit else tokens)
            if requests:
                return requests
            # A self-description reads each fragment whole; the dropped-subject path would read "married for
            # 10 years, 3 kids" as one past.
            described = _described(text, tokens) if listed else []
            return described or (dropped_subject_claims(text, tokens) if past else [])
    else:
        tokens = tokenize(text, clause.start, clause.end)
    if implied:
        # "Can't stand the smell of coffee": the left-out "I" read where it would stand.
        tokens = [tokens[0]._replace(text="I", lower="i", lemma="i"), *tokens]
    # The lower-cased words once: the subject, "my" and hedge tests below are list and set operations on them.
    lowers = [t.lower for t in tokens]
    if not _UNSPLIT.isdisjoint(lowers):
        tokens = _split_contractions(tokens)
        lowers = [t.lower for t in tokens]
    subjects = (
        [
            i
            for i, low in enumerate(lowers)
            if low == "i"
            and tokens[i].text[:1] in ("I", "i")
            # "I-80", "I-5": a road, not the user.
            and text[tokens[i].end : tokens[i].end + 1] != "-"
            # "been roofing since I was 19": the user's age dates the statement before, no clause of its own.
            and not (i and lowers[i - 1] == "since" and since_age(tokens, i - 1))
        ]
        if "i" in lowers
        else []
    )
    if lowers[:2] == ["me", "and"]:
        # "Me and my wife run a bakery": the user is a subject as in "My wife and I run a bakery".
        subjects = sorted({*subjects, *_me_and(tokens)})
    others = (
        [i for i, low in enumerate(lowers) if low in _REWRITE_ONLY_SUBJECTS]
        if not _REWRITE_ONLY_SUBJECTS.isdisjoint(lowers)
        else []
    )
    claims = possessive_claims(text, clause, tokens)
    if kept_from:
        claims.extend(kept_from_claims(text, tokens))
    # One wish a clause: a possessive's wish ("Please take my age into account") is the same request worded
    # by the more specific rule.
    if requested and not any(claim.kind is ClaimKind.PREFERENCE for claim in claims):
        claims.extend(request_claims(text, tokens))
    if "my" in lowers or "our" in lowers:
        claims.extend(relative_claims(text, tokens))
        claims.extend(belonging_claims(text, tokens, {claim.holder for claim in claims}))
    elif "have" in lowers:
        claims.extend(relative_claims(text, tokens))  # "I have two daughters, twins, they are 5"
    claims.extend(position_claims(text, tokens))
    if others:
        claims.extend(_rewritten(text, tokens, others, sorted(subjects + others)))
    elif (not subjects or subjects[0]) and opens_with_past(body):
        # "Been driving trucks for twenty years, ..., now I dispatch from home": the words before the first
        # "I" are a clause of their own with its "I" left out.
        claims.extend(dropped_subject_claims(text, tokens[: subjects[0]] if subjects else tokens))
    quoted = '"' in body or "“" in body or " '" in body or "‘" in body or body[:1] == "'"
    if subjects and reported_clause(body):
        subjects = []
    typed_to = not _TYPED_TO.isdisjoint(lowers)
    # Where each subject's predicate ends (the next one's time or place after "and" opens its clause).
    ends = [
        _clause_end(text, tokens, at, following)
        for at, following in zip(subjects, subjects[1:], strict=False)
    ]
    ends.append(len(tokens))
    for n, at in enumerate(subjects):
        if reported_by_other(tokens, at, subjects[n - 1] if n else -1):
            continue
        before = lowers[max(0, at - 3) : at]
        if before and before[-1] in _INVERSION:
            continue
        if not _HYPOTHETICAL.isdisjoint(before) or (before[-2:] == ["what", "if"]):
            continue
        if at > 1 and object_gap(text, tokens, at):
            continue
        if quoted and _inside_quote(text, clause.start, tokens[at].start):
            # Someone else's words quoted ("He said "I love jazz"") are not the user's assertion.
            continue
        stop = ends[n]
        if stop < len(tokens) and object_gap(text, tokens, stop):
            # "swimming laps at the Y, the only exercise I don't quit": the phrase after the comma is what
            # the next clause is about, and goes with it; the statement stands before the comma.
            for i in range(stop - 1, max(at + 1, stop - _MAX_LEAD_WORDS), -1):
                if "," in text[tokens[i - 1].end : tokens[i].start]:
                    stop = i
                    break
        predicate_tokens = tokens[at + 1 : stop]
        if not predicate_tokens or (stop < len(tokens) and only_introduces(predicate_tokens)):
            continue
        parse = parse_predicate(predicate_tokens)
        if parse is None or typed_to and parse.verb.lower in _TYPED_TO:
            continue
        opened = ends[n - 1] if n else 0
        if at > opened and not _LEAD_WORDS.isdisjoint(lowers[opened:at]):
            lead = frequency(text, tokens[opened].start, tokens[at].start)
            if lead is not None:
                parse.lead = lead.group(0)
        region_end = tokens[stop].start if stop < len(tokens) else clause.end
        cued = n == 0 and (not _CORRECTING.isdisjoint(lowers[:at]) or _contradicts(text, agent_turn, parse))
        correction = correction_claims(text, clause, parse, region_end, cued)
        if correction:
            claims.extend(correction)
            continue
        if parse.modal is not None and not (
            parse.modal == "would"
            and (parse.lemma in {"like", "love", "prefer"} or parse.verb.lower == "rather")
        ):
            continue
        can = "can" in lowers[at + 1 : at + 1 + parse.verb_at]
        found: list[Claim]
        asserted = not (
            before and before[-1] in _SUBORDINATE and not _reason(before[-1], parse)
        ) and not opens_question(tokens)
        if parse.negated and not says_not_stalled(body) and not can:
            found = negated_claims(text, parse)
            if asserted:
                found.extend(clause_first_claims(text, parse, parse.lead, coordinated_only=bool(found)))
        elif parse.negated and can:
            found = constraint_claims(text, parse)
        else:
            found = predicate_claims(text, clause, parse, region_end)
            if copula_rest(parse) is not None:
                found.extend(constraint_claims(text, parse))
            if asserted:
                stated = any(claim.derivation is Derivation.DIRECT for claim in found)
                found.extend(clause_first_claims(text, parse, parse.lead, coordinated_only=stated))
                if _HEDGES.isdisjoint(before) and _HEDGES.isdisjoint(parse.adverbs):
                    # "I sold my cello": what the user did stands, and that they no longer have it.
                    found.extend(parted_claims(text, parse))
        if found and (not _HEDGES.isdisjoint(before) or not _HEDGES.isdisjoint(parse.adverbs)):
            for claim in found:
                if claim.derivation is Derivation.DIRECT:
                    claim.hedged = True
        claims.extend(found)
    if " no " in body:
        claims.extend(refusal_claims(text, tokens))
    if " with " in body:
        claims = attachment_claims(claims)
    if not CUES.isdisjoint(lowers):
        # "Correction: we're actually going to Porto, not Lisbon": what the claim replaces is retracted.
        claims.extend(replaced_claims(body, lowers, claims))
    return claims[:MAX_CLAIMS_PER_CLAUSE]


def _me_and(tokens: list[Token]) -> list[int]:
    """Where "me and my <relative>" opening a clause ends, read as the user's subject; none otherwise."""
    if len(tokens) < 5 or tokens[2].lower not in ("my", "our"):
        return []
    for at in range(3, min(3 + _ME_AND_WORDS, len(tokens) - 1)):
        if tokens[at].lemma in RELATIVES:
            return [at]
    return []


def _clause_end(text: str, tokens: list[Token], at: int, following: int) -> int:
    """Where the predicate of the subject at at ends before the next subject at following: at a
    coordinator or a comma when a time or a place opens the next clause ("I work in a bank and on weekends
    I cook"), else at the next subject."""
    for i in range(following - 1, max(at, following - _MAX_LEAD_WORDS - 1), -1):
        low = tokens[i].lower
        boundary = low in _JOINING_WORDS or "," in text[tokens[i - 1].end : tokens[i].start]
        if boundary and i + 1 < following:
            opener = i + 1 if low in _JOINING_WORDS else i
            if tokens[opener].lower in _LEAD_OPENERS:
                return i
    return following


def _contradicts(text: str, agent_turn: str, parse: Parse) -> bool:
    """ "Since you're a teacher, ..." "I'm not a teacher": a denial of what the agent just said the user is
    corrects it, as "Wait, I'm not ..." does. Every content word the denial names must be the agent's. The
    agent's turn is read only here, after a denial: searching every agent turn for "you're" cost a long turn's
    scan per turn, and most owner turns deny nothing."""
    complement = copula_rest(parse) if agent_turn and parse.negated else None
    if not complement or _ATTRIBUTING.search(agent_turn) is None:
        return False
    named = [t.lemma for t in cut(complement, text) if t.lemma not in STOPWORDS]
    return bool(named) and set(named) <= {t.lemma for t in tokenize(agent_turn)}


def _reason(word: str, parse: Parse) -> bool:
    """ "since I work nights": "since" before a plain present gives a reason the user states; before a past
    or a perfect it is a time ("since I was 12", "since I moved")."""
    verb = parse.verb
    return (
        word == "since"
        and parse.modal is None
        and not parse.perfect
        and not parse.progressive
        and (verb.lower == verb.lemma or verb.lemma == "be" and verb.lower in _PRESENT_BE)
    )


def _described(text: str, tokens: list[Token]) -> list[Claim]:
    """The claims of a list of self-describing fragments, each read as the sentence it stands for."""
    claims: list[Claim] = []
    for sentence in self_description(text, tokens):
        claims.extend(clause_claims(sentence, Clause(0, 0, 0, len(sentence), sentence)))
    return claims


def _rewritten(text: str, tokens: list[Token], at_each: list[int], every: list[int]) -> list[Claim]:
    """The clause-first path alone for "we" ("We moved to Austin in 2018": the user did) and the typed
    "im"; the claim rules were written for "I" and stay with it. A "we" after a group of the user's named in
    the turn is the group's (domain.formation.deterministic.groups)."""
    claims: list[Claim] = []
    if opens_question(tokens):
        return claims
    for at in at_each:
        before = [t.lower for t in tokens[max(0, at - 3) : at]]
        if before and (before[-1] in _INVERSION or before[-1] in _SUBORDINATE):
            continue
        if any(word in _HYPOTHETICAL for word in before) or at > 1 and object_gap(text, tokens, at):
            continue  # "if we ...", "the six hens we're getting in April"
        stop = next((i for i in every if i > at), len(tokens))
        predicate = tokens[at + 1 : stop]
        if tokens[at].lower == "im":
            predicate = [tokens[at]._replace(lower="am", lemma="be"), *predicate]
        elif predicate and predicate[0].lower == "'re":
            predicate = [predicate[0]._replace(lower="are", lemma="be"), *predicate[1:]]
        we = tokens[at].lower == "we"
        group = group_of(text, tokens[at].start) if we else None
        if group is not None:
            # "a book club, we meet once a month": what the group does is the group's.
            claims.extend(held_claims(text, predicate, f"User's {group}", False, kin=False))
            continue
        parse = parse_predicate(predicate)
        if parse is not None:
            found = clause_first_claims(text, parse)
            if we:
                for claim in found:
                    claim.collective = True
            claims.extend(found)
    return claims


@dataclass(frozen=True)
class FallbackFormation:
    """What the former forms from events, and what it read but did not form: each withheld claim counted by
    its verdict, and the clauses (seq, text) whose claims were all withheld, with the verdict that decides
    the clause's coverage disposition (a transient claim makes the clause transient)."""

    candidates: list[MemoryCandidate]
    withheld: Counter[Verdict] = field(default_factory=Counter)
    clause_verdicts: dict[tuple[int, str], Verdict] = field(default_factory=dict)


def fallback_candidates(events: Sequence[SourceEvent]) -> list[MemoryCandidate]:
    """High-recall candidates over owner-asserted events, in the order the user stated them.

    The same claim stated in several events becomes one candidate citing each of them.
    """
    return fallback_formation(events).candidates


def fallback_formation(events: Sequence[SourceEvent]) -> FallbackFormation:
    """fallback_candidates with what was withheld: every claim passes the well-formedness check
    (domain.formation.deterministic.wellformed) before it becomes a candidate."""
    # Keyed by what a claim says: a claim rule and the clause-first path may word one claim alike, and the
    # first to word it (the more specific) keeps its subject.
    # Polarity is a StrEnum: the member itself is the key's string, read without its .value lookup.
    merged: dict[tuple[str, str], tuple[Claim, dict[int, str]]] = {}
    withheld: Counter[Verdict] = Counter()
    clause_verdicts: dict[tuple[int, str], Verdict] = {}
    question: str | None = None
    agent_turn = ""
    previous = ""
    for event in sorted(events, key=lambda e: e.seq):
        if not event.is_owner_assertion:
            agent = event.kind is _ASSISTANT
            question = last_question(event.text) if agent else None
            agent_turn = event.text if agent else ""
            continue
        text = event.text
        for index, clause in enumerate(split_clauses(event.seq, text)):
            headed = headed_sentences(clause.text)
            if headed is None:
                claims = clause_claims(text, clause, agent_turn if index == 0 else "")
            else:
                # "Stuff I can't eat: gluten, dairy": each item read as the sentence its header makes of it.
                claims = [claim for sentence in headed for claim in _sentence_claims(sentence, clause)]
            denied = denial(question, clause.text) if question is not None and index == 0 else None
            if denied is not None:
                # "God no, I'm useless before 10": the "no" answers the question whatever else the clause
                # says, as the user's own denial read by the same rules (the span stays the answer's).
                claims = [*_sentence_claims(denied, clause), *claims]
            elif question is not None and index == 0:
                if not any(c.derivation is Derivation.DIRECT for c in claims):
                    claims = answer_claims(question, clause.text)
                elif affirms(clause.text):
                    # "yes, and my kids answer me in English": the "yes" still answers the question.
                    claims = [*answer_claims(question, clause.text), *claims]
            kept = 0
            for read in claims:
                verdict, claim, statement = judge(
                    read, previous, _prefix(clause.text, read.predicate.complement)
                )
                if verdict is not _FORMED:
                    withheld[verdict] += 1
                    span = (event.seq, clause.text)
                    if clause_verdicts.get(span) is not _TRANSIENT:
                        clause_verdicts[span] = verdict
                    continue
                kept += 1
                key = (claim.polarity, statement)
                entry = merged.get(key)
                if entry is None:
                    merged[key] = (claim, {event.seq: clause.text})
                else:
                    entry[1].setdefault(event.seq, clause.text)
            if kept:
                clause_verdicts.pop((event.seq, clause.text), None)
            previous = clause.text
        question = None
        agent_turn = ""
    candidates: list[MemoryCandidate] = []
    for (_, statement), (claim, spans) in merged.items():
        seqs = tuple(sorted(spans))
        candidates.append(
            MemoryCandidate(
                subject=claim.subject,
                statement=statement,
                claim_kind=claim.kind,
                derivation=claim.derivation,
                longevity=claim.longevity,
                polarity=claim.polarity,
                source_event_ids=seqs,
                evidence_spans=tuple(EvidenceSpan(seq=seq, text=spans[seq]) for seq in seqs),
                origin=CandidateOrigin.FALLBACK,
            )
        )
    return FallbackFormation(candidates, withheld, clause_verdicts)


def withheld_counts(formation: FallbackFormation) -> dict[str, int]:
    """The stage-metric counts of what the former read and did not form, by verdict ("withheld.transient")."""
    return {f"withheld.{verdict.value}": n for verdict, n in sorted(formation.withheld.items()) if n}


def _prefix(clause: str, complement: str) -> str:
    """The clause up to the claim's complement, where a pronoun of the complement may point back to (all of
    it when the complement is not a slice of it)."""
    at = clause.find(complement) if complement else -1
    return clause[:at] if at >= 0 else clause
