"""What changes of one context connection, and what its requests carry: a connection as read
(`kept`) and as written (`compared`), whether its setup differs, the create's body and the
PATCH of what differs, and the lines a plan shows. Plain values in and out: an entry as its
model dumps it (`written`), an item as `kept` keeps it.

A connection's setup (`connector` and `setupSettings`) is one value: production's PATCH takes
both or neither, so a change sends the written setup whole, its secrets included. The API
answers secrets masked: one it holds is kept as HELD and compared only as being there; a
written one is compared, and shown, as a keyed digest of its value."""

from __future__ import annotations

from typing import Any

from docsync.core.model import FieldChange
from docsync.core.secrecy import keyed_digest
from docsync.kinds.assistant.connectors import SECRETS

SECTION = "contextConnections"
#: a secret of the settings where the API holds one (it answers them masked)
HELD = "(held by the API)"


def kept(found: dict[str, Any]) -> dict[str, Any]:
    """A connection as read and kept: a secret the API holds as HELD, never its value."""
    settings = found.get("setupSettings")
    return {
        "id": str(found["id"]),
        "label": str(found.get("label") or ""),
        "connector": str(found["connector"]),
        "setupSettings": {
            str(name): HELD if name in SECRETS and value else value
            for name, value in (settings if isinstance(settings, dict) else {}).items()
        },
        "usageSettings": dict(found.get("usageSettings") or {}),
        "filter": str(found.get("filter") or ""),
    }


def compared(written: dict[str, Any]) -> dict[str, Any]:
    """An entry as compared: the fields written (a setup as a whole), secrets as digests."""
    shape: dict[str, Any] = {
        "label": written["label"],
        "connector": written["connector"],
        "setupSettings": {
            name: _digest(value) if name in SECRETS else value
            for name, value in (written.get("setupSettings") or {}).items()
        },
    }
    return shape | {k: written[k] for k in ("usageSettings", "filter") if k in written}


def _digest(value: Any) -> str:
    return f"digest:{keyed_digest(str(value).encode())[:32]}"


def _held(settings: dict[str, Any]) -> dict[str, Any]:
    return {name: HELD if name in SECRETS else value for name, value in settings.items()}


def same_setup(shape: dict[str, Any], item: dict[str, Any]) -> bool:
    """Whether a live connection has the written setup: its connector, its plain settings, and
    a secret wherever one is written (the API shows no more of it)."""
    if shape["connector"] != item["connector"]:
        return False
    return bool(_held(shape["setupSettings"]) == item["setupSettings"])


def create_body(written: dict[str, Any]) -> dict[str, Any]:
    """Production's create: the setup, and the usage and filter written (a label it takes
    not: a PATCH sets it once the connection is made)."""
    body = {"connector": written["connector"]}
    if written.get("setupSettings"):
        body["setupSettings"] = dict(written["setupSettings"])
    return body | {k: written[k] for k in ("usageSettings", "filter") if k in written}


def holds_secret(written: dict[str, Any]) -> bool:
    """Whether an entry writes a secret in its setup (one no plan can compare)."""
    return any(name in SECRETS for name in written.get("setupSettings") or {})


def update(
    written: dict[str, Any], shape: dict[str, Any], item: dict[str, Any], resend: bool = False
) -> tuple[dict[str, Any], list[FieldChange]]:
    """The PATCH of a live connection, and its lines: the whole setup when it differs, or when
    its secrets are sent again (`resend`: `--resend-secrets`), with its secrets; the label, the
    usage merged into the live one, the filter. Nothing: no change."""
    label = str(written["label"])
    body: dict[str, Any] = {}
    lines: list[FieldChange] = []
    resent = resend and holds_secret(written)
    if resent or not same_setup(shape, item):
        body["connector"] = written["connector"]
        if written.get("setupSettings"):
            body["setupSettings"] = dict(written["setupSettings"])
        if written["connector"] != item["connector"]:
            lines.append(_line(label, "connector", item["connector"], written["connector"]))
        lines += _setup_lines(label, item["setupSettings"], shape["setupSettings"], resent)
    if item["label"] != label:
        lines.append(_line(label, "label", item["label"] or None, label))
        body["label"] = label
    usage = shape.get("usageSettings")
    if usage is not None and any(item["usageSettings"].get(k) != v for k, v in usage.items()):
        merged = {**item["usageSettings"], **usage}
        body["usageSettings"] = merged
        lines.append(_line(label, "usageSettings", item["usageSettings"], merged))
    if "filter" in shape and shape["filter"] != item["filter"]:
        body["filter"] = shape["filter"]
        lines.append(_line(label, "filter", item["filter"], shape["filter"]))
    return body, lines


def _line(label: str, field: str, before: Any, after: Any, secret: bool = False) -> FieldChange:
    return FieldChange(f"{SECTION}.{label}.{field}", before, after, sensitive=secret)


def _setup_lines(
    label: str, before: dict[str, Any] | None, after: dict[str, Any] | None, resent: bool = False
) -> list[FieldChange]:
    """A line per setting that changes; a secret is shown changed only where it comes or goes
    (a held one cannot be compared), or wherever one is written when secrets are `resent`."""
    old, new = before or {}, after or {}
    lines = []
    for name in [*old, *(n for n in new if n not in old)]:
        secret = name in SECRETS
        was, now = old.get(name), new.get(name)
        if secret and resent and now is not None:
            pass  # sent again: shown, as (sensitive)
        elif (secret and (was is None) == (now is None)) or (not secret and was == now):
            continue
        lines.append(_line(label, f"setupSettings.{name}", was, now, secret))
    return lines


def created_lines(label: str, shape: dict[str, Any]) -> list[FieldChange]:
    """The lines of a connection made: every field written, each setting on its own."""
    lines = [_line(label, "connector", None, shape["connector"])]
    lines += _setup_lines(label, None, shape["setupSettings"])
    return lines + [
        _line(label, name, None, shape[name])
        for name in ("usageSettings", "filter")
        if name in shape
    ]


def deleted_lines(item: dict[str, Any]) -> list[FieldChange]:
    """The lines of a connection deleted: what it read from."""
    label = item["label"] or f"(id {item['id']})"
    lines = [_line(label, "connector", item["connector"], None)]
    return lines + _setup_lines(label, item["setupSettings"], None)


def loss(item: dict[str, Any]) -> str:
    """What a connection deleted takes away."""
    label = f'"{item["label"]}"' if item["label"] else f"(no label, id {item['id']})"
    return (
        f"context connection {label} ({item['connector']}) is deleted: the site's assistant "
        "no longer reads what it brought"
    )


def made(body: dict[str, Any], found: dict[str, Any]) -> bool:
    """Whether a listed connection is what a create of `body` made: no label yet, and the
    connector and plain settings the create sent."""
    if found.get("label") or found.get("connector") != body["connector"]:
        return False
    return bool(_held(body.get("setupSettings") or {}) == kept(found)["setupSettings"])
