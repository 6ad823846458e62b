"""A site's redirects end to end against the emulator: apply, converge, read back, change,
export, and the request counts of a large list (1,200 written in 3 requests, read in 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.kit import (
    ORG,
    Docsync,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    export_plans_empty,
    id_of,
    listed,
    requests_between,
)

REDIRECTS = "/v1/orgs/{organizationId}/sites/{siteId}/redirects"
HEAD = """\
organization: org_acme
spaces:
  - {title: Guides}
  - {title: Old Guides}
sites:
  - title: Developer Docs
    sections:
      - title: Guides
        siteSpaces:
          - {space: Guides, path: v2, default: true}
          - {space: Old Guides, path: v1}
      - title: API
        siteSpaces: [{space: Internal Handbook, path: api}]
"""
FIRST = """\
    redirects:
      - source: /old-guides/*
        destination: {url: "https://docs.acme.example/guides"}
        permanent: true
      - {source: /start, destination: {section: Guides}}
      - {source: /v1, destination: {section: Guides, siteSpace: v1}}
"""
CHANGED = """\
    redirects:
      - source: /old-guides/*
        destination: {url: "https://docs.acme.example/guides"}
        captureWildcard: true
        permanent: true
      - {source: /start, destination: {section: API}}
      - {source: /reference, destination: {section: API, siteSpace: api}}
"""


def live_redirects(emulator: EmulatorHandle, title: str) -> list[dict[str, Any]]:
    """The site's redirects as the API holds them, by the names of their targets."""
    site = id_of(emulator, "sites", "title", title)
    names: dict[str, dict[str, str]] = {}
    for section in listed(emulator, f"{ORG}/sites/{site}/sections"):
        names[section["id"]] = {"section": section["title"]}
        for space in section["siteSpaces"]:
            names[space["id"]] = {"section": section["title"], "siteSpace": space["path"]}
    out = []
    for item in listed(emulator, f"{ORG}/sites/{site}/redirects"):
        destination = item["destination"]
        target = destination.get("siteSectionId") or destination.get("siteSpaceId")
        out.append(
            {
                "source": item["source"],
                "destination": names[target] if target else {"url": destination["url"]},
                "permanent": item["permanent"],
                "captureWildcard": item["captureWildcard"],
            }
        )
    return sorted(out, key=lambda item: item["source"])


def test_redirects_apply_converge_change_and_export(
    emulator: EmulatorHandle, docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    manifest = write("docs.yaml", HEAD + FIRST)
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    guides = {"section": "Guides"}
    assert live_redirects(emulator, "Developer Docs") == [
        {
            "source": "/old-guides/*",
            "destination": {"url": "https://docs.acme.example/guides"},
            "permanent": True,
            "captureWildcard": False,
        },
        {"source": "/start", "destination": guides, "permanent": False, "captureWildcard": False},
        {
            "source": "/v1",
            "destination": guides | {"siteSpace": "v1"},
            "permanent": False,
            "captureWildcard": False,
        },
    ]
    # A changed list: one changed, one re-pointed, one gone, one new; one apply converges.
    manifest = write("docs.yaml", HEAD + CHANGED)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert 'update site["Developer Docs"].redirects' in planned.stdout
    assert '- redirects[source="/v1"]' in planned.stdout
    assert '+ redirects[source="/reference"]' in planned.stdout
    assert 'redirects[source="/start"].destination.section: "Guides" -> "API"' in planned.stdout
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    assert [
        (r["source"], r["destination"]) for r in live_redirects(emulator, "Developer Docs")
    ] == [
        ("/old-guides/*", {"url": "https://docs.acme.example/guides"}),
        ("/reference", {"section": "API", "siteSpace": "api"}),
        ("/start", {"section": "API"}),
    ]
    _, sites = export_plans_empty(docsync, tmp_path / "export", "sites.yaml")
    assert "source: /reference" in sites and "captureWildcard: true" in sites


def test_a_section_made_anew_gets_its_redirects_pointed_at_it(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    manifest = write("docs.yaml", HEAD + FIRST)
    apply(docsync, manifest)
    site = id_of(emulator, "sites", "title", "Developer Docs")
    guides = next(
        s["id"] for s in listed(emulator, f"{ORG}/sites/{site}/sections") if s["title"] == "Guides"
    )
    with emulator.client() as client:
        deleted = client.delete(f"{ORG}/sites/{site}/sections/{guides}")
        assert deleted.status_code == 205
    # The redirects still name the deleted section's ids: the plan re-creates the section and
    # re-points them, in one apply.
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    assert [r["destination"] for r in live_redirects(emulator, "Developer Docs")][1:] == [
        {"section": "Guides"},
        {"section": "Guides", "siteSpace": "v1"},
    ]


def test_1200_redirects_are_written_in_3_requests_and_read_in_2(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    lines = "".join(
        f'      - {{source: /old/{i:04}, destination: {{url: "https://acme.example/{i}"}}}}\n'
        for i in range(1200)
    )
    manifest = write("docs.yaml", HEAD + "    redirects:\n" + lines)
    before = emulator.stats()
    apply(docsync, manifest)
    written = requests_between(before, emulator.stats())
    assert written[f"PUT {REDIRECTS}"] == 3
    assert (
        len(
            listed(
                emulator,
                f"{ORG}/sites/{id_of(emulator, 'sites', 'title', 'Developer Docs')}/redirects",
            )
        )
        == 1200
    )
    before = emulator.stats()
    assert_converged(docsync, manifest)
    read = requests_between(before, emulator.stats())
    assert read[f"GET {REDIRECTS}"] == 2
    assert read[f"PUT {REDIRECTS}"] == 0


def test_redirects_not_written_are_neither_read_nor_touched(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    apply(docsync, write("docs.yaml", HEAD + FIRST))
    before = emulator.stats()
    manifest = write("docs.yaml", HEAD)
    assert_converged(docsync, manifest)
    assert requests_between(before, emulator.stats())[f"GET {REDIRECTS}"] == 0
    assert len(live_redirects(emulator, "Developer Docs")) == 3


def test_a_bulk_upsert_whose_answer_is_lost_is_sent_again_and_converges(
    emulator: EmulatorHandle, docsync: Docsync, write: Write
) -> None:
    apply(docsync, write("docs.yaml", HEAD + FIRST))
    manifest = write("docs.yaml", HEAD + CHANGED)
    # The bulk upsert's answer is lost after the commit: the same request (a create, changes
    # and a delete) is sent again, and upserting or deleting twice is doing it once.
    emulator.set_faults(rules=[{"method": "PUT", "path": "/redirects$", "drop": True, "count": 1}])
    apply(docsync, manifest)
    assert emulator.stats()["faults"].get("drop") == 1
    emulator.set_faults()
    assert_converged(docsync, manifest)
    assert [r["source"] for r in live_redirects(emulator, "Developer Docs")] == [
        "/old-guides/*",
        "/reference",
        "/start",
    ]
