"""Saved plans: what was reviewed, with a fingerprint of every live resource it was made from.

The fingerprint holds each resource's managed fields and a keyed digest of every part read with
it (a resource's grants, a site's redirects, share links, customization, publishing auth, a site
space's overrides): whatever a kind's read keeps in a `_` slot of the item, so that a part a kind
reads later is covered without naming it here.

A saved plan holds no secret. Applying it re-reads the manifests (so it needs the same
environment variables) and the live state, and refuses unless both are as they were: then the
plan made now is the plan that was reviewed, and that one is applied."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsync.core.errors import ApplyRefused
from docsync.core.model import Plan
from docsync.core.secrecy import keyed_digest
from docsync.core.state import LiveState
from docsync.manifest.files import MAX_FILE_BYTES, given_a_manifest
from docsync.manifest.input_files import InputRefused, read_input
from docsync.render.json import plan_document, sensitive_marker

if TYPE_CHECKING:  # `docsync show` reads a saved plan without the manifest language or kinds
    from docsync.manifest import LoadedManifest

SAVED_FORMAT = "docsync-saved-plan/2"
#: a saved plan's size, at most: a plan runs to about ten times its manifests, which are at
#: most 10 MiB a file
MAX_PLAN_BYTES = 256 * 1024 * 1024


def _sensitive_fields() -> dict[str, set[str]]:
    from docsync.kinds.catalogue import CATALOGUE

    return {d.name: {f.name for f in d.fields if f.sensitive or f.secret_text} for d in CATALOGUE}


def parts(raw: dict[str, Any]) -> dict[str, str]:
    """A keyed digest of each part read with a resource: every `_` slot of its item holding what
    the API returned (a dict, a list, or None for nothing there), a dict per key (`grants.teams`).
    Objects built from what was read (a site's tree) are not reads; a part's own parts (a site
    space's overrides inside its site's structure) count where they belong, not twice. Digests
    only: a part may hold secrets, and its size is not the plan file's."""
    found: dict[str, str] = {}
    for slot, value in raw.items():
        if not slot.startswith("_") or not isinstance(value, dict | list | None):
            continue
        name = slot[1:]
        if isinstance(value, dict):
            for key, item in value.items():
                found[f"{name}.{key}"] = _digest(item)
        else:
            found[name] = _digest(value)
    return found


def _digest(value: Any) -> str:
    return keyed_digest(json.dumps(_read_only(value), sort_keys=True).encode())


#: what changes with people's use of the product, not with their configuration: a team's
#: members as read carry each one's `lastSeenAt`, which moves whenever they (or this token's
#: user) are active, and would make every reviewed plan stale before it is applied
ACTIVITY = frozenset({"lastSeenAt"})


def _read_only(value: Any) -> Any:
    """The value without the `_` slots a read added inside it, nor its activity stamps."""
    if isinstance(value, dict):
        return {
            k: _read_only(v)
            for k, v in value.items()
            if not str(k).startswith("_") and k not in ACTIVITY
        }
    if isinstance(value, list):
        return [_read_only(v) for v in value]
    return value


def fingerprint(live: LiveState, secret: set[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Each live resource's managed fields by address, secret ones (by declaration, whole or in
    their text, or because the manifest's value for them is) as markers, and its parts read
    as digests."""
    hidden = _sensitive_fields()
    prints: dict[str, dict[str, Any]] = {}
    for resource in live.by_address.values():
        masked = {
            name: sensitive_marker(value)
            if name in hidden.get(resource.kind, ()) or (resource.address, name) in secret
            else value
            for name, value in resource.fields.items()
        }
        prints[resource.address] = {
            "kind": resource.kind,
            "id": resource.id,
            "fields": masked,
            "parts": parts(resource.raw),
        }
    return prints


@dataclass
class SavedPlan:
    plan: dict[str, Any]
    manifests: dict[str, Any]
    live: dict[str, dict[str, Any]]
    #: the organization as plans name it, `Acme (org_acme)`: `docsync show` heads the plan so
    title: str = ""

    @classmethod
    def make(cls, plan: Plan, live: LiveState, loaded: LoadedManifest) -> SavedPlan:
        return cls(
            plan=plan_document(plan).model_dump(mode="json"),
            manifests={
                "files": list(loaded.files),
                "digest": loaded.digest,
                "file_sha256": _file_hashes(loaded.files),
            },
            live=fingerprint(live, plan.sensitive),
            title=f"{live.organization.get('title')} ({live.org_id})",
        )

    def write(self, path: str | Path) -> None:
        document = {
            "format": SAVED_FORMAT,
            "plan": self.plan,
            "manifests": self.manifests,
            "live": self.live,
            "title": self.title,
        }
        # Keys in the order made, not sorted: `docsync show --format json` must print the plan
        # exactly as `docsync plan --format json` did, values' own key order included.
        Path(path).write_text(json.dumps(document, indent=2) + "\n", "utf-8")

    @classmethod
    def read(cls, path: str | Path) -> SavedPlan:
        text = ""
        try:
            text = read_plan_file(str(path))
            document = json.loads(text)
        except (InputRefused, UnicodeDecodeError, json.JSONDecodeError) as error:
            if text and given_a_manifest(str(path), text):
                raise ApplyRefused(
                    f"{path} is a manifest, not a saved plan: `docsync apply {path}` plans and "
                    f"applies it; `docsync plan {path} --out plan.json` saves a plan to review, "
                    "which `docsync apply --plan plan.json` applies"
                ) from None
            raise ApplyRefused(f"{path}: {_unreadable(error)}") from None
        return cls.from_document(document, str(path))

    @classmethod
    def from_document(cls, document: Any, path: str) -> SavedPlan:
        """The saved plan a file's JSON holds; ApplyRefused when it holds none."""
        if not isinstance(document, dict) or document.get("format") != SAVED_FORMAT:
            raise ApplyRefused(
                f"{path}: not a saved plan of this docsync (expected format {SAVED_FORMAT}); "
                "make it with `docsync plan --out FILE`"
            )
        parts = {key: document.get(key) for key in ("plan", "manifests", "live")}
        bad = [key for key, part in parts.items() if not isinstance(part, dict)]
        if bad:
            raise ApplyRefused(
                f"{path}: a damaged saved plan ({', '.join(bad)} missing or malformed); "
                "make it again with `docsync plan --out FILE`"
            )
        title = document.get("title")
        return cls(
            document["plan"],
            document["manifests"],
            document["live"],
            title if isinstance(title, str) else "",
        )

    @property
    def targets(self) -> list[str]:
        """The `--target` addresses the plan was made with (none: a whole plan)."""
        targets = self.plan.get("targets") or []
        return [t for t in targets if isinstance(t, str)]

    @property
    def resend_secrets(self) -> bool:
        """Whether the plan was made with `--resend-secrets`."""
        return self.plan.get("resend_secrets") is True

    # -- checks before applying ----------------------------------------------------------------
    def check_manifests(self, loaded: LoadedManifest) -> None:
        """Same files, same text, same values from env() and --var: else say which differs."""
        if loaded.digest == self.manifests.get("digest"):
            return
        then = self.manifests.get("file_sha256") or {}
        edited = [name for name, sha in _file_hashes(loaded.files).items() if then.get(name) != sha]
        if then and edited:
            why = f"manifest file(s) changed since the plan was made: {', '.join(edited)}"
        else:
            files = ", ".join(self.manifests.get("files", []))
            why = (
                f"the manifest files ({files}) are unchanged, but the environment variables "
                "or --var/--var-file values they read are not what they were when the plan was "
                "made (set the same ones, secrets included), or the manifests' digest key is not "
                "the one the plan was made with (DOCSYNC_PLAN_KEY when set, else DOCSYNC_TOKEN: "
                "plan and apply with the same)"
            )
        raise ApplyRefused(
            f"refusing the saved plan: {why}; run `docsync plan --out` again and review the "
            "new plan"
        )

    def check_live(self, live: LiveState, plan: Plan) -> None:
        now = fingerprint(live, plan.sensitive)
        # A resource renamed since is one resource under two addresses: say so, once.
        was = {(p["kind"], p["id"]): a for a, p in self.live.items() if a not in now}
        renamed = {
            address: was[(p["kind"], p["id"])]
            for address, p in now.items()
            if address not in self.live and (p["kind"], p["id"]) in was
        }
        problems = []
        for address in sorted(set(self.live) | set(now)):
            then, current = self.live.get(address), now.get(address)
            if address in renamed:
                problems.append(
                    f"{address}: renamed or moved since the plan was made (was {renamed[address]})"
                )
            elif address in renamed.values():
                continue
            elif then is None:
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
                read_then, read_now = then.get("parts") or {}, current["parts"]
                problems += [
                    f"{address}: {part} changed since the plan was made"
                    for part in sorted(set(read_then) | set(read_now))
                    if read_then.get(part) != read_now.get(part)
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
        if now["organization"] != self.plan.get("organization"):
            raise ApplyRefused(
                f"the saved plan is for organization {self.plan.get('organization')!r}, but the "
                f"manifests now name {now['organization']!r}; make the plan again"
            )
        if now["actions"] != self.plan.get("actions"):
            raise ApplyRefused(
                "the plan made now differs from the saved one although its inputs look the same; "
                "run `docsync plan --out` again and review the new plan"
            )


def read_plan_file(path: str) -> str:
    """The text of a plan file: a regular file of at most MAX_PLAN_BYTES, in UTF-8 (raises
    InputRefused, UnicodeDecodeError)."""
    return read_input(path, MAX_PLAN_BYTES).decode("utf-8")


def _unreadable(error: Exception) -> str:
    if isinstance(error, InputRefused):
        return error.reason
    if isinstance(error, UnicodeDecodeError):
        return "not a readable saved plan: not UTF-8 text"
    return f"not a readable saved plan: {error}"


def _file_hashes(files: list[str]) -> dict[str, str]:
    """Each manifest file's SHA-256 as written (templates unrendered: no env() value in it),
    read as the loader reads it (a regular file within the manifests' size)."""
    hashes = {}
    for name in files:
        try:
            hashes[name] = hashlib.sha256(read_input(name, MAX_FILE_BYTES)).hexdigest()
        except InputRefused:
            hashes[name] = "unreadable"
    return hashes


def _show(value: Any) -> str:
    if isinstance(value, dict) and value.get("sensitive") is True:
        return "(sensitive)"
    return json.dumps(value, sort_keys=True)
