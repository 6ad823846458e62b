"""The machine-readable plan: a stable, versioned JSON document (schemas/plan.schema.json).

Sensitive values never appear: each is replaced by a marker with a keyed hash (HMAC under a key
derived from DOCSYNC_TOKEN, docsync.core.secrecy), so that two plans can still tell "changed"
from "unchanged" while a plan file alone gives nothing to check a guessed secret against."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from docsync import __version__
from docsync.core.model import VERBS, Action, FieldChange, Plan, verb_counts
from docsync.core.secrecy import keyed_digest, text_digest
from docsync.kinds.catalogue import KINDS
from docsync.render.careful import needs_review, policy_warnings
from docsync.render.elements import ABSENT, element_changes
from docsync.render.pictures import structures

FORMAT_VERSION: Literal[1] = 1


class SensitiveValue(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    sensitive: Literal[True] = True
    sha256: str = Field(
        description="HMAC-SHA256 of the value's JSON under a key derived from the API token: "
        "compares, never reveals, and cannot be checked against guesses without the token"
    )


class ElementDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    path: str = Field(
        description='Where in the field: `members["ada@acme.example"]`, `properties.isBeta.type`, '
        '`emailDomains[1]`, `redirects[source="/start"]`'
    )
    op: Literal["add", "remove", "change"] = Field(
        description="add: absent before; remove: absent after; change: a value on both sides"
    )
    before: Any = Field(description="The element's live value; null when op is add")
    after: Any = Field(description="The element's desired value; null when op is remove")


class ChangeDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    field: str
    before: Any = Field(description="Live value; null when absent. A marker when sensitive.")
    after: Any = Field(description="Desired value; null when removed. A marker when sensitive.")
    sensitive: bool = False
    reference: bool = Field(False, description="Values are addresses of other resources")
    elements: list[ElementDoc] | None = Field(
        None,
        description="Only the changed elements of an updated map, list or JSON value (before "
        "and after above stay whole); null when the change is shown whole: creates, deletes, "
        "scalars, sensitive values",
    )


class PolicyWarningDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    rule: str = Field(description="The rule's `name` in the manifest's `policies:`")
    message: str = Field(description="Its `warn` text")


class ActionDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    key: str = Field(description="Unique within the plan: '<verb> <address>'")
    verb: Literal[
        "create", "update", "delete", "replace", "restore", "reorder", "publish", "unpublish"
    ]
    kind: str
    address: str
    location: str | None = Field(description="The manifest file:line:column behind the action")
    live_id: str | None
    depends_on: list[str] = Field(description="Keys of the actions that must be done first")
    changes: list[ChangeDoc]
    notes: list[str]
    destructive: bool = Field(
        description="Removes something a reader or an editor may miss: a delete or a replace, "
        "or an update that takes something away (a share link deleted or deactivated)"
    )
    audience_change: bool
    security_change: bool = Field(
        False, description="What runs on or for a site changes: scripts, assistant tools"
    )
    content_change: bool = Field(
        False,
        description="Starts an import into GitBook or an export to a repository (Git Sync)",
    )
    needs_review: bool = Field(
        False,
        description='Listed under "Needs a careful look": destructive, an audience, security '
        "or content change, or matched by a policy's `warn` rule",
    )
    policy_warnings: list[PolicyWarningDoc] = Field(
        default_factory=list,
        description="The `warn` rules of the manifest's `policies:` that matched the action",
    )


class UnmanagedDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    kind: str
    address: str
    id: str
    reason: str | None = Field(
        None, description="Why it is kept when `prune` names its kind by pattern"
    )


class NotPlannedDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    address: str = Field(description="A resource, a resource's part or a manifest section")
    why: str = Field(description="The request, the field and what the API answered")
    location: str | None = Field(None, description="Its entry's `file:line:column`")


class StructureDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    site: str
    before: list[str] = Field(description="The tree as read, one line per item; [] for a new site")
    after: list[str] = Field(description="The tree the manifest asks for")


class SummaryDoc(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    create: int
    update: int
    delete: int
    replace: int
    restore: int
    reorder: int
    publish: int
    unpublish: int
    text: str = Field(description="The summary line of the text rendering")


class _PlanDocument(BaseModel):
    """`docsync plan --format json`."""

    model_config = ConfigDict(extra="forbid", title="docsync plan")
    format_version: Literal[1] = FORMAT_VERSION
    docsync_version: str
    organization: str
    empty: bool
    summary: SummaryDoc
    actions: list[ActionDoc]
    unmanaged: list[UnmanagedDoc]
    warnings: list[str]
    not_planned: list[NotPlannedDoc] = Field(
        default_factory=list,
        description="What the manifest manages that the plan leaves out: the API answered it "
        "(or what it depends on) otherwise than docsync relies on; the rest is planned",
    )
    targets: list[str] = Field(
        default_factory=list, description="`--target` addresses: the plan is partial"
    )
    resend_secrets: bool = Field(
        default=False,
        description="Made with `--resend-secrets`: the secrets the API never answers back "
        "are sent again wherever the manifests write one",
    )
    structures: list[StructureDoc] = Field(
        default_factory=list,
        description="Per site whose structure changes, its navigation tree before and after",
    )


def _kept_fields() -> dict[str, Any]:
    """One field per part a kind keeps (`Kind.kept_parts`: a resource's kept grants)."""
    return {
        part.field: (list[part.model], Field(default_factory=list, description=part.description))  # type: ignore[name-defined]
        for kind in KINDS
        for part in kind.kept_parts
    }


if TYPE_CHECKING:

    class PlanDocument(_PlanDocument):
        """The kinds' kept parts are added at run time (`_kept_fields`)."""

        def __getattr__(self, name: str) -> Any: ...

else:
    PlanDocument = create_model(
        "PlanDocument",
        __base__=_PlanDocument,
        __module__=__name__,
        __doc__=_PlanDocument.__doc__,
        **_kept_fields(),
    )


def sensitive_marker(value: Any) -> dict[str, Any]:
    """A secret as a plan shows it: a keyed digest of it, taken of its texts' own digests, so
    that a snapshot's placeholder of a secret (`core.secrecy.text_digest`) is marked as the
    secret is, and a rehearsal's plan of a copy is the plan of the organization."""
    digested = json.dumps(_texts_digested(value), sort_keys=True).encode()
    return {"sensitive": True, "sha256": keyed_digest(digested)}


def _texts_digested(value: Any) -> Any:
    if isinstance(value, str):
        return text_digest(value)
    if isinstance(value, dict):
        return {key: _texts_digested(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_texts_digested(item) for item in value]
    return value


def _element_docs(change: FieldChange, verb: str) -> list[ElementDoc] | None:
    elements = element_changes(change, verb)
    if elements is None:
        return None

    def side(value: Any) -> Any:
        return None if value is ABSENT else value

    return [
        ElementDoc(path=e.path, op=e.op, before=side(e.before), after=side(e.after))
        for e in elements
    ]


def _change(change: FieldChange, verb: str) -> ChangeDoc:
    if change.sensitive:
        before = sensitive_marker(change.before) if change.before is not None else None
        after = sensitive_marker(change.after) if change.after is not None else None
    else:
        before, after = change.before, change.after
    return ChangeDoc(
        field=change.field,
        before=before,
        after=after,
        sensitive=change.sensitive,
        reference=change.reference,
        elements=_element_docs(change, verb),
    )


def action_document(action: Action) -> ActionDoc:
    return ActionDoc(
        key=action.key,
        verb=action.verb,
        kind=action.kind,
        address=action.address,
        location=action.location,
        live_id=action.live_id,
        depends_on=list(action.depends_on),
        changes=[_change(c, action.verb) for c in action.changes],
        notes=list(action.notes),
        destructive=action.destructive,
        audience_change=action.audience_change,
        security_change=action.security_change,
        content_change=action.content_change,
        needs_review=needs_review(action),
        policy_warnings=[
            PolicyWarningDoc(rule=rule, message=message)
            for rule, message in policy_warnings(action)
        ],
    )


def plan_document(plan: Plan) -> PlanDocument:
    counts = verb_counts(plan.actions)
    return PlanDocument(
        docsync_version=__version__,
        organization=plan.organization,
        empty=plan.empty,
        summary=SummaryDoc(**{verb: counts[verb] for verb in VERBS}, text=plan.summary()),
        actions=[action_document(a) for a in plan.actions],
        unmanaged=[
            UnmanagedDoc(kind=u.kind, address=u.address, id=u.id, reason=u.reason or None)
            for u in plan.unmanaged
        ],
        warnings=list(plan.warnings),
        not_planned=[
            NotPlannedDoc(address=n.address, why=n.why, location=n.location)
            for n in plan.not_planned
        ],
        targets=list(plan.targets),
        resend_secrets=plan.resend_secrets,
        structures=[
            StructureDoc(site=p.subject, before=p.before, after=p.after) for p in structures(plan)
        ],
        **{
            part.field: [part.dump(kept) for kept in plan.kept if kept.kind == kind.name]
            for kind in KINDS
            for part in kind.kept_parts
        },
    )


def render_json(plan: Plan) -> str:
    return plan_document(plan).model_dump_json(indent=2) + "\n"


def plan_schema() -> dict[str, Any]:
    schema = PlanDocument.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
