"""`docsync apply --format json`: what was done, failed and skipped, with ids, for machines.

Built from the same plan document as `plan --format json` (no sensitive value in it); errors
are the messages the text rendering prints, which never hold a secret either."""

from __future__ import annotations

import json
from typing import Any

from docsync import __version__
from docsync.core.model import Plan
from docsync.engine.executor import ActionResult, ApplyReport
from docsync.render.json import plan_document


def _result(result: ActionResult, ids: dict[str, str]) -> dict[str, Any]:
    action = result.action
    entry: dict[str, Any] = {
        "key": action.key,
        "verb": action.verb,
        "kind": action.kind,
        "address": action.address,
        # a delete's id is the one it removed; a create's the one the API gave it
        "id": action.live_id if action.verb == "delete" else ids.get(action.address),
        "seconds": round(result.seconds, 3),
    }
    if result.outcome != "done":
        entry["error"] = result.error
    return entry


def apply_document(plan: Plan, report: ApplyReport | None) -> dict[str, Any]:
    """`report` is None when the plan was empty: nothing ran."""
    results = report.results if report is not None else []
    ids = report.ids if report is not None else {}
    # `not_started` appears only for an interrupted apply.
    outcomes: dict[str, list[dict[str, Any]]] = {"done": [], "failed": [], "skipped": []}
    for result in results:
        outcomes.setdefault(result.outcome.replace(" ", "_"), []).append(_result(result, ids))
    return {
        "format_version": 1,
        "docsync_version": __version__,
        "organization": plan.organization,
        "ok": all(r.outcome == "done" for r in results),
        "summary": {name: len(items) for name, items in outcomes.items()},
        **outcomes,
        "plan": plan_document(plan).model_dump(mode="json"),
    }


def render_apply_json(plan: Plan, report: ApplyReport | None) -> str:
    return json.dumps(apply_document(plan, report), indent=2, ensure_ascii=False) + "\n"
