"""OpenAPI specifications, keyed by slug: the slug is also their address in the API."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field as Limits
from pydantic import model_validator

from docsync.api.answers import TEXT, Opt
from docsync.api.contract import PATTERN, Explained, Note, Seed
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry, Model, Uri, explained
from docsync.core.model import Action
from docsync.core.nullability import NullChecked
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.changes import fields_of
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.requests import Routes, Writes, each_write_lost


def _source_from_live(raw: dict[str, Any]) -> dict[str, Any] | None:
    # The API reads back only the URL of a URL source; a text source is never returned.
    url = raw.get("sourceURL")
    return {"url": url} if url else None


def _text(source: Any) -> bool:
    """A text source, which the API never reads back (a URL one it does)."""
    return isinstance(source, dict) and "text" in source


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
    source: OpenApiSource | None = Api(live=_source_from_live, write_only=_text).limits(
        default=None
    )
    # neither the create nor the PUT takes it: a PATCH of its own
    visibility: Literal["private", "public"] | None = Api(
        create=False,
        update=False,
        route=("PATCH", "/v1/orgs/{org}/openapi/{id}"),
        api_default=("private",),
    ).limits(default=None)
    """`public`: anyone with its public link reads the spec; `private` (production's default):
    only the organization."""


SPECS = "/v1/orgs/{org}/openapi"
CREATE = f"POST {SPECS}"
CONTRACT = (
    Note(
        PATTERN,
        CREATE,
        "slug",
        "the API description's slug is lowercase (`^[a-z0-9]+(?:-[a-z0-9]+)*$`), which wins "
        "where the two documents disagree (README)",
    ),
    Explained(
        (f"PUT {SPECS}/{{id}}",),
        r'"message":"specSlug: ',
        "the path's specSlug is any string, but the spec PUT creates answers `slug` as "
        "OpenAPISpecSlug (a pattern): a slug outside it names a spec that could not be answered",
    ),
    Explained(
        (CREATE,),
        r"slug: must match the pattern \^\[a-z0-9\]",
        "documented conflict with the API description (README): its OpenAPI slug is lowercase; "
        "production's OpenAPISpecSlug allows capitals, which --contract production accepts",
    ),
    Explained(
        (CREATE,),
        r"already exists \(use PUT\)",
        "createOpenAPISpec declares 201 and 400 only: a slug the organization already has can "
        "only be its 400",
    ),
    Seed("POST", SPECS, {"slug": "petstore", "source": {"text": "openapi: 3.1.0"}}),
)
PUB = "{slug: pub, source: {url: 'https://acme.example/%s.yaml'}}"

OPENAPI = Declaration(
    "openapi",
    "openapi",
    "OpenAPI spec",
    key="slug",
    # without `source` an entry only keeps a live spec (export writes a text one so)
    required=(("source", "{url: ...} or {text: ...}"),),
    export_file="content.yaml",
    entry=OpenApiEntry,
    # its source's PATCH read back once its every answer was lost
    routes=Routes(SPECS, id_name="specSlug", update="PUT", read=True),
    writes=(Writes(found_by="listed again, by its slug"),),
    lost_answers=(
        each_write_lost(
            "openapi",
            (PUB % "a", PUB % "b", "{slug: pub, state: absent}"),
            ("POST", "/openapi$"),
            ("PUT", "/openapi/[^/]+$"),
            ("DELETE", "/openapi/[^/]+$"),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "create or admin; admin to delete one"),
    answer_more={"slug": TEXT, "sourceURL": Opt(TEXT)},
)


class OpenApiKind(CrudKind):
    declaration = OPENAPI

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        resources = self.live_resources(raw, live)
        for resource in resources:
            if not resource.unkeyed:
                resource.id = resource.key  # the API addresses a spec by its slug, not its id
        return resources

    def plan(self, ctx: PlanContext) -> None:
        for desired in ctx.desired.by_kind[self.name]:
            if desired.pinned_id and desired.pinned_id != desired.key:
                ctx.problem(
                    (*desired.path, "id"),
                    "an OpenAPI spec is identified by its slug, which cannot change: remove "
                    "`id:` (to move a spec to a new slug, create the new one, delete the old)",
                )
                desired.pinned_id = None
        self.plan_entries(ctx)

    async def execute(self, action: Action, run: RunContext) -> None:
        """A create names the spec by its slug, by which it is known from then on."""
        if action.verb != "create":
            await super().execute(action, run)
            return
        payload = fields_of(action)
        fields = run.resolve(payload.fields)
        body = {"slug": payload.key, **self.body(fields, creating=True)}
        await self.send_create(action, body, run)
        run.ids[action.address] = payload.key
        await self.send_routed(payload.key, fields, run, creating=True)  # its visibility
