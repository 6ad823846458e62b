"""Translation settings, keyed by title (docs-platform-api.md §4.17: bodies carry `title`)."""

from __future__ import annotations

from typing import Any

from docsync.core.catalogue import TRANSLATION
from docsync.core.context import RunContext
from docsync.kinds.base import CrudKind


class TranslationKind(CrudKind):
    declaration = TRANSLATION
    list_path = "/v1/orgs/{org}/translations"

    async def update(self, live_id: str, fields: dict[str, Any], run: RunContext) -> None:
        # The description updates translation settings with PUT, not PATCH.
        await run.api.write("PUT", self.item_path(run, live_id), self.body(fields, creating=False))
