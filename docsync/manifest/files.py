"""Reading one manifest file: bytes to text, whole-file or per-value templating, positions."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from docsync.manifest.input_files import InputRefused, read_input
from docsync.manifest.problems import Location, Path, Problem
from docsync.manifest.templating import Renderer, TemplateProblem
from docsync.manifest.yamlpos import SourceMap, location_at, parse_yaml

MAX_FILE_BYTES = 10 * 1024 * 1024
SUFFIXES = (".yaml", ".yml", ".yaml.j2", ".yml.j2")


@dataclass
class FileDoc:
    """One file after templating and parsing: its data, positions and sensitive paths."""

    name: str
    data: dict[str, Any]
    source: SourceMap
    sensitive: set[Path] = field(default_factory=set)
    text: str = ""
    problems: list[Problem] = field(default_factory=list)
    failed: set[Path] = field(default_factory=set)
    """Values whose template failed: further complaints about them would only repeat it."""


def discover(paths: Sequence[str | os.PathLike[str]]) -> tuple[list[str], list[Problem]]:
    """The manifest files named by ``paths`` (directories expand to their manifests), sorted."""
    found: dict[str, str] = {}
    problems: list[Problem] = []
    for raw in paths:
        given = os.fspath(raw)
        if os.path.isdir(given):
            inside = _manifests_under(given)
            if not inside:
                suffixes = ", ".join(f"*{suffix}" for suffix in SUFFIXES)
                problems.append(Problem(None, (), f"{given}: no manifest files ({suffixes})"))
            for path in inside:
                found.setdefault(os.path.realpath(path), path)
        elif os.path.exists(given):  # a file; what else it may be, reading it says
            found.setdefault(os.path.realpath(given), given)
        else:
            problems.append(Problem(None, (), f"{given}: no such file or directory"))
    return sorted(found.values()), problems


def _manifests_under(directory: str) -> list[str]:
    """Every manifest file under `directory`, subdirectories included, sorted; hidden files and
    directories (`.git`, `.github`) are skipped. Symlinked directories are not followed. A name
    of a manifest that is not a regular file (a pipe, a socket) is listed all the same: reading
    it says what it is, where skipping it would drop its entries without a word."""
    found: list[str] = []
    for root, dirs, names in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.endswith(SUFFIXES) and not name.startswith("."):
                found.append(os.path.normpath(os.path.join(root, name)))
    return found


def read_text(name: str) -> str | Problem:
    """The text of a manifest or a variable file (a regular file of at most MAX_FILE_BYTES, in
    UTF-8), or the located problem that stops it."""
    start = Location(name, 1, 1)
    try:
        raw = read_input(name, MAX_FILE_BYTES)
    except InputRefused as refused:
        return Problem(start, (), refused.reason)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        where = location_at(name, raw[: error.start].decode("utf-8", "replace"), error.start)
        message = f"not UTF-8 text (byte 0x{raw[error.start]:02x} cannot be decoded)"
        return Problem(where, (), message)


def read_file(name: str, renderer: Renderer, *, positions: bool = True) -> FileDoc:
    """Read, template and parse one file; every failure becomes a located problem. Without
    `positions` they are read when first asked for (`yamlpos.parse_yaml`)."""
    text = read_text(name)
    if isinstance(text, Problem):
        return _failed(name, text)
    whole_file = name.endswith(".j2")
    rendered = text
    if whole_file:
        try:
            rendered = renderer.render_file(text)
        except TemplateProblem as problem:
            where = Location(name, problem.line or 1, 1)
            return _failed(name, Problem(where, (), problem.message))
    parsed = parse_yaml(rendered, name, positions=positions)
    doc = FileDoc(name, {}, parsed.source, text=rendered, problems=list(parsed.problems))
    if parsed.data is None:
        return doc
    if not isinstance(parsed.data, dict):
        message = "a manifest must be a mapping of sections (organization, settings, teams, ...)"
        where = parsed.source.values.get((), Location(name, 1, 1))
        doc.problems.append(Problem(where, (), message))
        return doc
    plan = given_a_plan(name, parsed.data)
    if plan is not None:
        return _failed(name, Problem(Location(name, 1, 1), (), plan))
    doc.data = parsed.data
    if whole_file:
        _mark_secrets(doc, renderer.secrets)
    else:
        doc.data = _render_values(doc, renderer, doc.data, ())
    return doc


#: how a saved plan's `format` begins (`docsync.engine.saved.SAVED_FORMAT`)
SAVED_PLAN_FORMAT = "docsync-saved-plan/"


def given_a_plan(name: str, data: dict[str, Any]) -> str | None:
    """Why a file given as a manifest is none: it is a plan docsync wrote."""
    written = data.get("format")
    if isinstance(written, str) and written.startswith(SAVED_PLAN_FORMAT):
        return (
            f"a saved plan (written by `docsync plan --out`), not a manifest: `docsync show "
            f"{name}` shows it, `docsync apply --plan {name}` applies it"
        )
    if "format_version" in data and "docsync_version" in data:
        return (
            f"a JSON plan (written by `docsync plan --format json`), not a manifest: "
            f"`docsync show {name}` shows it"
        )
    return None


def given_a_manifest(name: str, text: str) -> bool:
    """Whether a file given as a plan is a manifest: named as manifests are, or a mapping
    naming an organization (parsed within the manifests' bounds)."""
    if name.endswith(SUFFIXES):
        return True
    if len(text) > MAX_FILE_BYTES:
        return False
    data = parse_yaml(text, name).data
    return isinstance(data, dict) and "organization" in data


def _failed(name: str, problem: Problem) -> FileDoc:
    return FileDoc(name, {}, SourceMap(), problems=[problem])


def _render_values(doc: FileDoc, renderer: Renderer, value: Any, path: Path) -> Any:
    """Render every string value that holds a template, in place (a big manifest is not
    copied for the few values that are templates); remember which used env()."""
    if isinstance(value, dict):
        for key, item in value.items():
            rendered = _render_values(doc, renderer, item, (*path, key))
            if rendered is not item:
                value[key] = rendered
        return value
    if isinstance(value, list):
        for index, item in enumerate(value):
            rendered = _render_values(doc, renderer, item, (*path, index))
            if rendered is not item:
                value[index] = rendered
        return value
    if not isinstance(value, str) or not renderer.is_template(value):
        return value
    try:
        rendered, used_env = renderer.render_value(value)
    except TemplateProblem as problem:
        where = doc.source.values.get(path, Location(doc.name, 1, 1))
        doc.problems.append(Problem(where, path, problem.message))
        doc.failed.add(path)
        return None
    if used_env:
        doc.sensitive.add(path)
    return rendered


def _mark_secrets(doc: FileDoc, secrets: set[str]) -> None:
    """In a rendered ``*.yaml.j2`` file, any value containing an env() value is sensitive."""
    if not secrets:
        return

    def visit(value: Any, path: Path) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                visit(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, (*path, index))
        elif isinstance(value, str) and any(secret in value for secret in secrets):
            doc.sensitive.add(path)

    visit(doc.data, ())
