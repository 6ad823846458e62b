"""Writes whose answer is lost after the server carried them out: one apply still converges,
and nothing is made twice. Each rule drops the answer of the first matching write."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, Write, apply_ok, assert_converged, listed
from tests.engine.faultkit import ORG, duplicates

#: what is retried and that it converges is tested here, not how long the client waits
pytestmark = pytest.mark.usefixtures("quick_retries")


SITES = """\
organization: org_acme
teams: [{title: Platform}]
spaces: [{title: Guides}, {title: Runbooks}, {title: API Reference}]
sites:
  - title: Docs
    sections:
      - title: Guides
        siteSpaces: [{space: Guides, path: latest}, {space: Runbooks, path: ops}]
      - title: API
        siteSpaces: [{space: API Reference, path: reference}]
    sectionGroups:
      - {title: Learn, sections: [Guides]}
  - title: Handbook
    siteSpaces: [{space: Internal Handbook, path: handbook}]
"""

# The second apply: a site space goes, a section joins the group, a section is renamed.
CHANGED = """\
organization: org_acme
teams: [{title: Platform}]
spaces: [{title: Guides}, {title: Runbooks}, {title: API Reference}]
sites:
  - title: Docs
    sections:
      - title: Guides
        siteSpaces: [{space: Guides, path: latest}]
      - title: API
        siteSpaces: [{space: API Reference, path: api-reference}]
    sectionGroups:
      - {title: Learn, sections: [Guides, API]}
  - title: Handbook
    siteSpaces: [{space: Internal Handbook, path: handbook}]
"""


def drop(method: str, path: str, count: int = 1) -> dict[str, Any]:
    return {"method": method, "path": path, "drop": True, "count": count}


def test_creates_of_every_kind_adopted_after_a_lost_answer(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write("sites.yaml", SITES)
    rules = [
        drop("PUT", "/teams$"),
        drop("POST", "/spaces$"),
        drop("POST", "/sites$"),
        drop("POST", "/sites/[^/]+/sections$"),
        drop("POST", "/site-spaces$", 2),
        drop("POST", "/section-groups$"),
        drop("PATCH", "/site-spaces/[^/]+$"),
    ]
    emulator.set_faults(rules=rules)
    result = apply_ok(docsync, path)
    assert emulator.stats()["faults"].get("drop") == 8, result.output
    assert "0 failed" in result.stdout
    emulator.set_faults()
    assert_converged(docsync, path)
    assert duplicates(emulator) == []


def test_deletes_updates_and_group_adds_after_a_lost_answer(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("sites.yaml", SITES))
    rules = [
        drop("DELETE", "/site-spaces/[^/]+$"),
        drop("PATCH", "/site-spaces/[^/]+$"),
        drop("PATCH", "/sections/[^/]+$"),  # a section into its group: siteSectionGroupId
    ]
    emulator.set_faults(rules=rules)
    changed = write("sites.yaml", CHANGED)
    result = apply_ok(docsync, changed)
    assert emulator.stats()["faults"].get("drop") == 3, result.output
    emulator.set_faults()
    assert_converged(docsync, changed)
    assert duplicates(emulator) == []


def test_a_section_left_at_the_path_the_api_chose_is_adopted(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """As after a crash between a section's create and its site space's path change."""
    head = "organization: org_acme\nspaces: [{title: Guides}]\nsites:\n  - title: Docs\n"
    apply_ok(docsync, write("site.yaml", head))
    (site,) = [s["id"] for s in listed(emulator, f"{ORG}/sites") if s["title"] == "Docs"]
    (space,) = [s["id"] for s in listed(emulator, f"{ORG}/spaces") if s["title"] == "Guides"]
    with emulator.client() as client:
        made = client.post(f"{ORG}/sites/{site}/sections", json={"spaceId": space, "title": "Gs"})
    assert made.status_code == 201, made.text
    assert made.json()["siteSpaces"][0]["path"] != "latest"
    wanted = write(
        "site.yaml",
        head + "    sections:\n      - title: Gs\n"
        "        siteSpaces: [{space: Guides, path: latest}]\n",
    )
    planned = docsync("plan", wanted)
    assert "Plan: 0 to create, 1 to update, 0 to delete." in planned.stdout, planned.output
    apply_ok(docsync, wanted)
    assert_converged(docsync, wanted)


@dataclass(frozen=True)
class Flat:
    """One flat kind: an entry as created and as changed, the list it lives in, and the paths
    (regexes) of its create, update and delete; None where the kind has no such write."""

    section: str
    key: str
    name: str  # the entry's key
    created: str
    changed: str | None
    listing: str
    create: tuple[str, str] | None
    update: tuple[str, str] | None
    delete: tuple[str, str]


SAML = "{label: Okta, ssoURL: 'https://okta.example/%s', entityID: e1, certificate: \"%s\"}"
CERT = "{{ env('SAML_CERT') }}"
FLAT = [
    Flat("teams", "title", "Ops", "{title: Ops, members: [ada@acme.example]}",
         "{title: Ops, members: [ada@acme.example, kim@acme.example]}", "teams",
         ("PUT", "/teams$"), ("PUT", "/teams/[^/]+/members"), ("DELETE", "/teams/[^/]+$")),
    Flat("saml", "label", "Okta", SAML % ("sso", CERT), SAML % ("sso2", CERT), "saml",
         ("POST", "/saml$"), ("PATCH", "/saml/[^/]+$"), ("DELETE", "/saml/[^/]+$")),
    Flat("collections", "title", "Dev", "{title: Dev}", "{title: Dev, description: For builders}",
         "collections", ("POST", "/collections$"), ("PATCH", "/collections/[^/]+$"),
         ("DELETE", "/collections/[^/]+$")),
    Flat("spaces", "title", "Notes", "{title: Notes}", "{title: Notes, emoji: '1f4d8'}", "spaces",
         ("POST", "/spaces$"), ("PATCH", "/spaces/[^/]+$"), ("DELETE", "/spaces/[^/]+$")),
    Flat("openapi", "slug", "pub", "{slug: pub, source: {url: 'https://acme.example/a.yaml'}}",
         "{slug: pub, source: {url: 'https://acme.example/b.yaml'}}", "openapi",
         ("POST", "/openapi$"), ("PUT", "/openapi/[^/]+$"), ("DELETE", "/openapi/[^/]+$")),
    Flat("translations", "title", "French", "{title: French}", None, "translations",
         ("POST", "/translations$"), None, ("DELETE", "/translations/[^/]+$")),
    Flat("members", "email", "kim@acme.example", "{email: kim@acme.example, role: read}",
         "{email: kim@acme.example, role: edit}", "members",
         None, ("PATCH", "/members/[^/]+$"), ("DELETE", "/members/[^/]+$")),
    Flat("inviteLinks", "role", "read", "{role: read}", None, "link-invites",
         ("POST", "/link-invites$"), None, ("DELETE", "/link-invites/[^/]+$")),
]  # fmt: skip


def held(emulator: EmulatorHandle, kind: Flat) -> Counter[str]:
    """How many live resources of the kind hold each key (the org's own, for members)."""
    items = listed(emulator, f"{ORG}/{kind.listing}")
    if kind.key == "email":
        return Counter(str((i.get("user") or {}).get("email")) for i in items)
    return Counter(str(i.get(kind.key)) for i in items)


@pytest.mark.slow
@pytest.mark.parametrize("kind", FLAT, ids=[k.section for k in FLAT])
def test_every_flat_write_converges_after_its_answer_is_lost(
    docsync: Docsync, emulator: EmulatorHandle, write: Write, kind: Flat
) -> None:
    """Create, update and delete of each flat kind, each answer dropped after the commit."""
    steps = [(kind.created, kind.create), (kind.changed, kind.update)]
    steps.append((f"{{{kind.key}: {kind.name}, state: absent}}", kind.delete))
    for entry, rule in steps:
        if entry is None:
            continue
        path = write("m.yaml", f"organization: org_acme\n{kind.section}:\n  - {entry}\n")
        dropped = emulator.stats()["faults"].get("drop", 0)
        emulator.set_faults(rules=[drop(*rule)] if rule else [])
        result = apply_ok(docsync, path)
        dropped = emulator.stats()["faults"].get("drop", 0) - dropped
        assert dropped == (1 if rule else 0), result.output
        emulator.set_faults()
        assert_converged(docsync, path)
        assert held(emulator, kind)[kind.name] == (0 if "absent" in entry else 1), entry
