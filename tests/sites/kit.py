"""Helpers of the sites tests: manifests as data, the CLI in-process, and the live structure
reduced to the shape of a manifest's site entry so that the two compare exactly."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

from click.testing import Result

from tests.emulator_harness import EmulatorHandle
from tests.kit import cli_env, invoke, write_file, yaml_data, yaml_text

ORG = "/v1/orgs/org_acme"
SITE = "/v1/orgs/{organizationId}/sites/{siteId}"
SORT = f"PATCH {SITE}/structure/sort"
STRUCTURE = "GET /v1/orgs/{organizationId}/sites/{siteId}/structure"
MANIFESTS = Path(__file__).resolve().parent / "manifests"

Doc = dict[str, Any]

#: The fields of the manifest that a structure read shows, per kind of item.
SECTION_KEYS = ("title", "path", "icon", "description", "condition", "default")
SITE_SPACE_KEYS = ("space", "path", "condition", "default")


def load(name: str) -> Doc:
    """A manifest fixture of tests/sites/manifests as data (tests change copies of it)."""
    data: Doc = yaml_data((MANIFESTS / name).read_text(encoding="utf-8"))
    return data


def site_of(manifest: Doc, title: str) -> Doc:
    """The site entry of `manifest` with this title (the same dict: changes go through)."""
    found: Doc = next(s for s in manifest["sites"] if s["title"] == title)
    return found


# -- expected: a manifest's site entry as the API should show it --------------------------------
def _item(entry: Doc, keys: tuple[str, ...], level_has_default: bool) -> Doc:
    """The written fields of an entry; `default` only where the manifest names a default."""
    shape = {k: entry[k] for k in keys if k in entry and k != "default"}
    if level_has_default:
        shape["default"] = bool(entry.get("default"))
    return shape


def _spaces(entries: list[Doc]) -> list[Doc]:
    named = any(e.get("default") for e in entries)
    return [_item(e, SITE_SPACE_KEYS, named) for e in entries]


def expected_shape(site: Doc) -> Doc:
    """What a site entry asks for: `{"siteSpaces": [...]}` for a site without sections, else
    `{"sections": [...]}` with groups as `{"group", "icon", "sections"}` where their first
    section is (sections in the manifest's order, empty groups last)."""
    if site.get("siteSpaces") is not None:
        return {"siteSpaces": _spaces(site["siteSpaces"])}
    sections = site.get("sections") or []
    named = any(s.get("default") for s in sections)
    group_of: dict[str, Doc] = {}
    for group in site.get("sectionGroups") or []:
        for title in group.get("sections") or []:
            group_of[title] = group
    root: list[Doc] = []
    placed: dict[str, Doc] = {}
    for entry in sections:
        shape = _item(entry, SECTION_KEYS, named)
        if entry.get("siteSpaces") is not None:
            shape["siteSpaces"] = _spaces(entry["siteSpaces"])
        group = group_of.get(entry["title"])
        if group is None:
            root.append(shape)
            continue
        if group["title"] not in placed:
            placed[group["title"]] = _group(group)
            root.append(placed[group["title"]])
        placed[group["title"]]["sections"].append(shape)
    for group in site.get("sectionGroups") or []:
        if group["title"] not in placed:
            root.append(_group(group))
    return {"sections": root}


def _group(group: Doc) -> Doc:
    shape: Doc = {"group": group["title"], "sections": []}
    if "icon" in group:
        shape["icon"] = group["icon"]
    return shape


# -- live: a structure read in the same shape, with the fields the expected shape has -----------
def _live_space(item: Doc) -> Doc:
    return {
        "space": item["space"]["title"],
        "path": item["path"],
        "condition": item.get("condition"),
        "default": item["default"],
    }


def _live_section(item: Doc) -> Doc:
    shape = {k: item.get(k) for k in SECTION_KEYS}
    shape["siteSpaces"] = [_live_space(s) for s in item["siteSpaces"]]
    return shape


def live_shape(structure: Doc) -> Doc:
    """Every field of a structure read, in the expected shape's terms."""
    items = structure["structure"]
    if structure["type"] == "siteSpaces":
        return {"siteSpaces": [_live_space(s) for s in items]}
    root: list[Doc] = []
    for item in items:
        if item["object"] == "site-section-group":
            root.append(
                {
                    "group": item["title"],
                    "icon": item.get("icon"),
                    "sections": [_live_section(s) for s in item["sections"]],
                }
            )
        else:
            root.append(_live_section(item))
    return {"sections": root}


def placed(shape: Doc) -> tuple[Doc, list[Doc]]:
    """A shape as the manifest places it: an empty group has no place the manifest gives it
    (one already there stays where it stands, a new one goes last), so its position is not
    compared, only that it is there."""
    if "sections" not in shape:
        return shape, []
    empty = [i for i in shape["sections"] if "group" in i and not i["sections"]]
    rest = [i for i in shape["sections"] if i not in empty]
    return {**shape, "sections": rest}, sorted(empty, key=lambda g: str(g["group"]))


def project(live: Any, expected: Any) -> Any:
    """`live` cut down to the keys that `expected` has (lists item by item): what the manifest
    does not write is not compared, but lengths, order and every written field are."""
    if isinstance(expected, dict) and isinstance(live, dict):
        return {k: project(live.get(k), v) for k, v in expected.items() if k in live}
    if isinstance(expected, list) and isinstance(live, list):
        return [
            project(item, expected[i]) if i < len(expected) else item for i, item in enumerate(live)
        ]
    return live


def outline(shape: Doc) -> list[str]:
    """A one-line-per-item picture of a shape, for readable assertion messages."""
    lines: list[str] = []

    def spaces(items: list[Doc], indent: str) -> None:
        for s in items:
            mark = "*" if s.get("default") else ""
            lines.append(f"{indent}{s.get('path')}{mark} -> {s.get('space')}")

    if "siteSpaces" in shape:
        spaces(shape["siteSpaces"], "")
        return lines
    for item in shape["sections"]:
        members = item["sections"] if "group" in item else [item]
        indent = "  " if "group" in item else ""
        if "group" in item:
            lines.append(f"[{item['group']}]")
        for section in members:
            mark = "*" if section.get("default") else ""
            lines.append(f"{indent}{section.get('title')}{mark} /{section.get('path')}")
            spaces(section.get("siteSpaces") or [], indent + "  ")
    return lines


# -- the CLI and the emulator --------------------------------------------------------------------
class SitesRun:
    """One test's view of the emulator: apply and plan manifests, read sites back."""

    def __init__(self, emulator: EmulatorHandle, tmp: Path) -> None:
        self.emulator = emulator
        self.tmp = tmp
        self.files = 0

    def cli(self, *args: str | Path) -> Result:
        return invoke(cli_env(self.emulator), *args)

    def write(self, manifest: Doc | str) -> Path:
        """A new manifest file with this content (data is dumped as YAML)."""
        self.files += 1
        text = manifest if isinstance(manifest, str) else yaml_text(manifest, sort_keys=False)
        return write_file(self.tmp, f"manifest-{self.files}.yaml", text)

    def apply(self, manifest: Doc | str, *extra: str) -> Result:
        """`docsync apply --auto-approve` (plus `extra` options); asserts it all went through."""
        result = self.cli("apply", self.write(manifest), "--auto-approve", *extra)
        assert result.exit_code == 0, result.output
        assert "0 failed, 0 skipped" in result.stdout or "No changes" in result.stdout
        return result

    def plan(self, manifest: Doc | str) -> Result:
        return self.cli("plan", self.write(manifest), "--detailed-exitcode")

    def assert_converged(self, manifest: Doc | str) -> Result:
        result = self.plan(manifest)
        assert result.exit_code == 0, result.output
        assert "No changes." in result.stdout
        return result

    def get(self, path: str, **params: Any) -> Any:
        with self.emulator.client() as client:
            response = client.get(f"{ORG}{path}", params=params)
            response.raise_for_status()
            return response.json()

    def site(self, title: str) -> Doc:
        found = [s for s in self.get("/sites", limit=1000)["items"] if s["title"] == title]
        assert len(found) == 1, f"{len(found)} sites titled {title!r}"
        site: Doc = found[0]
        return site

    def structure(self, title: str) -> Doc:
        structure: Doc = self.get(f"/sites/{self.site(title)['id']}/structure")
        return structure

    def assert_structure(self, site: Doc) -> Doc:
        """The live structure of `site` (a manifest entry) is exactly what it asks for."""
        live = live_shape(self.structure(site["title"]))
        expected = expected_shape(site)
        (rest, empty), (wanted, wanted_empty) = placed(live), placed(expected)
        seen = (project(rest, wanted), project(empty, wanted_empty))
        assert seen == (wanted, wanted_empty), "\n".join(
            ["live:", *outline(live), "manifest:", *outline(expected)]
        )
        return live

    def stats(self) -> Counter[str]:
        return Counter(self.emulator.stats()["requests"])


def changed(manifest: Doc) -> Doc:
    """A deep copy to change for the next step of a scenario."""
    return copy.deepcopy(manifest)
