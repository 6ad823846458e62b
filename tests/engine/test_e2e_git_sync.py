"""Git Sync end to end, against both contracts: a GitLab installation on a site (its token from
env(), never shown, saved or exported) and a GitHub one on a space applied from a saved plan, the
GitHub one pending once and not planned again; a configuration change flagged as a content change
in one PATCH; `--target`; a rotated token sent by `--resend-secrets`; the site's structure
refused while Git Sync owns it; export, which leaves the structure and the token out, plans empty;
the structure written as production's gitbook-docs.yaml, valid against GitSyncSiteConfig; an
uninstall that gives the structure back."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.contract.checker import Contract
from tests.contract.document import require_spec
from tests.kit import (
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    export_plans_empty,
    listed,
    requests_between,
)

TOKEN = "glpat-e2e-never-shown-0123"
ROTATED = "glpat-e2e-rotated-never-shown-4567"
GIT = "/v1/git/installations/{installationId}"
SYNCED = """\
organization: org_acme
spaces:
  - title: Guides
    gitSync:
      provider: github
      providerConfiguration: {repositoryId: 1234, branch: refs/heads/main}
  - title: API
sites:
  - title: Docs
    gitSync:
      provider: gitlab
      providerConfiguration:
        projectId: 4242
        branch: %(branch)s
        accessToken: "{{ env('GITLAB_TOKEN') }}"
      projectDirectory: docs
      priority: %(priority)s
  - title: Blog
    sections:
      - title: News
        path: news
        siteSpaces: [{space: API, path: api}]
      - {title: Reference, path: reference, siteSpaces: [{space: Guides, path: guides}]}
    sectionGroups: [{title: Learn, sections: [Reference]}]
    externalLinks: [{title: Status, url: "https://status.acme.example", group: Learn}]
"""
FIRST = SYNCED % {"branch": "refs/heads/main", "priority": "git"}
CHANGED = SYNCED % {"branch": "refs/heads/docs", "priority": "gitbook"}


def installations(emulator: EmulatorHandle) -> dict[str, dict[str, object]]:
    """Each site's and space's installation as the API answers it, by its target's title."""
    found = {}
    with emulator.client() as client:
        for what, path in (
            ("site", "/v1/orgs/org_acme/sites"),
            ("space", "/v1/orgs/org_acme/spaces"),
        ):
            for item in listed(emulator, path):
                if "gitSync" in item:
                    one = client.get(f"/v1/git/installations/{item['gitSync']['installationId']}")
                    found[f"{what} {item['title']}"] = one.json()
    return found


def test_installations_apply_configure_export_and_give_the_structure_back(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract, GITLAB_TOKEN=TOKEN)
    manifest = write("m.yaml", FIRST)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    text = planned.stdout
    assert text.count("PENDING") == 1  # the GitHub one, once
    assert "STRUCTURE OWNED BY GIT SYNC" in text and "starts an import" in text
    assert "providerConfiguration.accessToken = (sensitive)" in text
    assert 'create site["Docs"].gitSync (content change)' in text
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    for output in (planned.output, applied.output, saved.read_text("utf-8")):
        assert TOKEN not in output
    assert_converged(docsync, manifest)  # the pending GitHub one is not planned again
    live = installations(either_contract)
    assert (live["site Docs"]["status"], live["space Guides"]["status"]) == ("active", "pending")
    assert TOKEN not in json.dumps(live)

    # A changed branch and priority: one PATCH, flagged; --target plans that one alone.
    manifest = write("m.yaml", CHANGED.replace("API\n", "API\n    gitSync: {provider: github}\n"))
    markdown = docsync("plan", manifest, "--format", "markdown")
    assert "🔵 2 content changes" in markdown.stdout
    targeted = docsync("plan", manifest, "--target", 'site["Docs"].gitSync')
    assert targeted.exit_code == 0, targeted.output
    assert "starts an export" in targeted.stdout and 'space["API"]' not in targeted.stdout
    before = either_contract.stats()
    apply(docsync, manifest, "--target", 'site["Docs"].gitSync')
    assert requests_between(before, either_contract.stats())[f"PATCH {GIT}"] == 1
    manifest = write("m.yaml", CHANGED)
    assert_converged(docsync, manifest)

    # A rotated token is not seen (production never answers it); a plan made with
    # --resend-secrets sends it, saved and applied as it was made, and says so.
    rotated = cli_for(either_contract, GITLAB_TOKEN=ROTATED)
    assert_converged(rotated, manifest)
    resent = rotated("plan", manifest, "--resend-secrets", "--out", saved)
    assert resent.exit_code == 0, resent.output
    assert "Plan: 0 to create, 1 to update, 0 to delete." in resent.stdout
    assert "SECRETS SENT AGAIN (--resend-secrets)" in resent.stdout
    assert "providerConfiguration.accessToken" in resent.stdout
    refused = rotated("apply", "--plan", saved, "--resend-secrets")
    assert refused.exit_code == 2 and "a saved plan sends again" in refused.output
    applied = rotated("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    site_installation = str(installations(either_contract)["site Docs"]["id"])
    held = either_contract.stored("git-sync-installation", site_installation)
    assert held["providerConfiguration"]["accessToken"] == ROTATED
    for output in (resent.output, applied.output, saved.read_text("utf-8")):
        assert TOKEN not in output and ROTATED not in output
    assert_converged(rotated, manifest)

    # Sections on the synced site are refused at plan time, located, naming the file.
    owned = CHANGED.split("  - title: Blog")[0].replace(
        "      priority: gitbook\n", "      priority: gitbook\n    sections: []\n"
    )
    refused = docsync("plan", write("owned.yaml", _without_site_git_sync(owned)))
    assert refused.exit_code == 1 and "owned.yaml:" in refused.output
    assert "sites[0].sections: the structure of 'Docs' is Git Sync's" in refused.output

    exported, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    docs = next(s for s in yaml.safe_load(sites)["sites"] if s["title"] == "Docs")
    assert "sections" not in docs and "siteSpaces" not in docs
    assert docs["gitSync"]["providerConfiguration"] == {
        "projectId": 4242,
        "branch": "refs/heads/docs",
    }
    assert TOKEN not in exported.output + sites

    # The unsynced site's structure, as its repository would hold it.
    file = docsync("export", "--site", "Blog", "--format", "gitbook-docs", "--out", tmp_path)
    assert file.exit_code == 0, file.output
    config = yaml.safe_load((tmp_path / "gitbook-docs.yaml").read_text("utf-8"))
    errors = Contract(require_spec(), fast=False)._validate(
        "/components/schemas/GitSyncSiteConfig", config
    )
    assert errors == [], [e.message for e in errors]
    nodes = config["site"]["structure"]
    assert [n["type"] for n in nodes] == ["section", "section-group"]
    assert sorted(n["type"] for n in nodes[1]["children"]) == ["external-link", "section"]

    # Uninstalled: the site's structure is GitBook's again, written in the same apply.
    back = _uninstalled(CHANGED)
    manifest = write("m.yaml", back)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    assert "site Docs" not in installations(either_contract)


def _without_site_git_sync(text: str) -> str:
    """The manifest with the site's gitSync left out (not managed: the live one stays)."""
    head, rest = text.split("  - title: Docs\n")
    kept = [line for line in rest.splitlines(keepends=True) if line.startswith("    sections")]
    return head + "  - title: Docs\n" + "".join(kept)


def _uninstalled(text: str) -> str:
    """The manifest with the site's Git Sync uninstalled and a section written for it."""
    head, rest = text.split("  - title: Docs\n", 1)
    blog = rest[rest.index("  - title: Blog") :]
    docs = (
        "  - title: Docs\n    gitSync: null\n    sections:\n"
        "      - {title: Home, path: home, siteSpaces: [{space: API, path: api}]}\n"
    )
    return head + docs + blog
