"""Saved plans: what was reviewed, with a fingerprint of every live resource it was made from.

A saved plan holds no secret. Applying it re-reads the manifests (so it needs the same
environment variables) and the live state, and refuses unless both are as they were: then the
plan made now is the plan that was reviewed, and that one is applied."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docsync.engine.errors import ApplyRefused
from docsync.engine.model import Plan
from docsync.engine.state import LiveState
from docsync.kinds import KINDS
from docsync.manifest import LoadedManifest
from docsync.render.json import plan_document, sensitive_marker

SAVED_FORMAT = "docsync-saved-plan/1"


def _sensitive_fields() -> dict[str, set[str]]:
    return {kind.name: {f.name for f in kind.fields if f.sensitive} for kind in KINDS}


def fingerprint(live: LiveState, secret: set[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Each live resource's managed fields by address; secret ones (by kind, or because the
    manifest's value for them is) as markers."""
    hidden = _sensitive_fields()
    prints: dict[str, dict[str, Any]] = {}
    for resource in live.by_address.values():
        masked = {
            name: sensitive_marker(value)
            if name in hidden.get(resource.kind, ()) or (resource.address, name) in secret
            else value
            for name, value in resource.fields.items()
        }
        prints[resource.address] = {"kind": resource.kind, "id": resource.id, "fields": masked}
    return prints


@dataclass
class SavedPlan:
    plan: dict[str, Any]
    manifests: dict[str, Any]
    live: dict[str, dict[str, Any]]

    @classmethod
    def make(cls, plan: Plan, live: LiveState, loaded: LoadedManifest) -> SavedPlan:
        return cls(
            plan=plan_document(plan).model_dump(mode="json"),
            manifests={"files": list(loaded.files), "digest": loaded.digest},
            live=fingerprint(live, plan.sensitive),
        )

    def write(self, path: str | Path) -> None:
        document = {
            "format": SAVED_FORMAT,
            "plan": self.plan,
            "manifests": self.manifests,
            "live": self.live,
        }
        Path(path).write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", "utf-8")

    @classmethod
    def read(cls, path: str | Path) -> SavedPlan:
        try:
            document = json.loads(Path(path).read_text("utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ApplyRefused(f"{path}: not a readable saved plan: {error}") from error
        if not isinstance(document, dict) or document.get("format") != SAVED_FORMAT:
            raise ApplyRefused(
                f"{path}: not a saved plan of this docsync (expected format {SAVED_FORMAT}); "
                "make it with `docsync plan --out FILE`"
            )
        try:
            return cls(document["plan"], document["manifests"], document["live"])
        except KeyError as error:
            raise ApplyRefused(f"{path}: saved plan lacks {error}") from error

    # -- checks before applying ----------------------------------------------------------------
    def check_manifests(self, loaded: LoadedManifest) -> None:
        if loaded.digest != self.manifests.get("digest"):
            files = ", ".join(self.manifests.get("files", []))
            raise ApplyRefused(
                "the manifests, or the environment variables and --var values they read, are "
                f"not what they were when the plan was made ({files}); "
                "run `docsync plan --out` again and review the new plan"
            )

    def check_live(self, live: LiveState, plan: Plan) -> None:
        now = fingerprint(live, plan.sensitive)
        problems = []
        for address in sorted(set(self.live) | set(now)):
            then, current = self.live.get(address), now.get(address)
            if then is None:
                problems.append(f"{address}: created since the plan was made")
            elif current is None:
                problems.append(f"{address}: deleted since the plan was made")
            elif then["id"] != current["id"]:
                problems.append(f"{address}: now another resource (id {current['id']})")
            else:
                problems += [
                    f"{address}: {field} changed: {_show(then['fields'].get(field))} -> "
                    f"{_show(current['fields'].get(field))}"
                    for field in sorted(set(then["fields"]) | set(current["fields"]))
                    if then["fields"].get(field) != current["fields"].get(field)
                ]
        if problems:
            raise ApplyRefused(
                "the saved plan is stale: the organization changed since it was made:\n  "
                + "\n  ".join(problems)
                + "\nRun `docsync plan --out` again and review the new plan."
            )

    def check_same(self, plan: Plan) -> None:
        """The last guard: the plan made now must be the reviewed one, action for action."""
        now = plan_document(plan).model_dump(mode="json")
        if now["actions"] != self.plan.get("actions"):
            raise ApplyRefused(
                "the plan made now differs from the saved one although its inputs look the same; "
                "run `docsync plan --out` again and review the new plan"
            )


def _show(value: Any) -> str:
    if isinstance(value, dict) and value.get("sensitive") is True:
        return "(sensitive)"
    return json.dumps(value, sort_keys=True)
