"""Organization settings: one resource, updated in place, never created or deleted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from pydantic import Field as Limits

from docsync.api.answers import Obj
from docsync.api.contract import INSTRUCTIONS, LEAVES, MIN_LENGTH, PATTERN, SHAPE, Note
from docsync.core.context import PlanContext, RunContext, ref
from docsync.core.entries import Model, Ref, Role, Uri, explained
from docsync.core.lockout import Lockout
from docsync.core.model import Action
from docsync.core.nullability import NULL, NullChecked
from docsync.core.payloads import Fields
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.changes import field_changes, fields_of, same_id
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames, TopKind
from docsync.kinds.organization.documents import Instructions, as_written, to_document
from docsync.kinds.organization.merge_rules import OrganizationMergeRules, merge_rules_value
from docsync.kinds.requests import (
    ORGANIZATION,
    Lose,
    Lost,
    LostAnswers,
    Reading,
    Route,
    Routes,
    Writes,
)


def _domains(value: Any) -> Any:
    # Order and case of email domains carry no meaning.
    return sorted({str(d).lower() for d in value}) if value is not None else None


def _hostname(value: Any) -> Any:
    return str(value).lower() if value is not None else None


def _logo(raw: dict[str, Any]) -> Any:
    # Written as `logo`, read back as `urls.logo`.
    urls = raw.get("urls")
    return (urls.get("logo") or None) if isinstance(urls, dict) else None


def _default_site(raw: dict[str, Any]) -> Any:
    content = raw.get("defaultContent")
    return content.get("site") if isinstance(content, dict) else None


HOSTNAME_PATTERN = explained(
    r"^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$",
    "must be lowercase letters, digits and '-'",
)
ORG_TITLE_PATTERN = explained(
    r"^\S.*\S$",
    "must not start or end with a space",
)


class DefaultContent(Model):
    """The content shown at the organization's root: a site, by title or id."""

    site: Ref


INSTRUCTIONS_PATH = "/v1/orgs/{org}/agent-instructions"
#: where the organization's agent instructions, read apart, are kept in its item
INSTRUCTIONS_SLOT = "_agentInstructions"


def _instructions(org: dict[str, Any]) -> Any:
    """The organization's agent instructions, read apart (`INSTRUCTIONS_SLOT`)."""
    return org.get(INSTRUCTIONS_SLOT)


class OrgSettings(NullChecked, Model):
    """Organization settings (PATCH /v1/orgs/{id}); only the fields written are managed."""

    title: str | None = Api().limits(
        default=None, min_length=2, max_length=255, pattern=ORG_TITLE_PATTERN
    )
    emailDomains: list[Annotated[str, Limits(min_length=1)]] | None = Api(
        normalize=_domains
    ).limits(default=None)
    hostname: str | None = Api(normalize=_hostname).limits(
        default=None, min_length=3, max_length=32
    )
    defaultRole: Annotated[Role | None, NULL] = Api().limits(default=None)
    """Role of new members; null: guest."""
    defaultContent: Annotated[DefaultContent | None, NULL] = Api(
        ref="site", live=_default_site, ref_at=("site",)
    ).limits(default=None)
    logo: Annotated[Uri | None, NULL] = Api(live=_logo).limits(default=None)
    sso: bool | None = Api().limits(default=None)
    ai: bool | None = Api().limits(default=None)
    inviteLinks: bool | None = Api().limits(default=None)
    mergeRules: OrganizationMergeRules | None = Api(normalize=merge_rules_value).limits(
        default=None
    )
    """What a change request needs before it merges: `{type: rules, rules: [...]}` or
    `{type: none}`; spaces follow it unless their own `mergeRules` say otherwise."""
    agentInstructions: Instructions | None = Api(
        live=_instructions,
        normalize=as_written,
        wire="instructions",
        update=False,
        route=("PUT", INSTRUCTIONS_PATH),
    ).limits(default=None)
    """The docs agent's instructions for the whole organization (production's agent
    instructions): text, a paragraph per blank line, or a document."""


#: what the plan relies on in the instructions' answer
INSTRUCTIONS_ANSWER = Obj({"instructions": Obj({})})

CONTRACT = (
    Note(
        LEAVES,
        "POST /v1/orgs",
        "",
        "a manifest describes one organization, which exists (made in the app)",
    ),
    Note(MIN_LENGTH, "PATCH /v1/orgs/{org}", "emailDomains[]", "an empty domain names no one"),
    Note(
        PATTERN,
        "PATCH /v1/orgs/{org}",
        "title",
        "production's `\\S.*\\S` is not anchored, so it takes any title with two characters "
        "that are not spaces; docsync anchors it (no leading or trailing space), as the API "
        "description says",
    ),
    Note(SHAPE, f"PUT {INSTRUCTIONS_PATH}", "instructions", INSTRUCTIONS),
)
LOST = LostAnswers(
    "settings",
    ORGANIZATION,
    (
        Lost(
            ORGANIZATION + "settings: {defaultRole: edit, inviteLinks: false, "
            "mergeRules: {type: none}, agentInstructions: Be brief.}\n",
            (Lose("PATCH", "/orgs/org_acme$"), Lose("PUT", "/agent-instructions$")),
        ),
    ),
)

SETTINGS = Declaration(
    "settings",
    "settings",
    "settings",
    key="title",
    singleton=True,
    #: the safety rails must know the token's member (SSO lockout), even without `members:`
    needs=("member",),
    order=(
        "title",
        "defaultRole",
        "inviteLinks",
        "emailDomains",
        "hostname",
        "sso",
        "ai",
        "logo",
        "defaultContent",
        "mergeRules",
        "agentInstructions",
    ),
    export_file="org.yaml",
    entry=OrgSettings,
    routes=Routes(
        "/v1/orgs",
        item="/v1/orgs/{org}",
        id_name="organizationId",
        # its agent instructions, read apart (written by their field's own request)
        more={"instructions": Route("GET", INSTRUCTIONS_PATH, answer=INSTRUCTIONS_ANSWER)},
    ),
    writes=(Writes(),),  # one PATCH of the organization
    lost_answers=(LOST,),
    contract=CONTRACT,
    roles=("read", "admin"),
)


ADDRESS = "settings"


class SettingsKind(TopKind):
    declaration = SETTINGS

    async def fetch(self, read: Reading) -> Any:
        """The organization object, read when it was resolved, holds the settings but its agent
        instructions, read apart when written (and for export)."""
        if read.entries is not None and not any(
            "agentInstructions" in entry.model_fields_set for entry in read.entries
        ):
            return None
        found = await self.send(read.api, "instructions", org=read.org_id)
        return found.get("instructions")

    def warnings(self, ctx: PlanContext, actions: Sequence[Action]) -> list[str]:
        """Manifests that name their organization by the title this plan changes would not
        find it on the next run: said before the apply, not after."""
        named = ctx.loaded.manifest.organization
        if named == ctx.live.org_id:
            return []
        titles = [
            c.after for a in actions for c in a.changes if c.field == "title" and c.after != named
        ]
        if not titles:
            return []
        where = ctx.loaded.location(("organization",))
        return [
            f"{where}: the manifests name the organization by its title, {named!r}, which this "
            f"plan changes to {titles[0]!r}: write its id, `organization: {ctx.live.org_id}`, "
            "so that the next plan finds it"
        ]

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        org = {**live.organization, INSTRUCTIONS_SLOT: raw} if raw else live.organization
        fields = {f.name: f.read(org) for f in self.fields}
        site = fields["defaultContent"]
        fields["defaultContent"] = live.address_of("site", site) or site
        return [
            LiveResource(
                kind=self.name,
                id=str(org["id"]),
                key=ADDRESS,
                address=ADDRESS,
                name=str(org.get("title")),
                fields=fields,
                raw=org,
                refs={fields["defaultContent"]} if fields["defaultContent"] else set(),
            )
        ]

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        settings = ctx.loaded.manifest.settings
        if settings is None:
            return []
        path: tuple[str | int, ...] = ("settings",)
        fields: dict[str, Any] = {}
        for f in self.fields:
            if f.name not in settings.model_fields_set:
                continue
            value = getattr(settings, f.name)
            if f.name == "defaultContent" and value is not None:
                value = ctx.resolve("site", str(value.site), (*path, f.name, "site"))
            fields[f.name] = f.normalize(value)
        return [DesiredResource(self.name, ADDRESS, ADDRESS, ADDRESS, fields, path)]

    def plan(self, ctx: PlanContext) -> None:  # one resource: nothing to match
        for desired in ctx.desired.by_kind[self.name]:
            live = ctx.live.by_address[ADDRESS]
            changes = field_changes(self.fields, desired, live, ctx)
            # A default site renamed in this plan through its pinned id is still the default.
            changes = [c for c in changes if not (c.reference and same_id(ctx, c))]
            if changes:
                body = {c.field: c.after for c in changes}
                if "defaultContent" in body and body["defaultContent"] is not None:
                    body["defaultContent"] = {"type": "site", "site": ref(body["defaultContent"])}
                action = Action(
                    "update",
                    self.name,
                    ADDRESS,
                    changes,
                    ctx.where(desired.path),
                    live_id=live.id,
                    payload=Fields(ADDRESS, body),
                )
                if any(c.field == "inviteLinks" and c.before and not c.after for c in changes):
                    action.takes_away(
                        "turns invite links off: whoever holds one can no longer join",
                        readers=True,
                    )
                ctx.add(action)

    def export(self, live: LiveState, names: ExportNames) -> Any:
        resource = live.by_address.get(ADDRESS)
        if resource is None:
            return None
        out: dict[str, Any] = {}
        for f in self.fields:
            value = resource.fields.get(f.name)
            if value is None or value == "":  # no agent instructions: an empty document
                continue
            out[f.name] = {"site": names.name(value)} if f.ref else value
        return out

    async def execute(self, action: Action, run: RunContext) -> None:
        """One PATCH of the organization for its fields, one PUT for its agent instructions."""
        fields = dict(run.resolve(fields_of(action).fields))
        if "agentInstructions" in fields:
            body = {"instructions": to_document(fields.pop("agentInstructions"))}
            await self.send(run.api, "agentInstructions", body, org=run.org_id)
        if fields:
            await self.send(run.api, "update", fields, org=run.org_id)

    def lockout(self, actions: Sequence[Action], guard: Lockout) -> None:
        for action in actions:
            sso = next((c for c in action.changes if c.field == "sso"), None)
            if sso is None:
                continue
            if sso.before and not sso.after:
                guard.problems.append("settings: disables SSO enforcement for the organization")
            if sso.after and guard.me is not None and not guard.me_uses_sso:
                guard.problems.append(
                    "settings: enforces SSO while the API token's user is not an SSO member"
                )
