"""Benchmark of the core, without HTTP: diff (desired + live -> plan) and the text rendering of
an organization of N resources, in CPU seconds. Prints figures; asserts nothing. Usage:
    .venv/bin/python scripts/bench_core.py [--resources 1000 10000 50000]
Linear growth is the aim: 10x the resources should cost about 10x the time, not 100x; each line
ends with the cost per resource, which stays flat when the growth is linear.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from docsync.core.state import LiveState  # noqa: E402
from docsync.engine.planner import diff  # noqa: E402
from docsync.kinds import KINDS  # noqa: E402
from docsync.manifest import load_manifests  # noqa: E402
from docsync.render.text import render_plan  # noqa: E402

ORG = {"id": "org_acme", "title": "Acme"}


def organization(size: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(manifest, live items by kind) of about `size` resources: teams, SAML providers naming
    teams, collections, spaces in them, sites with sections each publishing a space. The
    manifest creates 5% more teams, prunes as many, and changes 5% of the spaces."""
    teams = int(size * 0.3)
    samls = int(size * 0.17)
    collections = max(1, int(size * 0.02))
    spaces = int(size * 0.3)
    sites = max(1, size // 100)
    sections = 10
    live: dict[str, Any] = {
        "team": [{"id": f"t{i}", "title": f"Team {i:05}"} for i in range(teams)]
        + [{"id": f"old{i}", "title": f"Old team {i:05}"} for i in range(teams // 20)],
        "saml": [
            {"id": f"sa{i}", "label": f"IdP {i:05}", "defaultTeam": {"id": f"t{i % teams}"}}
            for i in range(samls)
        ],
        "collection": [{"id": f"c{i}", "title": f"Collection {i:04}"} for i in range(collections)],
        "space": [
            {"id": f"sp{i}", "title": f"Space {i:05}", "parent": f"c{i % collections}"}
            for i in range(spaces)
        ],
        "site": [
            {
                "id": f"s{s}",
                "title": f"Site {s:04}",
                "visibility": "public",
                "published": True,
                "_structure": {
                    "type": "sections",
                    "structure": [
                        {
                            "object": "site-section",
                            "id": f"s{s}sec{k}",
                            "title": f"Section {k:02}",
                            "path": f"section-{k}",
                            "default": k == 0,
                            "siteSpaces": [
                                {
                                    "id": f"s{s}ss{k}",
                                    "space": {"id": f"sp{(s * sections + k) % spaces}"},
                                    "path": "v1",
                                    "default": True,
                                }
                            ],
                        }
                        for k in range(sections)
                    ],
                },
            }
            for s in range(sites)
        ],
    }
    manifest: dict[str, Any] = {
        "organization": "org_acme",
        "prune": ["teams"],
        "teams": [{"title": f"Team {i:05}"} for i in range(teams + teams // 20)],
        "saml": [
            {"label": f"IdP {i:05}", "defaultTeam": f"Team {i % teams:05}"} for i in range(samls)
        ],
        "collections": [{"title": f"Collection {i:04}"} for i in range(collections)],
        "spaces": [
            {
                "title": f"Space {i:05}",
                "collection": f"Collection {i % collections:04}",
            }
            | ({"emoji": "1f4d8"} if i % 20 == 0 else {})
            for i in range(spaces)
        ],
        "sites": [
            {
                "title": f"Site {s:04}",
                "sections": [
                    {
                        "title": f"Section {k:02}",
                        "path": f"section-{k}",
                        "siteSpaces": [
                            {
                                "space": f"Space {(s * sections + k) % spaces:05}",
                                "path": "v1",
                                "default": True,
                            }
                        ],
                    }
                    for k in range(sections)
                ],
            }
            for s in range(sites)
        ],
    }
    return manifest, live


def live_state(items: dict[str, Any]) -> LiveState:
    live = LiveState(ORG)
    for kind in KINDS:
        if kind.name in items:
            for resource in kind.to_live(items[kind.name], live):
                live.add(resource)
            live.fetched.add(kind.name)
    return live


def measure(size: int) -> None:
    manifest, items = organization(size)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "org.yaml"
        path.write_text(yaml.safe_dump(manifest), encoding="utf-8")
        loaded = load_manifests([path], environ={})
    started = time.process_time()
    live = live_state(items)
    normalized = time.process_time() - started
    kinds = [k for k in KINDS if not k.nested and (k.name in items or k.name == "settings")]
    started = time.process_time()
    plan = diff(loaded, live, kinds)
    planned = time.process_time() - started
    started = time.process_time()
    text = render_plan(plan, color=False)
    rendered = time.process_time() - started
    print(
        f"{len(live.by_address):6} live resources: live state {normalized:6.3f} s, "
        f"diff {planned:6.3f} s, render {rendered:6.3f} s ({len(plan.actions)} actions, "
        f"{len(text.splitlines())} lines); diff + render {planned + rendered:6.3f} s CPU, "
        f"{(planned + rendered) / len(live.by_address) * 1e6:5.1f} us per resource"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, nargs="+", default=[1000, 10000, 50000])
    for size in parser.parse_args().resources:
        measure(size)


if __name__ == "__main__":
    main()
