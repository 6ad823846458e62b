"""The fuzz findings production's document itself explains: conflicts inside the document.

A check schemathesis makes from one operation's schemas alone cannot see the rest of the
document, or the state a request meets: a request its schema takes may still be one that
production's own answer schema, its own text, or the state makes impossible to answer within
the statuses the operation declares. Each `Conflict` says which failures it covers (the checks,
the operations, what the answer says, whether the request is one production's schemas refuse)
and which conflict of the document explains them; a failure is forgiven only when all match.
What the emulator does on purpose beyond the document is not here: it is a listed departure of
the fuzzer's document (`fuzz_document.DEPARTURES`). The conflicts below are any operation's;
those of one kind's operations it says in its own module (`Explained`, `conflicts`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from docsync.api.contract import ANSWER_REFUSED
from tests.contract import declared
from tests.contract.checker import Contract
from tests.contract.document import load_spec

POSITIVE = "positive_data_acceptance"
ANSWER = "response_schema_conformance"
STATUS = "status_code_conformance"
#: a request production's schemas take, refused: refused with a status the operation lacks too
TAKEN = (POSITIVE, STATUS)


@dataclass(frozen=True)
class Seen:
    """One failure: where, which check, what was answered, and to what request."""

    operation: str  # "POST /orgs/{organizationId}/collections"
    check: str
    answer: str  # "<status> <body>"
    #: the request is one production's schemas refuse (schemathesis's negative data)
    negative: bool


@dataclass(frozen=True)
class Conflict:
    """Failures production's document explains, and the conflict in it that does."""

    checks: tuple[str, ...]
    #: a regex searched in the answer (`<status> <body>`)
    answer: str
    reason: str
    #: `METHOD /template` of the operations it covers; empty: every operation
    operations: tuple[str, ...] = ()
    #: only for requests production's schemas refuse (True) or take (False); None: either
    negative: bool | None = None

    def covers(self, seen: Seen) -> bool:
        return (
            seen.check in self.checks
            and (not self.operations or seen.operation in self.operations)
            and (self.negative is None or self.negative == seen.negative)
            and re.search(self.answer, seen.answer) is not None
        )


FORGIVEN: tuple[Conflict, ...] = (
    Conflict(
        (STATUS,),
        r"^404 ",
        "an id the operation's schemas take as any string (in its path, a body's reference, a "
        "page token) that names nothing: its 2xx answer requires the resource named, so no "
        "declared status can answer it; the document's NotFoundError, declared by 92 "
        "operations, is its answer to a missing resource",
    ),
    Conflict(
        (STATUS,),
        r"^400 ",
        "a request the operation's schemas refuse, on an operation that declares no refusal: "
        "the document requires a refusal its responses do not list; its BadRequestError, "
        "declared by 39 operations, is its answer to a malformed request",
        negative=True,
    ),
    Conflict(
        (STATUS,),
        r"^401 .*Unauthorized",
        "a request without the credential the operation's `security` requires (schemathesis's "
        "coverage phase leaves it out), on an operation that declares no 401: the document "
        "requires a credential and lists no refusal of one; its UnauthorizedError, declared by "
        "12 operations, is that refusal",
    ),
    Conflict(
        TAKEN,
        r"URL: must match .*; got ''",
        "the field's format is `uri`, and '' is no URI (RFC 3986: a URI has a scheme): the "
        "coverage phase's boundary value reads the format as an annotation, the document names "
        "a URI",
    ),
)


@functools.cache
def conflicts() -> tuple[Conflict, ...]:
    """The document's conflicts: those above, and those each kind says of its operations
    (`Explained`, in its module), at production's operations behind its routes."""
    spec = load_spec()
    if spec is None:
        return FORGIVEN
    contract = Contract(spec)
    found = []
    for kind, explained in declared.explained():
        operations = [declared.operation(contract, route) for route in explained.operations]
        if None in operations:
            raise LookupError(f"{kind}: {explained.operations} names no operation of production")
        checks = (ANSWER,) if explained.finding == ANSWER_REFUSED else TAKEN
        found.append(Conflict(checks, explained.answer, explained.why, tuple(map(str, operations))))
    return (*FORGIVEN, *found)


def forgiven(seen: Seen) -> Conflict | None:
    """The conflict of production's document that explains a failure, or None."""
    return next((conflict for conflict in conflicts() if conflict.covers(seen)), None)
