"""A claim: what one rule reads from one predicate, before equal claims merge into a candidate."""

from dataclasses import dataclass

from domain.candidates import ClaimKind, Derivation, Longevity, Polarity
from domain.formation.rendering import Aspect, Predicate, render_statement


@dataclass(slots=True)
class Claim:
    kind: ClaimKind
    derivation: Derivation
    longevity: Longevity
    polarity: Polarity
    subject: str
    predicate: Predicate
    holder: str = "User"
    hedged: bool = False
    # Said of "we" with no group named: the user and others, whose shared nouns are not the user's alone.
    collective: bool = False

    def statement(self) -> str:
        return render_statement(
            self.kind, self.derivation, self.polarity, self.predicate, self.holder, hedged=self.hedged
        )


def direct_claim(
    kind: ClaimKind,
    subject: str,
    predicate: Predicate,
    longevity: Longevity = Longevity.DURABLE,
    holder: str = "User",
) -> Claim:
    return Claim(kind, Derivation.DIRECT, longevity, Polarity.ASSERT, subject, predicate, holder)


def skill_hypothesis(subject: str, experience: str) -> Claim:
    """A tentative skill the user did not state but their words suggest: "User likely has <experience>"."""
    return Claim(
        ClaimKind.SKILL,
        Derivation.HYPOTHESIS,
        Longevity.TENTATIVE,
        Polarity.ASSERT,
        subject,
        Predicate("have", "has", Aspect.SIMPLE, experience),
    )


def software_hypothesis() -> Claim:
    return skill_hypothesis("skill:software-development", "software-development experience")
