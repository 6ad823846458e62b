"""OpenAPI specifications, keyed by slug: the slug is also their address in the API."""

from __future__ import annotations

from typing import Any

from pydantic import Field as Limits
from pydantic import model_validator

from docsync.api.answers import ID, TEXT, Obj, Opt
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry, Model, Uri, explained
from docsync.core.model import Action
from docsync.core.nullability import NullChecked
from docsync.core.reconcile import Reconciliation
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Declaration, Field, Routes
from docsync.kinds.lists import Place
from docsync.kinds.lost_answers import Writes


def _source_from_live(raw: dict[str, Any]) -> dict[str, Any] | None:
    # The API reads back only the URL of a URL source; a text source is never returned.
    url = raw.get("sourceURL")
    return {"url": url} if url else None


def _dump(value: Any) -> Any:
    return value.model_dump(exclude_none=True) if hasattr(value, "model_dump") else value


SLUG_PATTERN = explained(
    r"^[a-z0-9]+(?:-[a-z0-9]+)*$",
    "must be lowercase letters and digits in words joined by '-', like 'public-api'",
)


class OpenApiSource(NullChecked, Model):
    """Where the specification comes from: exactly one of ``url`` and ``text``."""

    url: Uri | None = None
    text: str | None = Limits(default=None, min_length=1)

    @model_validator(mode="after")
    def _exactly_one(self) -> OpenApiSource:
        if (self.url is None) == (self.text is None):
            raise ValueError("give exactly one of 'url' and 'text'")
        return self


class OpenApiEntry(Entry):
    """An OpenAPI specification, keyed by slug."""

    slug: str | None = Limits(default=None, min_length=1, max_length=100, pattern=SLUG_PATTERN)
    source: OpenApiSource | None = None


OPENAPI = Declaration(
    "openapi",
    "openapi",
    "OpenAPI spec",
    key="slug",
    fields=(Field("source", normalize=_dump, live=_source_from_live),),
    export_file="content.yaml",
    entry=OpenApiEntry,
    routes=Routes("/v1/orgs/{org}/openapi", id_name="specSlug", update="PUT"),
    writes=(Writes(found_by="listed again, by its slug"),),
    answer=Obj({"id": ID, "slug": TEXT, "sourceURL": Opt(TEXT)}),
)


class OpenApiKind(CrudKind):
    declaration = OPENAPI

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        resources = super().to_live(raw, live)
        for resource in resources:
            resource.id = resource.key  # the API addresses a spec by its slug, not its id
        return resources

    def plan(self, ctx: PlanContext) -> Reconciliation | None:
        for desired in ctx.desired.by_kind[self.name]:
            if desired.pinned_id and desired.pinned_id != desired.key:
                ctx.problem(
                    (*desired.path, "id"),
                    "an OpenAPI spec is identified by its slug, which cannot change: remove "
                    "`id:` (to move a spec to a new slug, create the new one, delete the old)",
                )
                desired.pinned_id = None
        return super().plan(ctx)

    def plan_create(self, desired: DesiredResource, at: Place) -> Action | None:
        ctx = at.ctx
        # Without `source` an entry only keeps a live spec (export writes a text one so).
        if "source" not in desired.fields:
            ctx.problem(
                desired.path, "a new OpenAPI spec needs 'source': {url: ...} or {text: ...}"
            )
            return None
        return super().plan_create(desired, at)

    def equal(self, f: Field, before: Any, after: Any) -> bool:
        if isinstance(after, dict) and "text" in after:
            # A text source cannot be read back: a live spec without a URL has one, whose text
            # was written when it was made; a live URL source is another source.
            return before is None
        return bool(before == after)

    async def create(self, key: str, fields: dict[str, Any], run: RunContext) -> str:
        body = {"slug": key, "source": fields["source"]}
        await run.api.write("POST", self.list_path.format(org=run.org_id), body)
        return key

    async def update(self, live_id: str, fields: dict[str, Any], run: RunContext) -> None:
        if "source" in fields:
            await run.api.write("PUT", self.item_path(run, live_id), {"source": fields["source"]})

    async def find(self, key: str, fields: dict[str, Any], run: RunContext) -> str | None:
        items = await run.api.list_all(self.list_path.format(org=run.org_id), items=self.answer)
        return key if any(item.get("slug") == key for item in items) else None
