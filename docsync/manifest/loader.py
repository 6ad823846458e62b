"""Loading manifests: find files, template, parse, merge, validate and check, all errors at once."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from docsync.core.collector import gc_paused
from docsync.core.secrecy import keyed_digest
from docsync.kinds.catalogue import CATALOGUE
from docsync.manifest.checks import run_checks
from docsync.manifest.context import CheckContext, nearest, walk
from docsync.manifest.files import discover, read_file
from docsync.manifest.merge import merge
from docsync.manifest.models import Manifest
from docsync.manifest.policies import check_policies
from docsync.manifest.problems import Location, ManifestError, Path, Problem
from docsync.manifest.references import check_references
from docsync.manifest.templating import TOKEN_VARIABLE, Renderer
from docsync.manifest.validation import validate_manifest
from docsync.manifest.yamlpos import SourceMap

log = logging.getLogger(__name__)
RESERVED_VARIABLES = frozenset({"env"})


def reserved_variable(name: str) -> str:
    """Why a template variable may not be called `name`."""
    return (
        f"the variable name '{name}' is reserved: templates read the environment with "
        f"{name}('NAME'); give the variable another name (stage, environment...)"
    )


_MIN_SCRUB = 4
#: shorter tokens are test fixtures: common text could contain them by chance
_MIN_TOKEN = 6


@dataclass
class LoadedManifest:
    """A validated manifest that still knows where each value was written."""

    manifest: Manifest
    files: list[str]
    digest: str
    source: SourceMap = field(default_factory=SourceMap, repr=False)
    sensitive: frozenset[Path] = field(default_factory=frozenset, repr=False)
    #: every sensitive text of the manifest (env() values, sensitive fields), so that no
    #: message can repeat one, even a server's echo of a request body
    secrets: frozenset[str] = field(default_factory=frozenset, repr=False)

    def location(self, path: Path) -> Location | None:
        """Where the value at ``path`` (of the merged document) was written, or its parent."""
        return nearest(self.source.values, tuple(path))

    def is_sensitive(self, path: Path) -> bool:
        """True for values from env(), sensitive fields, and everything inside them."""
        path = tuple(path)
        return any(path[:end] in self.sensitive for end in range(len(path) + 1))


def load_manifests(
    paths: Sequence[str | os.PathLike[str]],
    *,
    variables: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    positions: bool = True,
) -> LoadedManifest:
    """Load, merge and check manifests; raises ManifestError listing every problem found.
    Without `positions` (`validate`) where each value was written is read only if a problem
    asks: a big manifest's positions take more memory than its data."""
    with gc_paused():
        return _load(paths, variables, environ, positions)


def _load(
    paths: Sequence[str | os.PathLike[str]],
    variables: Mapping[str, Any] | None,
    environ: Mapping[str, str] | None,
    positions: bool,
) -> LoadedManifest:
    files, problems = discover(paths)
    variables = dict(variables or {})
    for name in sorted(RESERVED_VARIABLES & set(variables)):
        problems.append(Problem(None, (), reserved_variable(name)))
        del variables[name]
    renderer = Renderer(variables, dict(os.environ if environ is None else environ))
    docs = [read_file(name, renderer, positions=positions) for name in files]
    merged = merge(docs)
    problems.extend(merged.problems)
    sensitive = set(merged.sensitive) | _sensitive_fields(merged.data)

    def is_sensitive(path: Path) -> bool:
        return any(path[:end] in sensitive for end in range(len(path) + 1))

    ctx = CheckContext(merged.data, merged.source, is_sensitive)
    _refuse_env_in_keys(ctx, merged.data, set(merged.sensitive))
    _refuse_the_token(ctx, merged.data, renderer.environ)
    if files and "organization" not in merged.data:
        unreadable = any(doc.problems and not doc.data for doc in docs)
        if not unreadable:  # an unreadable file may well be the one that names it
            first = Location(files[0], 1, 1)
            message = "'organization' (the id or title of the organization) is required"
            path: Path = ("organization",)
            if not any(doc.data for doc in docs):
                message = "nothing to read: a manifest names at least `organization: <id or title>`"
                path = ()
            problems.append(Problem(first, path, message))
        merged.data["organization"] = "(missing)"
    manifest = validate_manifest(ctx) if files else None
    run_checks(ctx)
    check_references(ctx)
    check_policies(ctx)
    problems.extend(p for p in ctx.problems if not _under(p.path, merged.failed))
    secrets = _sensitive_texts(merged.data, sensitive) | renderer.secrets
    if problems or manifest is None:
        raise ManifestError(_scrub(problem, secrets) for problem in problems)
    log.debug("loaded %d manifest files", len(files))
    return LoadedManifest(
        manifest=manifest,
        files=files,
        digest=_digest(files, docs, merged.data),
        source=merged.source,
        sensitive=frozenset(sensitive),
        secrets=frozenset(s for s in secrets if len(s) >= _MIN_SCRUB),
    )


def _refuse_env_in_keys(ctx: CheckContext, data: dict[str, Any], from_env: set[Path]) -> None:
    """A natural key is part of every address: in plans, logs and saved plan files. A value
    from env() there would be printed everywhere, so it is refused, at the key."""
    if not from_env:
        return
    for declaration in CATALOGUE:
        for base in CATALOGUE.entry_paths(declaration.name):
            for path, _ in walk(data, (*base, declaration.key)):
                if any(path[:end] in from_env for end in range(len(path) + 1)):
                    ctx.report(
                        path,
                        f"env() cannot give a {declaration.noun}'s `{declaration.key}`: the key "
                        "is shown in every plan address and saved plan; write it in the manifest",
                    )


def _refuse_the_token(ctx: CheckContext, data: Any, environ: Mapping[str, str]) -> None:
    """The API token written in a manifest (pasted in, or read through another variable) would
    be sent to the API as data and shown in plans: refused at the value, never repeated."""
    token = environ.get(TOKEN_VARIABLE, "").strip()
    if len(token) < _MIN_TOKEN:
        return
    for path, value in _texts(data):
        if token in value:
            ctx.report(
                path,
                f"holds the API token ({TOKEN_VARIABLE}): it would be sent to the API as data "
                "and shown in plans; a manifest never needs it, remove it",
            )


def _texts(data: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """Every string of a document (mapping keys included, at their value's path)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str):
                yield (*path, key), key
            yield from _texts(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _texts(value, (*path, index))
    elif isinstance(data, str):
        yield path, data


def _under(path: Path, roots: set[Path]) -> bool:
    return any(path[:end] in roots for end in range(len(path) + 1))


def _sensitive_fields(data: dict[str, Any]) -> set[Path]:
    """The written sensitive fields of every kind, nested ones included (from the catalogue)."""
    found: set[Path] = set()
    for pattern in CATALOGUE.sensitive_paths():
        for path, _ in walk(data, pattern):
            found.add(path)
    return found


def _sensitive_texts(data: Any, sensitive: set[Path]) -> set[str]:
    """Every string under a sensitive path, so that no message can repeat it."""
    found: set[str] = set()
    for path in sensitive:
        value: Any = data
        try:
            for step in path:
                value = value[step]
        except (KeyError, IndexError, TypeError):  # a value a template failed to give
            continue
        found |= _texts_in(value)
    return found


def _texts_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_texts_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_texts_in(item) for item in value))
    return set()


def _scrub(problem: Problem, secrets: set[str]) -> Problem:
    message = problem.message
    for secret in sorted(secrets, key=len, reverse=True):
        if len(secret) >= _MIN_SCRUB and secret in message:
            message = message.replace(secret, "(sensitive)")
    return problem if message == problem.message else replace(problem, message=message)


def _digest(files: list[str], docs: Sequence[Any], data: dict[str, Any]) -> str:
    """Changes whenever a file, a variable or an env() value changes what the manifest says.
    Keyed (docsync.core.secrecy): the env() values in `data` cannot be guessed from it."""
    parts = [
        name.encode() + b"\0" + doc.text.encode() + b"\0"
        for name, doc in zip(files, docs, strict=True)
    ]
    parts.append(json.dumps(data, sort_keys=True, default=str).encode())
    return keyed_digest(b"".join(parts))
