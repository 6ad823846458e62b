"""Releases: the CI example, the pre-commit snippet and the README pin the release that
pyproject.toml names (tag `vX.Y.Z`), and that release knows every docsync option the workflows
use and every key examples/ writes. The release's files come from its tag when the checkout has
it; before the tag is made, the release is this work tree."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import jinja2
import jsonschema
import pytest
import yaml

from tests.gitops.ci import APPLY, REPO, WORKFLOW, all_jobs, load, project_version
from tests.gitops.test_ci_workflow import cli_options, unknown, workflow_commands

GITOPS_DOC = REPO / "docs" / "gitops.md"
#: the commit the CI example pinned before docsync had releases (0.1.0)
OLD_PIN = "e8c1ae2c3673ca01003640521ffd1a8a6e967470"
MANIFEST_MARK = re.compile(r"\$schema=(\.\./)+schemas/manifest\.schema\.json$")

#: Prints {command: [option, ...]} of the `docsync` importable first on sys.path.
OPTIONS_PROBE = """
import json, sys
import click
import docsync
from docsync.cli import main
assert docsync.__file__.startswith(sys.argv[1]), docsync.__file__
ctx = click.Context(main)
print(json.dumps({name: [o for p in main.get_command(ctx, name).params
                         if isinstance(p, click.Option) for o in p.opts]
                  for name in main.list_commands(ctx)}))
"""


def git(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, check=False)


def release_tag() -> str | None:
    """The tag of pyproject's version when this checkout has it; None before it is made (the
    release is then this work tree)."""
    if not (REPO / ".git").exists() or shutil.which("git") is None:
        return None
    tag = f"v{project_version()}"
    return tag if git("rev-parse", "-q", "--verify", f"refs/tags/{tag}").returncode == 0 else None


def release_file(path: str) -> bytes:
    """A file of the pinned release: at its tag, or in this work tree."""
    tag = release_tag()
    if tag is None:
        return (REPO / path).read_bytes()
    shown = git("show", f"{tag}:{path}")
    assert shown.returncode == 0, f"{tag} has no {path}"
    return shown.stdout


def test_the_workflows_install_the_release_pyproject_names() -> None:
    package = f"docsync-iac @ git+https://github.com/OWNER/docsync@v{project_version()}"
    assert (
        load(WORKFLOW)["env"]["DOCSYNC_PACKAGE"] == package == load(APPLY)["env"]["DOCSYNC_PACKAGE"]
    )
    for name, each in all_jobs():
        installs = [s["run"] for s in each.get("steps", []) if "pip install" in s.get("run", "")]
        assert installs in ([], ['pip install "$DOCSYNC_PACKAGE"']), name


def documented_pre_commit_config() -> dict[str, Any]:
    block = re.search(
        r"```yaml\n(# \.pre-commit-config\.yaml\n.*?)```", GITOPS_DOC.read_text("utf-8"), re.S
    )
    assert block, "docs/gitops.md shows no .pre-commit-config.yaml"
    config: dict[str, Any] = yaml.safe_load(block.group(1))
    return config


def test_the_pre_commit_snippet_and_the_readme_pin_the_same_release() -> None:
    version = project_version()
    (repo,) = documented_pre_commit_config()["repos"]
    assert repo["rev"] == f"v{version}"
    readme = (REPO / "README.md").read_text("utf-8")
    assert f'pip install "docsync-iac @ git+https://github.com/OWNER/docsync@v{version}"' in readme
    ids = {hook["id"] for hook in yaml.safe_load(release_file(".pre-commit-hooks.yaml"))}
    assert {hook["id"] for hook in repo["hooks"]} <= ids


def test_the_changelog_has_a_section_for_unreleased_changes_and_for_each_release() -> None:
    headings = re.findall(r"^## (.+)$", (REPO / "CHANGELOG.md").read_text("utf-8"), re.M)
    assert headings[0] == "Unreleased" and headings[-1].startswith("0.1.0")
    if release_tag() is not None:  # once tagged, the release's section is there, dated
        assert any(
            re.fullmatch(rf"{re.escape(project_version())} — \d{{4}}-\d\d-\d\d", h)
            for h in headings
        )


def release_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(release_file("schemas/manifest.schema.json"))
    return schema


def keys_unknown_to(schema: dict[str, Any], document: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema)
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator.iter_errors(document)
    ]


def rendered(value: Any, variables: dict[str, Any]) -> Any:
    """A manifest's values with their templates rendered, as docsync reads them (env() gives a
    stand-in: the schema judges its place, not the secret)."""
    if isinstance(value, dict):
        return {k: rendered(v, variables) for k, v in value.items()}
    if isinstance(value, list):
        return [rendered(v, variables) for v in value]
    if isinstance(value, str) and "{{" in value:
        template = jinja2.Environment(undefined=jinja2.StrictUndefined).from_string(value)
        return template.render(**variables, env=lambda name, default="": f"stand-in-{name}")
    return value


def example_sets() -> list[tuple[Path, dict[str, Any]]]:
    """Each manifest file of examples/ with the variables of each environment it has."""
    found = []
    for path in sorted((REPO / "examples").rglob("*.yaml")):
        if MANIFEST_MARK.search(path.read_text("utf-8").splitlines()[0]):
            var_files = sorted((path.parent.parent / "vars").glob("*.yaml"))
            found += [(path, yaml.safe_load(v.read_text("utf-8"))) for v in var_files] or [
                (path, {})
            ]
    return found


def test_examples_write_only_keys_the_pinned_release_knows() -> None:
    schema = release_schema()
    sets = example_sets()
    assert {(p.parent.name, v.get("organization")) for p, v in sets} == {
        ("acme", None),
        ("policies", None),
        ("manifests", "org_acme_staging"),
        ("manifests", "org_acme"),
    }
    for path, variables in sets:
        document = rendered(yaml.safe_load(path.read_text("utf-8")), variables)
        assert keys_unknown_to(schema, document) == [], path
    # The check refuses what the release does not know.
    wrong = {"organization": "o", "sites": [{"title": "Docs", "colour": "red"}]}
    assert (
        "Additional properties are not allowed ('colour' was unexpected)"
        in keys_unknown_to(schema, wrong)[0]
    )


def test_the_check_refuses_the_examples_for_the_commit_the_example_pinned_before_releases() -> None:
    """The CI example once installed commit e8c1ae2, which knew neither access nor a site's
    presentation: examples/acme fails it, as it failed the users who copied the example."""
    old = git("show", f"{OLD_PIN}:schemas/manifest.schema.json") if shutil.which("git") else None
    if old is None or old.returncode != 0:
        pytest.skip(f"!!! commit {OLD_PIN} is not in this clone's history !!!")
    sites = yaml.safe_load((REPO / "examples" / "acme" / "sites.yaml").read_text("utf-8"))
    found = keys_unknown_to(json.loads(old.stdout), rendered(sites, {}))
    assert any("'permissions'" in f for f in found) and any("'redirects'" in f for f in found)


def test_the_pinned_release_accepts_every_docsync_command_of_the_workflows(tmp_path: Path) -> None:
    tag = release_tag()
    if tag is None:  # the release is this work tree, whose options test_ci_workflow checks
        assert unknown(workflow_commands(), cli_options()) == []
        return
    archive = git("archive", tag, "docsync")
    assert archive.returncode == 0, archive.stderr
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(tmp_path, filter="data")
    probe = subprocess.run(
        [sys.executable, "-c", OPTIONS_PROBE, str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        check=False,
    )
    assert probe.returncode == 0, probe.stderr
    options = {name: set(opts) for name, opts in json.loads(probe.stdout).items()}
    assert unknown(workflow_commands(), options) == []
