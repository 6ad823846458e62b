"""Errors the emulator answers with: each knows its HTTP status and renders production's body."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """Raised anywhere inside a request: the transaction rolls back and the client gets the body.

    The body is production's `{"error": {"code": <status>, "message": "..."}}`.
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def body(self) -> dict[str, Any]:
        """The JSON body of the answer."""
        return {"error": {"code": self.status, "message": self.message}}


def bad_request(message: str) -> ApiError:
    """400: the request is malformed; the message names the field ("title: must be ...")."""
    return ApiError(400, message)


def unauthorized(
    message: str = "Unauthorized: send a valid 'Authorization: Bearer <token>'",
) -> ApiError:
    """401: no token or a token of no seeded user."""
    return ApiError(401, message)


def forbidden(message: str) -> ApiError:
    """403: the caller is a member but their role does not allow the operation."""
    return ApiError(403, message)


def not_found(message: str) -> ApiError:
    """404: unknown id, or a resource in an organization the caller cannot see."""
    return ApiError(404, message)


def conflict(reason: str, message: str) -> ApiError:
    """409: the operation clashes with the state of another resource, or would change nothing.

    `reason` is the stable id under which the README's table of the emulator's 409s says why
    this one exists (production's contract lists it, or why it is kept though it does not);
    `tests/emulator/test_conflicts.py` fails on a `conflict(` call whose id the table lacks.
    """
    del reason  # documentation only: the answer carries production's error body
    return ApiError(409, message)


class SeedError(ValueError):
    """The seed file is not in the format of ../shared/INTERFACE.md §3; the message says where."""
