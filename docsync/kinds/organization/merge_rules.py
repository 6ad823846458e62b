"""Change-request merge rules as production writes them (`MergeRules*Configuration`): the
organization's (`settings.mergeRules`: rules or none) and a space's (also `inherit`, the
organization's). Written whole: the rules written are the rules, in their order."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from docsync.core.entries import Expression, Model
from docsync.core.nullability import NullChecked


class ReviewersRule(Model):
    """A rule that names members by their user ids."""

    rule: Literal["require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass"]
    users: list[str]
    """User ids."""


class PlainRule(Model):
    """A rule with no parameter."""

    rule: Literal[
        "require_at_least_one_review",
        "require_at_least_one_approved_review",
        "require_all_reviews_approved",
        "require_agent_review",
        "require_up_to_date_change_request",
        "require_change_request_subject",
        "require_change_request_description",
        "require_author_to_merge",
    ]


class CustomRule(NullChecked, Model):
    """A rule written as an expression; `message` shows when it is false."""

    rule: Literal["custom"]
    expression: Expression
    message: str | None = None


MergeRule = Annotated[ReviewersRule | PlainRule | CustomRule, Field(discriminator="rule")]


class Rules(Model):
    """Every rule must pass before a change request merges."""

    type: Literal["rules"]
    rules: list[MergeRule]


class NoRules(Model):
    """Change requests merge without review."""

    type: Literal["none"]


class Inherit(Model):
    """A space follows the organization's rules."""

    type: Literal["inherit"]


OrganizationMergeRules = Annotated[Rules | NoRules, Field(discriminator="type")]
SpaceMergeRules = Annotated[Inherit | Rules | NoRules, Field(discriminator="type")]


def merge_rules_value(value: Any) -> Any:
    """The rules as the API reads them back: plain data, no key written as null."""
    if value is None:
        return None
    data = value.model_dump(exclude_none=True) if hasattr(value, "model_dump") else value
    return _without_nulls(data)


def _without_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value
