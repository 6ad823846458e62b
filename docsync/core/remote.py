"""What applying needs of the Management API client, as a protocol: the core stands below the
client (`docsync.api.ApiClient` fulfils it) and never imports it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Api(Protocol):
    async def get(
        self, path: str, params: Mapping[str, Any] | None = None, *, shape: Any = None
    ) -> Any:
        """One resource (or one page), decoded; checked against `shape` (an answer's shape,
        `docsync.api.answers`) when given."""

    async def list_all(
        self,
        path: str,
        params: Mapping[str, Any] | None = None,
        *,
        items: Any = None,
        keep_odd: bool = False,
    ) -> list[dict[str, Any]]:
        """Every item of a paginated list, each checked against `items` when given (with
        `keep_odd`, one that is not is kept, marked, instead of failing the list)."""

    async def write(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        idempotent: bool | None = None,
    ) -> Any:
        """A write: its decoded answer."""
