"""Errors of planning and applying, each meant to be read by the person who ran docsync."""

from __future__ import annotations

from docsync.errors import DocsyncError


class PlanError(DocsyncError):
    """The manifest and the live state cannot be reconciled as written."""


class PlanProblems(PlanError):
    """Several planning problems, reported together (sorted, one per line)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = sorted(set(problems))
        super().__init__("\n".join(self.problems))


class ApplyRefused(DocsyncError):
    """A plan that must not be applied as it stands (no terminal, not approved, unsafe)."""
