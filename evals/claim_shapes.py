"""The reference's claim-shape table: which kinds a gold claim of a given shape may carry.

A label author names the shape of the claim; the shape, never what a model happened to produce, decides the
primary kinds the label may use and the compatible kinds a correct belief could carry instead ("a stated
training history is a skill to the label author and a project fact to the model, and both are the same
memory"). A row's parenthesised alternatives are spelled out: a training history labelled as a routine is a
habit that also admits skill, a recurring condition that is also a routine admits habit, and a family
member's situation is either kind with the other compatible.
"""

from enum import StrEnum

from domain.candidates import ClaimKind

K = ClaimKind


class ClaimShape(StrEnum):
    EXPERIENCE_OR_TRAINING_HISTORY = "experience_or_training_history"
    OCCUPATION = "occupation"
    SCHEDULED_ACTIVITY_PROGRAM = "scheduled_activity_program"
    ROUTINE_OR_CHORE = "routine_or_chore"
    RECURRING_CONDITION = "recurring_condition"
    BUILT_OR_PLANNED = "built_or_planned"
    WISH_OR_AIM = "wish_or_aim"
    ANSWERING_WISH = "answering_wish"
    POSITION_HELD = "position_held"
    INTEREST = "interest"
    PREFERENCE = "preference"
    CONSTRAINT = "constraint"
    FAMILY_MEMBER = "family_member"
    FAMILY_MEMBER_SITUATION = "family_member_situation"
    FAMILY_MEMBER_ACTIVITY = "family_member_activity"
    RESOURCE_OR_LOCATION = "resource_or_location"
    PROJECT_TECHNICAL_FACT = "project_technical_fact"


# Each shape maps the primary kinds a label may use to the compatible kinds that primary admits.
CLAIM_SHAPES: dict[ClaimShape, dict[ClaimKind, frozenset[ClaimKind]]] = {
    ClaimShape.EXPERIENCE_OR_TRAINING_HISTORY: {
        K.SKILL: frozenset({K.PROJECT_FACT}),
        K.HABIT: frozenset({K.PROJECT_FACT, K.SKILL}),
    },
    ClaimShape.OCCUPATION: {K.SKILL: frozenset({K.ROLE, K.PROJECT_FACT})},
    ClaimShape.SCHEDULED_ACTIVITY_PROGRAM: {K.HABIT: frozenset({K.PROJECT_FACT, K.ONGOING_PROJECT})},
    ClaimShape.ROUTINE_OR_CHORE: {K.HABIT: frozenset({K.PROJECT_FACT, K.RECURRING_STATE})},
    ClaimShape.RECURRING_CONDITION: {K.RECURRING_STATE: frozenset({K.PROJECT_FACT, K.HABIT})},
    ClaimShape.BUILT_OR_PLANNED: {K.ONGOING_PROJECT: frozenset({K.PROJECT_FACT, K.GOAL})},
    ClaimShape.WISH_OR_AIM: {K.GOAL: frozenset({K.ONGOING_PROJECT, K.PROJECT_FACT})},
    ClaimShape.ANSWERING_WISH: {K.PREFERENCE: frozenset({K.GOAL, K.CONSTRAINT})},
    ClaimShape.POSITION_HELD: {K.ROLE: frozenset({K.PROJECT_FACT})},
    ClaimShape.INTEREST: {K.INTEREST: frozenset({K.PREFERENCE})},
    ClaimShape.PREFERENCE: {K.PREFERENCE: frozenset({K.CONSTRAINT})},
    ClaimShape.CONSTRAINT: {K.CONSTRAINT: frozenset({K.PREFERENCE, K.PROJECT_FACT})},
    ClaimShape.FAMILY_MEMBER: {K.RELATIONSHIP: frozenset()},
    ClaimShape.FAMILY_MEMBER_SITUATION: {
        K.PROJECT_FACT: frozenset({K.RELATIONSHIP}),
        K.RELATIONSHIP: frozenset({K.PROJECT_FACT}),
    },
    ClaimShape.FAMILY_MEMBER_ACTIVITY: {K.RELATIONSHIP: frozenset({K.RECURRING_STATE, K.PROJECT_FACT})},
    ClaimShape.RESOURCE_OR_LOCATION: {K.RESOURCE: frozenset({K.PROJECT_FACT})},
    ClaimShape.PROJECT_TECHNICAL_FACT: {K.PROJECT_FACT: frozenset({K.RESOURCE})},
}
