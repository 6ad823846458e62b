"""A visitor-auth site's publishing auth: the backend and the fallback and logout URLs, only the
fields written managed, written by one PATCH per site. Used by the site kind.

The API answers the site's private key (which signs visitors' tokens) with every read and
write: docsync keeps none of it, and never asks for a new one (regenerating would lock out every
visitor until the backend is given the new key).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field as Limits

from docsync.api.answers import TEXT, Obj, Opt
from docsync.api.contract import Explained, Seed
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import URI_PATTERN, Model
from docsync.core.model import Action, leaf_change
from docsync.core.nullability import NULL, NullChecked
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames
from docsync.kinds.nested.parts import OnSite, SitePart, at_site, send_under
from docsync.kinds.requests import Route, Routes, Writes

if TYPE_CHECKING:
    from docsync.api import ApiClient

#: what docsync keeps of the API's answer (never `privateKey`)
KEPT = ("backend", "fallbackURL", "logoutURL")
VISITOR_AUTH = "visitor-auth"
#: production's fallback and logout URLs: a URI, of no length limit
AuthUrl = Annotated[str, Limits(pattern=URI_PATTERN, json_schema_extra={"format": "uri"})]


class PublishingAuthEntry(NullChecked, Model):
    """How visitors of a visitor-auth site sign in; only the fields written are managed."""

    backend: Literal["custom", "integration"] | None = Api().limits(default=None)
    """`custom` (your own backend signs visitors' tokens) or `integration` (an installed one)."""
    fallbackURL: Annotated[AuthUrl | None, NULL] = Api(sensitive=True).limits(default=None)
    """Where a visitor without a valid token is sent; null unsets it."""
    logoutURL: Annotated[AuthUrl | None, NULL] = Api().limits(default=None)
    """Where the site's log-out sends visitors; null unsets it."""
    integration: str | None = Limits(default=None, min_length=1)
    """With `backend: integration`: the integration that signs visitors in, which `integrations`
    must install on this site (production uses the one installed there; validate checks it)."""


@dataclass
class PublishingAuth(OnSite):
    """The PATCH body: `backend` (which the API requires) and the URLs that change."""

    body: dict[str, Any] = field(default_factory=dict)


# -- reading ---------------------------------------------------------------------------------

#: what the plan compares of a site's publishing auth as the API answers it
ANSWER = Obj({k: Opt(TEXT) for k in KEPT})


def _live(site: LiveResource | None) -> dict[str, Any] | None:
    found = site.raw.get("_publishingAuth") if site is not None else None
    return dict(found) if isinstance(found, dict) else None


# -- the part's kind -------------------------------------------------------------------------

AUTH = "/v1/orgs/{org}/sites/{site}/publishing/auth"
HANDBOOK = "/v1/orgs/{org}/sites/{handbook}"
CONTRACT = (
    Explained(
        (f"GET {AUTH}", f"PATCH {AUTH}", f"POST {AUTH}/regenerate"),
        "visitor-auth sites only",
        "getSitePublishingAuthById, updateSitePublishingAuthById and "
        "regenerateSitePublishingAuthById declare 200 and 400 only: a site that is not "
        "visitor-auth has no auth settings, which can only be their 400",
    ),
    Seed(
        "POST",
        "/v1/orgs/{org}/sites",
        {"title": "Handbook", "visibility": "visitor-auth"},
        "handbook",
    ),
    Seed("POST", f"{HANDBOOK}/site-spaces", {"spaceId": "space_handbook"}),
    Seed("GET", f"{HANDBOOK}/publishing/auth"),
)

PUBLISHING_AUTH = Declaration(
    "publishing_auth",
    "publishingAuth",
    "publishing auth",
    key="backend",
    parents=("site",),
    part=True,
    singleton=True,
    entry=PublishingAuthEntry,
    routes=Routes(
        "/v1/orgs/{org}/sites/{site}",
        item=AUTH,
        more={"auth": Route("GET", AUTH, answer=ANSWER)},
    ),
    describe=("How visitors of a visitor-auth site sign in; only the fields written are managed."),
    writes=(Writes(),),  # a PATCH
    contract=CONTRACT,
)


class PublishingAuthKind(SitePart):
    declaration = PUBLISHING_AUTH
    part_payload = PublishingAuth

    async def fetch(self, api: ApiClient, site: dict[str, Any], site_path: str) -> None:
        """The site's publishing auth into `site["_publishingAuth"]`, without its private key (a
        secret the client masks from then on, wherever it is echoed); not read (the API refuses
        it) for a site that is not visitor-auth."""
        if site.get("visibility") != VISITOR_AUTH:
            return
        found = await send_under(api, self.route("auth"), site_path)
        api.redact([str(found["privateKey"])] if found.get("privateKey") else [])
        site["_publishingAuth"] = {k: found.get(k) for k in KEPT}

    def plan(
        self, desired: DesiredResource, live: LiveResource | None, ctx: PlanContext
    ) -> Action | None:
        """One PATCH when a written field differs from the live one, after the site's own actions
        (a visibility changed to visitor-auth comes first)."""
        written = desired.written(self.section)
        if written is None:
            return None
        path = (*desired.path, "publishingAuth")
        visibility = desired.written("visibility") or (live.raw.get("visibility") if live else None)
        if visibility != VISITOR_AUTH:
            ctx.problem(
                path,
                f"publishingAuth applies to visitor-auth sites, and {desired.address} is "
                f"{visibility or 'public'}: write `visibility: visitor-auth`, or leave "
                "publishingAuth out",
            )
            return None
        current = _live(live) or {}
        names = [name for name in KEPT if name in written.model_fields_set]
        wanted = {name: getattr(written, name) for name in names}
        changed = {name: value for name, value in wanted.items() if current.get(name) != value}
        if not changed:
            return None
        body = {"backend": wanted.get("backend") or current.get("backend") or "custom", **changed}
        mine = [a.key for a in ctx.actions_at[desired.address]]
        action = Action(
            "update",
            desired.kind,
            f"{desired.address}.publishingAuth",
            [
                leaf_change(
                    "publishingAuth",
                    (name,),
                    current.get(name),
                    value,
                    sensitive=self.field(name).sensitive or ctx.sensitive((*path, name)),
                )
                for name, value in changed.items()
            ],
            ctx.where(path),
            payload=PublishingAuth(ref(desired.address), body),
            depends_on=mine,
        )
        return ctx.add(action)

    async def execute(self, action: Action, run: RunContext) -> None:
        """One PATCH; the answer (with the private key) is dropped unread."""
        payload, site_path = action.payload, at_site(action, run)
        assert isinstance(payload, PublishingAuth)
        await send_under(run.api, self.route("update"), site_path, payload.body)

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any] | None:
        """The backend and the URLs that are set, as a manifest writes them; a secret one (the
        fallback URL may carry a key) as the `env()` template that reads it."""
        found = _live(site)
        if not found:
            return None
        return {
            name: names.secret(site.address, f"publishingAuth.{name}")
            if self.field(name).sensitive
            else found[name]
            for name in KEPT
            if found.get(name)
        }
