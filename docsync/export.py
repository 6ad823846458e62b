"""Live state -> manifests, to adopt an existing organization: planning the export right after
writing it finds nothing to do. Or one resource as a file of production's own (`--format`: a
site's structure as its repository's `gitbook-docs.yaml`), which a kind of the catalogue writes
(`Kind.formats`)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from docsync.core.errors import PlanError
from docsync.core.state import LiveState
from docsync.engine.planner import ORGANIZATION, read_live, resolve_organization
from docsync.kinds import KINDS
from docsync.kinds.catalogue import CATALOGUE
from docsync.manifest.models import Manifest
from docsync.manifest.schema import manifest_schema, schema_text

if TYPE_CHECKING:
    from docsync.api import ApiClient

#: Written beside the manifests, so that their `$schema` line resolves wherever the directory
#: is (a clone of this repository or not): the schema of the docsync that wrote them.
SCHEMA_FILE = "manifest.schema.json"
SCHEMA_LINE = f"# yaml-language-server: $schema=./{SCHEMA_FILE}\n"
#: The second line of every file export writes: how `export --force` knows the files of an
#: earlier export. Those of docsync 0.2.0 began with SCHEMA_LINE and then `organization:`
#: (a schema beside the file, which only export writes there).
EXPORT_LINE = "# Written by docsync export: export --force rewrites this file, or removes it.\n"
HEADER = SCHEMA_LINE + EXPORT_LINE
_EARLIER_HEADER = SCHEMA_LINE + "organization:"


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
#: docsync's own sections, which export does not write but a user adds to its files (what to
#: prune, the deletion rail, policies): kept when export writes the folder again
KEPT = tuple(
    name
    for name in Manifest.model_fields
    if name != "organization" and not any(name in sections for sections in FILES.values())
)


@dataclass
class Names:
    """Refers to live resources by name where the name is unique in its kind, else by id; and
    replaces secrets with `env()` templates, listing the variables they need."""

    live: LiveState
    env_vars: dict[str, str] = field(default_factory=dict)  # variable -> what it holds
    #: plain address -> ids of the live resources that share it, which no entry can name
    shared: dict[str, list[str]] = field(default_factory=dict)
    #: address -> what of it no manifest writes, and why (said beside the export)
    as_is: dict[str, str] = field(default_factory=dict)

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

    def left_as_is(self, address: str, why: str) -> None:
        self.as_is[address] = why


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


class NotExported(PlanError):
    """`export --format`: no such format, or the title names no resource (or several)."""


async def export_format(
    api: ApiClient, organization: str | None, name: str, title: str
) -> tuple[str, Any]:
    """One resource, by its title, as the file of production's own that format `name` writes:
    in `organization`, or, when none is given, in the one organization the token can see that
    has it. Returns the file's name and its document."""
    try:
        written = KINDS.export_format(name)
    except LookupError as error:
        raise NotExported(str(error)) from None
    if organization is not None:
        orgs = [await resolve_organization(api, organization)]
    else:
        orgs = await api.list_all("/v1/orgs", items=ORGANIZATION)
    found: list[tuple[str, Any]] = []
    missed: list[str] = []
    for org in orgs:
        try:
            found.append((str(org["id"]), await written.read(api, str(org["id"]), title)))
        except LookupError as error:
            missed.append(str(error))
    if len(found) == 1:
        return written.file, found[0][1]
    if found:
        ids = ", ".join(org for org, _ in found)
        raise NotExported(f"{title!r} is in several organizations ({ids}): name one with --org")
    raise NotExported("; ".join(missed) or "the token can see no organization")


def render_format(name: str, title: str, document: Any) -> str:
    """A file of production's own, headed by what it is and who wrote it."""
    head = f"# {name} of {title!r}, written by docsync export --format\n"
    return head + _dump(document)


def _dump(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


def render(document: dict[str, Any]) -> str:
    return _dump(document)


@dataclass
class Folder:
    """What a folder holds before export writes into it again (`export --force`): the files
    an earlier export wrote, what of docsync's own sections was added to them (`prune:`), and
    the manifests export did not write that would merge with it, with the sections they hold."""

    exported: list[Path] = field(default_factory=list)
    kept: dict[str, Any] = field(default_factory=dict)
    merging: dict[Path, str] = field(default_factory=dict)


def survey(out: Path) -> Folder:
    """Reads a folder's manifests (as `docsync plan` would, subfolders included) to tell the
    files export owns there, which it rewrites or removes, from the others, which it never
    touches: those holding a section export writes would define its entries twice. Export owns
    the files it names (org.yaml, teams.yaml, content.yaml, sites.yaml: `--force` always
    overwrote them) and those that begin with its header."""
    from docsync.manifest.files import discover, read_text
    from docsync.manifest.problems import Problem
    from docsync.manifest.yamlpos import parse_yaml

    folder = Folder()
    if not out.is_dir():
        return folder
    written = {section for sections in FILES.values() for section in sections}
    for name in discover([out])[0]:
        path = Path(name)
        text = read_text(name)
        if isinstance(text, Problem):
            folder.merging[path] = f"cannot be read ({text.message})"
            continue
        if name.endswith(".j2"):
            folder.merging[path] = "a template, which cannot be told before it is rendered"
            continue
        ours = path.parent == out and (
            path.name in FILES or text.startswith((HEADER, _EARLIER_HEADER))
        )
        parsed = parse_yaml(text, name)
        data = parsed.data if isinstance(parsed.data, dict) else {}
        if ours:
            folder.exported.append(path)
            _keep(folder.kept, data)
        elif parsed.problems:
            folder.merging[path] = f"cannot be read ({parsed.problems[0].message})"
        elif holds := [section for section in data if section in written]:
            folder.merging[path] = ", ".join(holds)
    return folder


def _keep(kept: dict[str, Any], data: dict[str, Any]) -> None:
    """docsync's own sections of a file export rewrites, merged as manifests merge them (a
    list: the union; anything else: the last one)."""
    for section in KEPT:
        value = data.get(section)
        old = kept.get(section)
        if isinstance(value, list) and isinstance(old, list):
            old.extend(item for item in value if item not in old)
        elif value is not None:
            kept[section] = list(value) if isinstance(value, list) else value


def write(document: dict[str, Any], out: Path, folder: Folder | None = None) -> list[Path]:
    """One file per group of sections (org, teams, content, sites), each naming the org, and the
    manifest schema their first lines point at (not a manifest: directories load only YAML).
    Into a folder an earlier export wrote (`folder`), the sections of docsync's own it held
    (`prune:`) are written again into org.yaml, and its files this export does not write are
    removed (`remove_stale`): the folder holds one consistent set."""
    out.mkdir(parents=True, exist_ok=True)
    kept = folder.kept if folder is not None else {}
    written = []
    for name, sections in FILES.items():
        part = {s: document[s] for s in sections if s in document}
        if name == "org.yaml":
            part |= kept
        if not part:
            continue
        part = {"organization": document["organization"]} | part
        target = out / name
        target.write_text(HEADER + _dump(part), encoding="utf-8")
        written.append(target)
    schema = out / SCHEMA_FILE
    schema.write_text(schema_text(manifest_schema()), encoding="utf-8")
    return [*written, schema]


def remove_stale(folder: Folder, written: list[Path]) -> list[Path]:
    """The files an earlier export wrote that this one did not: removed (each would define
    again what the organization no longer holds, or holds under another file's name)."""
    stale = [path for path in folder.exported if path not in written]
    for path in stale:
        path.unlink()
    return stale
