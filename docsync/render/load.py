"""A plan document (`plan --format json`, or the plan inside a saved plan) read back into a
Plan, so that `docsync show` renders a saved plan with the very renderers `docsync plan` used.

Sensitive values stay the markers the document holds: the renderers never show them anyway."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from docsync.core.model import (
    DESTRUCTIVE,
    Action,
    FieldChange,
    NotPlanned,
    Picture,
    Plan,
    Unmanaged,
)
from docsync.errors import DocsyncError
from docsync.kinds.catalogue import KINDS
from docsync.render.json import PlanDocument


class PlanDocumentError(DocsyncError):
    """A file that is not a plan document this docsync can read."""


def read_document(data: Any, source: str) -> PlanDocument:
    try:
        return PlanDocument.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top)"
        raise PlanDocumentError(
            f"{source}: not a plan this docsync can show: at {where}: {first['msg']} "
            f"({error.error_count()} problem(s)); make it again with `docsync plan --out FILE`"
        ) from None


def plan_from_document(document: PlanDocument) -> Plan:
    actions = [
        Action(
            verb=doc.verb,
            kind=doc.kind,
            address=doc.address,
            changes=[
                FieldChange(
                    field=c.field,
                    before=c.before,
                    after=c.after,
                    sensitive=c.sensitive,
                    reference=c.reference,
                )
                for c in doc.changes
            ],
            location=doc.location,
            live_id=doc.live_id,
            depends_on=list(doc.depends_on),
            notes=list(doc.notes),
            audience_change=doc.audience_change,
            loss=doc.destructive and doc.verb not in DESTRUCTIVE,
            security_change=doc.security_change,
            content_change=doc.content_change,
        )
        for doc in document.actions
    ]
    return Plan(
        organization=document.organization,
        actions=actions,
        unmanaged=[
            Unmanaged(kind=u.kind, address=u.address, id=u.id, reason=u.reason or "")
            for u in document.unmanaged
        ],
        warnings=list(document.warnings),
        not_planned=[NotPlanned(n.address, n.why, n.location) for n in document.not_planned],
        targets=list(document.targets),
        resend_secrets=document.resend_secrets,
        structures=[Picture(p.site, p.before, p.after) for p in document.structures],
        kept=[
            part.load(doc)
            for kind in KINDS
            for part in kind.kept_parts
            for doc in getattr(document, part.field)
        ],
    )
