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


class MissingId(DocsyncError):
    """An action needs the id of a resource that an earlier action should have created."""


class InternalError(DocsyncError):
    """A bug in docsync, not a problem with the manifest, the plan or the API: the traceback is
    logged at debug level (`-vv`)."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        super().__init__(
            f"internal error: {type(error).__name__}: {error} "
            "(a bug in docsync; run with -vv for the traceback)"
        )


class ActionError(DocsyncError):
    """One action of a plan failed (decK's `crud.ActionError`): what was done, to which
    resource, and why. Renders as `create site["Docs"].section["Guides"] failed: <cause>`."""

    def __init__(self, op: str, kind: str, address: str, cause: DocsyncError) -> None:
        self.op = op
        self.kind = kind
        self.address = address
        self.cause = cause
        super().__init__(f"{op} {address} failed: {cause}")

    @property
    def internal(self) -> bool:
        return isinstance(self.cause, InternalError)
