"""Where the rich example holds a secret, read off the catalogue: every field declared sensitive
(a SAML certificate, an MCP server's headers, a visitor-auth site's fallback URL), every text
value of a field whose text is secret unless known to be plain (an integration's configuration,
on the organization, a site or a space), and the secret keys of a mapping (a context
connection's token: the API answers it masked, so a rotation of it alone is planned only by
`--resend-secrets`, and docsync sends it with every setup it writes; it is scanned for as every
other). A kind added
later with such a field is found here without a line, as long as the rich example writes it
(tests/engine/test_rich_example.py holds the example to every kind), and `owners` says which
declared fields the example leaves without a text value. Beside them, values secret by their
provenance only (`env()` in a field that is not secret by declaration): those never go plain in
the scan.

Each slot gets a value per phase with the characters every encoding changes (`+`, `/`, `=`, `&`,
a quote, a backslash, a non-ASCII letter), and `needles` gives each value with its encodings and
its unkeyed digests, which no output may hold either."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, quote_plus

from docsync.kinds import CATALOGUE
from docsync.kinds.declaration import Declaration, Field
from docsync.manifest import load_manifests
from tests.engine.rich import EXAMPLE

Path = tuple[str | int, ...]
#: a pattern's step over every value of a mapping (a mapped kind's entries: `sites: {Docs: ..}`)
VALUES = "{}"
#: values that are secret only because a manifest reads them with env(): (path, a URL?)
PROVENANCE: tuple[tuple[Path, bool], ...] = (
    (("collections", 0, "description"), False),
    (("saml", 0, "entityID"), True),
    (("openapi", 0, "source", "url"), True),
    (("settings", "agentInstructions"), False),
    (("sites", 0, "redirects", 1, "destination", "url"), True),
    (("sites", 0, "mcpServers", 0, "url"), True),
    (("sites", 0, "agentSettings", "editing", "customInstructions"), False),
    (("sites", 0, "customization", "footer", "copyright"), False),
    (("sites", 0, "sections", 0, "description"), False),
    (("sites", 0, "sections", 0, "siteSpaces", 1, "customization", "footer", "copyright"), False),
)


@dataclass(frozen=True)
class Slot:
    """One secret value of the manifest."""

    path: Path
    #: the value must be an absolute URL
    url: bool
    #: (kind, field) secret by declaration; None: secret by provenance only (env())
    owner: tuple[str, str] | None
    #: what the plan shows as one change (a sensitive field whole, a configuration per key)
    unit: Path | None
    #: a secret the API answers masked (`Field.secret_keys`): no plan can compare it, so only a
    #: plan made with --resend-secrets shows it
    masked: bool = False

    def value(self, index: int, phase: str) -> str:
        core = f"s{index:02d}{phase}-K+q/w=z&x"
        if self.url:
            return f"https://acme.example/auth/{core}"
        return f'{core}-"\\-ë'


def secret_fields() -> list[tuple[Declaration, Field]]:
    """Every field the catalogue declares secret, whole, in its text or at some of its keys."""
    return [
        (d, f) for d in CATALOGUE for f in d.fields if f.sensitive or f.secret_text or f.secret_keys
    ]


def rich_manifest() -> dict[str, Any]:
    """The rich example's last stage as plain data (its templates rendered)."""
    loaded = load_manifests([EXAMPLE], variables={"stage": "presentation"})
    data: dict[str, Any] = loaded.manifest.model_dump(exclude_unset=True, by_alias=True)
    data["collections"][0]["description"] = "-"
    data["settings"]["agentInstructions"] = "-"
    docs = data["sites"][0]
    docs["customization"]["footer"] = {"copyright": "-"}
    docs["sections"][0]["description"] = "-"
    docs["sections"][0]["siteSpaces"][1]["customization"]["footer"] = {"copyright": "-"}
    return data


def slots(data: dict[str, Any]) -> list[Slot]:
    """Every secret of `data`: declared ones first, in the catalogue's order, then PROVENANCE."""
    found: list[Slot] = []
    for declared, field in secret_fields():
        owner = (declared.name, field.name)
        for pattern in _entry_paths(declared):
            for path, entry in _walk(data, pattern):
                value = entry.get(field.name) if isinstance(entry, dict) else None
                at: Path = (*path, field.name)
                if isinstance(value, str) and field.sensitive:
                    found.append(Slot(at, value.startswith("http"), owner, at))
                elif isinstance(value, dict) and field.secret_keys:
                    for key in field.secret_keys:
                        if isinstance(value.get(key), str):
                            found.append(Slot((*at, key), False, owner, (*at, key), True))
                elif isinstance(value, dict):
                    for key, item in value.items():
                        if isinstance(item, str):
                            unit = at if field.sensitive else (*at, key)
                            found.append(Slot((*at, key), item.startswith("http"), owner, unit))
    found += [Slot(path, url, None, path) for path, url in PROVENANCE]
    return found


def owners(found: list[Slot]) -> set[tuple[str, str]]:
    return {slot.owner for slot in found if slot.owner is not None}


def _entry_paths(declared: Declaration) -> list[Path]:
    if not declared.mapped:
        return CATALOGUE.entry_paths(declared.name)
    return [
        (*above, declared.section, VALUES)
        for parent in declared.parents
        for above in CATALOGUE.entry_paths(parent)
    ]


def _walk(data: Any, pattern: Path, at: Path = ()) -> Iterator[tuple[Path, Any]]:
    if not pattern:
        yield at, data
        return
    head, rest = pattern[0], pattern[1:]
    if head == "*" and isinstance(data, list):
        for index, item in enumerate(data):
            yield from _walk(item, rest, (*at, index))
    elif head == VALUES and isinstance(data, dict):
        for key, item in data.items():
            yield from _walk(item, rest, (*at, key))
    elif isinstance(data, dict) and data.get(head) is not None:
        yield from _walk(data[head], rest, (*at, head))


def placed(data: dict[str, Any], found: list[Slot]) -> dict[str, Any]:
    """`data` with each slot's value replaced by a placeholder `render` fills."""
    out = json.loads(json.dumps(data))
    for index, slot in enumerate(found):
        *above, last = slot.path
        holder = out
        for step in above:
            holder = holder[step]
        holder[last] = f"@@SLOT{index:02d}@@"
    return out


def needles(value: str) -> dict[str, bytes]:
    """What of a secret no output may hold: the value, its encodings, its unkeyed digests."""
    raw = value.encode()
    found = {
        "value": raw,
        "base64": base64.b64encode(raw).rstrip(b"="),
        "base64url": base64.urlsafe_b64encode(raw).rstrip(b"="),
        "url-encoded": quote(value, safe="").encode(),
        "form-encoded": quote_plus(value).encode(),
        "JSON-escaped": json.dumps(value)[1:-1].encode(),
        "JSON-escaped (UTF-8)": json.dumps(value, ensure_ascii=False)[1:-1].encode(),
    }
    for name in ("sha256", "sha1", "md5"):
        found[name] = hashlib.new(name, raw).hexdigest().encode()
        of_json = hashlib.new(name, json.dumps(value).encode()).hexdigest()
        found[f"{name} of its JSON"] = of_json.encode()
    return found
