"""Live state -> manifests, to adopt an existing organization: planning the export right after
writing it finds nothing to do."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from docsync.core.state import LiveState
from docsync.engine.planner import read_live
from docsync.kinds import KINDS
from docsync.kinds.catalogue import CATALOGUE
from docsync.manifest.schema import manifest_schema, schema_text

if TYPE_CHECKING:
    from docsync.api import ApiClient

#: Written beside the manifests, so that their `$schema` line resolves wherever the directory
#: is (a clone of this repository or not): the schema of the docsync that wrote them.
SCHEMA_FILE = "manifest.schema.json"
SCHEMA_LINE = f"# yaml-language-server: $schema=./{SCHEMA_FILE}\n"


def _files() -> dict[str, tuple[str, ...]]:
    """file -> the manifest sections it holds, from the declarations' `export_file`: in the
    catalogue's order, a file's single settings before its lists."""
    files: dict[str, list[str]] = {}
    for declared in CATALOGUE.top:
        files.setdefault(str(declared.export_file), [])
    for declared in sorted(CATALOGUE.top, key=lambda d: not d.singleton):
        files[str(declared.export_file)].append(declared.section)
    return {name: tuple(sections) for name, sections in files.items()}


FILES: dict[str, tuple[str, ...]] = _files()


@dataclass
class Names:
    """Refers to live resources by name where the name is unique in its kind, else by id; and
    replaces secrets with `env()` templates, listing the variables they need."""

    live: LiveState
    env_vars: dict[str, str] = field(default_factory=dict)  # variable -> what it holds
    #: plain address -> ids of the live resources that share it, which no entry can name
    shared: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._counts = Counter(
            (r.kind, r.name) for group in self.live.by_kind.values() for r in group
        )

    def name(self, address: str) -> str:
        resource = self.live.by_address.get(address)
        if resource is None:
            return address.rsplit("#", 1)[-1]  # an id the live state did not list
        unique = self._counts[(resource.kind, resource.name)] == 1
        return resource.name if unique else resource.id

    def secret(self, address: str, field_name: str) -> str:
        resource = self.live.by_address[address]
        slug = re.sub(r"[^A-Za-z0-9]+", "_", f"{resource.kind}_{resource.name}_{field_name}")
        variable = f"DOCSYNC_{slug.strip('_').upper()}"
        self.env_vars[variable] = f"{address}.{field_name}"
        return f"{{{{ env('{variable}') }}}}"

    def left_out(self, address: str, ids: list[str]) -> None:
        self.shared[address] = ids


async def export_organization(api: ApiClient, organization: str) -> tuple[dict[str, Any], Names]:
    """The whole managed state of an organization as one manifest document."""
    live, kinds = await read_live(api, organization, None, KINDS)
    names = Names(live)
    document: dict[str, Any] = {"organization": live.org_id}
    for kind in kinds:
        section = kind.export(live, names)
        if section:
            document[kind.section] = section
    return document, names


def _dump(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


def render(document: dict[str, Any]) -> str:
    return _dump(document)


def write(document: dict[str, Any], out: Path) -> list[Path]:
    """One file per group of sections (org, teams, content, sites), each naming the org, and the
    manifest schema their first lines point at (not a manifest: directories load only YAML)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, sections in FILES.items():
        part = {s: document[s] for s in sections if s in document}
        if not set(part) - {"organization"}:
            continue
        part = {"organization": document["organization"]} | part
        target = out / name
        target.write_text(SCHEMA_LINE + _dump(part), encoding="utf-8")
        written.append(target)
    schema = out / SCHEMA_FILE
    schema.write_text(schema_text(manifest_schema()), encoding="utf-8")
    return [*written, schema]
