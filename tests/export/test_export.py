"""Export: live state -> manifests. The law: what export writes plans empty, right away."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.depth import examples
from tests.emulator_harness import EmulatorHandle
from tests.kit import SEED, Docsync, cli_env, export_plans_empty, invoke

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "acme"
DEMO_CERT = "MIIC...demo"  # the default certificate of examples/acme/teams.yaml


def run(emulator: EmulatorHandle, *args: str | Path, **env: str) -> Result:
    return invoke(cli_env(emulator, **env), *args)


def test_export_of_the_example_plans_empty(emulator: EmulatorHandle, tmp_path: Path) -> None:
    applied = run(emulator, "apply", EXAMPLES, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    exported = run(emulator, "export", "--org", "Acme", "--out", tmp_path / "out")
    assert exported.exit_code == 0, exported.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "content.yaml",
        "manifest.schema.json",
        "org.yaml",
        "sites.yaml",
        "teams.yaml",
    ]
    # The certificate is not written; export names the variable that holds it.
    assert DEMO_CERT not in "".join(p.read_text() for p in (tmp_path / "out").iterdir())
    assert "DOCSYNC_SAML_OKTA_CERTIFICATE" in exported.stderr
    planned = run(
        emulator,
        "plan",
        tmp_path / "out",
        "--detailed-exitcode",
        DOCSYNC_SAML_OKTA_CERTIFICATE=DEMO_CERT,
    )
    assert planned.exit_code == 0, planned.output
    assert "No changes." in planned.stdout


def test_the_schema_line_of_every_exported_file_resolves(
    emulator: EmulatorHandle, tmp_path: Path
) -> None:
    """The `$schema` path is relative to the file: it must name a file there, wherever the
    directory is, and that file is the manifest schema this docsync publishes."""
    applied = run(emulator, "apply", EXAMPLES, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    out = tmp_path / "somewhere" / "manifests"
    exported = run(emulator, "export", "--org", "Acme", "--out", out)
    assert exported.exit_code == 0, exported.output
    assert f"wrote {out / 'manifest.schema.json'}" in exported.stderr
    manifests = sorted(out.glob("*.yaml"))
    assert len(manifests) == 4
    for path in manifests:
        first = path.read_text("utf-8").splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, first
        target = (path.parent / match.group(1)).resolve()
        assert target.is_file(), f"{path}: {match.group(1)} does not resolve"
        assert target.read_text("utf-8") == (REPO / "schemas" / "manifest.schema.json").read_text(
            "utf-8"
        )


def test_export_sorts_members(emulator: EmulatorHandle) -> None:
    """Organization and team members by email, whatever order the API lists them in."""
    users = ["zoe@acme.example", "Bob@acme.example", "amy@acme.example"]
    emulator.reset(
        {
            "users": [
                {"id": f"u_{i}", "displayName": u, "email": u, "token": f"tok_{i}"}
                for i, u in enumerate(users)
            ],
            "organizations": [
                {
                    "id": "org_acme",
                    "title": "Acme",
                    "members": [{"user": f"u_{i}", "role": "admin"} for i in range(len(users))],
                }
            ],
            "teams": [
                {
                    "id": "team_x",
                    "organization": "org_acme",
                    "title": "X",
                    "members": [f"u_{i}" for i in range(len(users))],
                }
            ],
        }
    )
    result = run(emulator, "export", "--org", "org_acme", DOCSYNC_TOKEN="tok_0")
    assert result.exit_code == 0, result.output
    document = yaml.safe_load(result.stdout)
    expected = ["amy@acme.example", "Bob@acme.example", "zoe@acme.example"]
    assert [m["email"] for m in document["members"]] == expected
    (team,) = document["teams"]
    assert team["members"] == expected


def test_export_prints_one_manifest(emulator: EmulatorHandle) -> None:
    result = run(emulator, "export", "--org", "org_acme")
    assert result.exit_code == 0, result.output
    document = yaml.safe_load(result.stdout)
    assert document["organization"] == "org_acme"
    assert {m["email"] for m in document["members"]} >= {"ada@acme.example", "lin@acme.example"}
    assert [s["title"] for s in document["spaces"]] == ["Internal Handbook"]
    assert "emoji" not in document["spaces"][0]  # the API's "" means no emoji


def test_export_of_an_unknown_organization_is_a_clear_error(emulator: EmulatorHandle) -> None:
    result = run(emulator, "export", "--org", "Nope Corp")
    assert result.exit_code == 1
    assert "'Nope Corp' is not one the token can see" in result.stderr
    assert "Traceback" not in result.output


TITLES = st.sampled_from(["Alpha", "Beta", "Gamma", "Delta"])
USERS = ["ada@acme.example", "lin@acme.example", "sam@acme.example", "kim@acme.example"]


@st.composite
def organizations(draw: st.DrawFn) -> str:
    """A manifest of teams, nested collections, spaces and translations."""
    teams = []
    for title in draw(st.lists(TITLES, unique=True, max_size=3)):
        members = draw(st.lists(st.sampled_from(USERS), unique=True, max_size=3))
        owners = draw(st.sets(st.sampled_from(members))) if members else set()
        teams.append(
            {
                "title": title,
                "members": [{"user": u, "role": "owner"} if u in owners else u for u in members],
            }
        )
    collections = [{"title": t} for t in draw(st.lists(TITLES, unique=True, max_size=2))]
    if collections and draw(st.booleans()):
        collections.append({"title": "Inner", "parent": collections[0]["title"]})
    spaces = []
    for title in draw(st.lists(TITLES, unique=True, max_size=3)):
        space: dict[str, object] = {"title": title}
        if collections and draw(st.booleans()):
            space["collection"] = draw(st.sampled_from([c["title"] for c in collections]))
        if draw(st.booleans()):
            space["editMode"] = draw(st.sampled_from(["live", "locked"]))
        spaces.append(space)
    translations = [{"title": t} for t in draw(st.lists(TITLES, unique=True, max_size=2))]
    document = {
        "organization": "org_acme",
        "teams": teams,
        "collections": collections,
        "spaces": spaces,
        "translations": translations,
    }
    return yaml.safe_dump(document, sort_keys=False)


@pytest.mark.slow
@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(manifest=organizations())
def test_apply_then_plan_and_export_then_plan_are_empty(
    emulator_server: EmulatorHandle, tmp_path_factory: pytest.TempPathFactory, manifest: str
) -> None:
    emulator_server.reset()
    work = tmp_path_factory.mktemp("org")
    (work / "org.yaml").write_text(manifest, encoding="utf-8")
    applied = run(emulator_server, "apply", work / "org.yaml", "--auto-approve")
    assert applied.exit_code == 0, applied.output
    again = run(emulator_server, "plan", work / "org.yaml", "--detailed-exitcode")
    assert again.exit_code == 0, again.output
    exported = run(emulator_server, "export", "--org", "org_acme", "--out", work / "export")
    assert exported.exit_code == 0, exported.output
    planned = run(emulator_server, "plan", work / "export", "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output


def test_export_refuses_a_non_empty_directory_unless_forced(
    emulator: EmulatorHandle, tmp_path: Path
) -> None:
    out = tmp_path / "manifests"
    out.mkdir()
    (out / "org.yaml").write_text("teams: []  # someone's work\n", "utf-8")
    refused = run(emulator, "export", "--org", "org_acme", "--out", out)
    assert refused.exit_code == 1
    assert f"Error: {out} is not empty (org.yaml)" in refused.stderr
    assert "--force" in refused.stderr
    assert (out / "org.yaml").read_text("utf-8") == "teams: []  # someone's work\n"
    assert sorted(p.name for p in out.iterdir()) == ["org.yaml"]
    forced = run(emulator, "export", "--org", "org_acme", "--out", out, "--force")
    assert forced.exit_code == 0, forced.output
    assert "someone's work" not in (out / "org.yaml").read_text("utf-8")
    assert "organization: org_acme" in (out / "org.yaml").read_text("utf-8")


def test_resources_sharing_a_key_are_left_out_named_and_the_export_plans_empty(
    emulator: EmulatorHandle, docsync: Docsync, tmp_path: Path
) -> None:
    """Made in the app, two spaces titled Untitled at one level (or two teams, two collections
    with one title) cannot be told apart by a manifest, which keys them by title: export leaves
    them out and names them; what refers to them does so by id."""
    org = "org_acme"
    seed = yaml.safe_load(SEED.read_text("utf-8"))
    seed["collections"] = [
        {"id": "col_a", "organization": org, "title": "Drafts"},
        {"id": "col_b", "organization": org, "title": "Drafts"},
    ]
    seed["spaces"] += [
        {"id": "space_u1", "organization": org, "title": "Untitled"},
        {"id": "space_u2", "organization": org, "title": "Untitled"},
        {"id": "space_n", "organization": org, "title": "Notes", "parent": "col_a"},
    ]
    seed["teams"] = [
        {"id": "team_d1", "organization": org, "title": "Dup", "members": ["u_ada"]},
        {"id": "team_d2", "organization": org, "title": "Dup", "members": []},
    ]
    emulator.reset(seed)
    exported, content = export_plans_empty(docsync, tmp_path / "out", "content.yaml")
    left_out = exported.stderr.split("Left out of the export")[1]
    for shared in (
        'collection["Drafts"] (ids col_a, col_b)',
        'space["Untitled"] (ids space_u1, space_u2)',
        'team["Dup"] (ids team_d1, team_d2)',
    ):
        assert shared in left_out
    document = yaml.safe_load(content)
    assert "collections" not in document
    assert {"title": "Notes", "collection": "col_a"}.items() <= document["spaces"][-1].items()
    assert "Untitled" not in content


def test_export_leaves_out_what_the_api_holds_when_nothing_was_chosen(
    docsync: Docsync, emulator: EmulatorHandle, tmp_path: Path
) -> None:
    """A space's `mergeRules: {type: inherit}` and a site's `defaultLevel: inherit` are what
    the API answers for what nobody set: export writes only what was chosen, and still plans
    empty."""
    manifest = tmp_path / "org.yaml"
    manifest.write_text(
        "organization: org_acme\n"
        "spaces:\n  - {title: Plain}\n"
        "  - {title: Strict, mergeRules: {type: rules, rules: []}}\n"
        "sites:\n  - {title: Quiet}\n  - {title: Open, defaultLevel: read}\n",
        "utf-8",
    )
    applied = docsync("apply", manifest, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    _, content = export_plans_empty(docsync, tmp_path / "out", "content.yaml")
    spaces = {s["title"]: s for s in yaml.safe_load(content)["spaces"]}
    assert "mergeRules" not in spaces["Plain"]
    assert spaces["Strict"]["mergeRules"] == {"type": "rules", "rules": []}
    sites = {
        s["title"]: s
        for s in yaml.safe_load((tmp_path / "out" / "sites.yaml").read_text())["sites"]
    }
    assert "defaultLevel" not in sites["Quiet"] and sites["Open"]["defaultLevel"] == "read"


HEADER = "# yaml-language-server: $schema=./manifest.schema.json\n"


def test_export_again_into_its_folder_writes_a_complete_consistent_set(
    emulator: EmulatorHandle, tmp_path: Path
) -> None:
    """`export --force` into a folder holding an earlier export: a file that export wrote and
    no longer holds anything is removed (it stayed, and defined an integration twice), the
    `prune:` written into its files survives (it was dropped), and a user's file beside it
    that writes none of export's sections is left as it is. The folder then plans empty."""
    applied = run(emulator, "apply", EXAMPLES, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    out = tmp_path / "manifests"
    assert run(emulator, "export", "--org", "Acme", "--out", out).exit_code == 0
    org = out / "org.yaml"
    assert org.read_text("utf-8").splitlines()[:2] == [
        HEADER.strip(),
        "# Written by docsync export: export --force rewrites this file, or removes it.",
    ]
    org.write_text(org.read_text("utf-8") + "prune: [teams, saml]\n", "utf-8")
    # an earlier docsync's export, under a name this one does not write (its header alone)
    stale = out / "integrations.yaml"
    stale.write_text(
        HEADER + "organization: org_acme\nintegrations:\n  - {name: google-analytics}\n", "utf-8"
    )
    mine = out / "rules" / "safety.yaml"
    mine.parent.mkdir()
    mine.write_text("organization: org_acme\nsafety: {max_delete_share: 0.5}\n", "utf-8")
    again = run(
        emulator,
        "export",
        "--org",
        "Acme",
        "--out",
        out,
        "--force",
        DOCSYNC_SAML_OKTA_CERTIFICATE=DEMO_CERT,
    )
    assert again.exit_code == 0, again.output
    assert f"removed {stale} (written by an earlier export" in again.stderr
    assert not stale.exists()
    assert yaml.safe_load(org.read_text("utf-8"))["prune"] == ["teams", "saml"]
    assert mine.read_text("utf-8") == "organization: org_acme\nsafety: {max_delete_share: 0.5}\n"
    planned = run(
        emulator, "plan", out, "--detailed-exitcode", DOCSYNC_SAML_OKTA_CERTIFICATE=DEMO_CERT
    )
    assert planned.exit_code == 0, planned.output


def test_export_refuses_a_folder_whose_other_files_would_merge_with_it(
    emulator: EmulatorHandle, tmp_path: Path
) -> None:
    """A manifest export did not write, holding a section export writes (an integration by
    hand beside an export), would define it twice: refused before anything is read, naming
    the file and the sections; nothing is written or removed."""
    out = tmp_path / "manifests"
    assert run(emulator, "export", "--org", "org_acme", "--out", out).exit_code == 0
    mine = out / "integrations.yaml"
    mine.write_text("integrations:\n  - {name: google-analytics}\n", "utf-8")
    template = out / "more" / "teams.yaml.j2"
    template.parent.mkdir()
    template.write_text("teams: []\n", "utf-8")
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    requests = emulator.stats()["total"]
    refused = run(emulator, "export", "--org", "org_acme", "--out", out, "--force")
    assert refused.exit_code == 1
    assert refused.stderr.splitlines() == [
        f"Error: {out} holds manifests that docsync export did not write, which would merge "
        "with the export (defining its entries twice): move them out of it, or delete them:",
        f"  {mine}: integrations",
        f"  {template}: a template, which cannot be told before it is rendered",
    ]
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert emulator.stats()["total"] == requests
