"""Planner tests without HTTP: a manifest (YAML text) and live state (API-shaped items per
kind) in, the plan's actions or its problems out."""

from __future__ import annotations

import tempfile
import textwrap
from pathlib import Path
from typing import Any, TypeVar

from docsync.core.context import PlanContext
from docsync.core.model import Plan
from docsync.core.state import LiveState
from docsync.engine.planner import diff, plan_kinds
from docsync.kinds import KINDS
from docsync.manifest import LoadedManifest, load_manifests

ORG: dict[str, Any] = {"id": "org_acme", "title": "Acme"}

P = TypeVar("P")


def live_state(items: dict[str, Any], organization: dict[str, Any] | None = None) -> LiveState:
    """`items`: kind name -> what that kind's fetch returns (lists of API objects; a site's
    structure under `_structure`, a team's members under `_members`)."""
    live = LiveState(organization or ORG)
    for kind in KINDS:
        if kind.name in items or kind.name == "settings":
            raw = items.get(kind.name)
            if kind.name == "member" and isinstance(raw, list):
                raw = {"members": raw, "me": None}
            for resource in kind.to_live(raw, live):
                live.add(resource)
            live.fetched.add(kind.name)
    return live


#: the kinds a manifest writes at its top (nested ones are planned by their parents)
TOP = [k for k in KINDS if not k.nested]


def load(manifest: str, environ: dict[str, str] | None = None) -> LoadedManifest:
    """`manifest` (YAML, `organization: org_acme` added), loaded as the CLI loads it, `env()`
    reading `environ`."""
    text = "organization: org_acme\n" + textwrap.dedent(manifest)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "manifest.yaml"
        path.write_text(text, encoding="utf-8")
        return load_manifests([path], environ=environ or {})


def plan(
    manifest: str,
    items: dict[str, Any] | None = None,
    organization: dict[str, Any] | None = None,
    *,
    environ: dict[str, str] | None = None,
    resend_secrets: bool = False,
) -> Plan:
    """The plan of `manifest` against `items`."""
    live = live_state(items or {}, organization)
    return diff(load(manifest, environ), live, TOP, resend_secrets=resend_secrets)


def attempt(
    manifest: str, items: dict[str, Any] | None = None, *, environ: dict[str, str] | None = None
) -> PlanContext:
    """What the kinds planned for `manifest`, problems included (`plan` raises on those)."""
    return plan_kinds(load(manifest, environ), live_state(items or {}), TOP)


def steps(result: Plan) -> list[str]:
    """`verb address` of every action, in plan order."""
    return [f"{a.verb} {a.address}" for a in result.actions]


def site(
    site_id: str, title: str, structure: list[dict[str, Any]], **fields: Any
) -> dict[str, Any]:
    """A live site with a structure of sections (or groups) as the structure read returns it."""
    return {
        "id": site_id,
        "title": title,
        "visibility": "public",
        "published": False,
        "_structure": {"type": "sections", "structure": structure},
    } | fields


def root_spaces_site(site_id: str, title: str, *site_spaces: dict[str, Any]) -> dict[str, Any]:
    """A live site without sections: its site spaces at the root."""
    return site(site_id, title, []) | {
        "_structure": {"type": "siteSpaces", "structure": list(site_spaces)}
    }


def section(
    section_id: str, title: str, *site_spaces: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    return {
        "object": "site-section",
        "id": section_id,
        "title": title,
        "path": title.lower().replace(" ", "-"),
        "default": False,
        "siteSpaces": list(site_spaces),
    } | extra


def site_space(item_id: str, space_id: str, path: str, default: bool = False) -> dict[str, Any]:
    return {"id": item_id, "space": {"id": space_id}, "path": path, "default": default}


def group(group_id: str, title: str, *sections: dict[str, Any]) -> dict[str, Any]:
    return {
        "object": "site-section-group",
        "id": group_id,
        "title": title,
        "sections": list(sections),
    }


def only_update(plan: Any, address: str, payload: type[P]) -> tuple[Any, P]:
    """The plan's one action, an update of `address` whose payload is a `payload`."""
    [action] = plan.actions
    assert action.address == address and action.verb == "update", action
    assert isinstance(action.payload, payload), action.payload
    return action, action.payload
