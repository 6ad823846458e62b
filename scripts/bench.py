"""Benchmark: what plan and apply cost at 1k, 3k and 10k resources, against the targets of
performance at scale. Prints a table; asserts nothing. Usage:

    bash scripts/bench [--quick] [--fixed] [--scale] [--sizes 1000,3000,10000] [--latency MS]
                       [--previous VENV]

First the fixed costs of every command and of a small plan (scripts/bench_fixed.py; `--fixed`:
only those), beside the previous release's with `--previous` (a virtual environment where it
is installed). Then, for each size it generates an organization in the proportions of 100 sites
x 6 sections x 3 site spaces, 200 teams and 1,000 members (about 4,000 resources), seeds an
emulator with its members,
and, each client run in a process of its own (CPU and peak memory are that process's):
  apply     from scratch, requests against the minimum the API allows (counted from its rules);
  plan      the applied organization at --latency per request: requests against R_min (one read
            per list page, per managed team's members and per site's structure) and wall time
            against the latency-bound ideal, ceil(R / 8) x latency + nesting depth x latency;
  refresh   Terraform-style, one read per resource by id, at the same latency;
  replay    the same plan without latency against the emulator and against a server that
            answers the recorded answers from memory, the best of REPEAT runs each: the
            emulator's own overhead, in wall time and in CPU seconds (client + server, which a
            loaded machine does not inflate);
  lists     the emulator's member list (a page of up to 1,000) and a team's members list.
Then the list requests of planning grants on 200 spaces and an integration on 50 sites, and
100,000 entries: a glossary of 100,000 terms and 100,000 teams validated and planned
(scripts/bench_scale.py; `--scale`: only that).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

REPO = Path(__file__).resolve().parent.parent
PROC = [sys.executable, str(REPO / "scripts" / "bench_proc.py")]
PAGE = 1000
PARALLELISM = 8
DEPTH = 3  # GET /v1/orgs, then the organization's lists, then a team's members / a site's tree
REPEAT = 3  # runs of the plan against the emulator and the replay; the best counts
SECTIONS, SITE_SPACES = 6, 3


@dataclass
class Org:
    """A generated organization in the issue's proportions (4,015 resources per unit)."""

    size: int
    sites: int = 0
    teams: int = 0
    members: int = 0
    spaces: int = 0
    collections: int = 0
    role_changes: int = 0
    docs: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unit = self.size / 4015
        self.sites = max(1, round(100 * unit))
        self.teams = max(1, round(200 * unit))
        self.members = max(10, round(1000 * unit))
        self.spaces = max(SITE_SPACES, round(300 * unit))
        self.collections = max(1, self.spaces // 20)

    @property
    def resources(self) -> int:
        structure = self.sites * (1 + SECTIONS * (1 + SITE_SPACES))
        return structure + self.teams + self.members + self.spaces + self.collections

    def seed(self) -> dict[str, Any]:
        users = [{"id": "u_ada", "email": "ada@acme.example", "token": "tok_ada"}] + [
            {"id": f"u{i}", "email": f"user{i}@acme.example", "token": f"tok_{i}"}
            for i in range(self.members - 1)
        ]
        members = [{"user": "u_ada", "role": "admin"}] + [
            {"user": f"u{i}", "role": "read"} for i in range(self.members - 1)
        ]
        return {
            "users": users,
            "organizations": [{"id": "org_acme", "title": "Acme", "members": members}],
        }

    def manifest(self) -> dict[str, Any]:
        emails = [f"user{i}@acme.example" for i in range(self.members - 1)]
        members: list[dict[str, Any]] = [{"email": "ada@acme.example", "role": "admin"}]
        for i, email in enumerate(emails):
            members.append({"email": email, "role": "edit" if i % 10 == 0 else "read"})
        self.role_changes = sum(1 for m in members[1:] if m["role"] == "edit")
        space = [f"Space {i:05}" for i in range(self.spaces)]
        return {
            "organization": "org_acme",
            "members": members,
            "teams": [
                {
                    "title": f"Team {t:04}",
                    "members": [emails[(t * 5 + k) % len(emails)] for k in range(5)],
                }
                for t in range(self.teams)
            ],
            "collections": [{"title": f"Collection {c:03}"} for c in range(self.collections)],
            "spaces": [
                {"title": title, "collection": f"Collection {i % self.collections:03}"}
                for i, title in enumerate(space)
            ],
            "sites": [
                {
                    "title": f"Site {s:04}",
                    "published": True,
                    "sections": [
                        {
                            "title": f"Section {k}",
                            "siteSpaces": [
                                {
                                    "space": space[
                                        ((s * SECTIONS + k) * SITE_SPACES + j) % self.spaces
                                    ],
                                    "path": f"v{j}",
                                }
                                | ({"default": True} if j == 0 else {})
                                for j in range(SITE_SPACES)
                            ],
                        }
                        for k in range(SECTIONS)
                    ],
                }
                for s in range(self.sites)
            ],
        }

    def apply_minimum(self) -> int:
        """The fewest requests the API allows for the first apply, from its rules: a team's
        create carries its members; a collection, space or site create is one request; a
        section's create makes its first site space (its level's default); each other site
        space is one create; no create body carries a site space's path (one PATCH each); a
        publish per site; a PATCH per member whose role changes."""
        sections = self.sites * SECTIONS
        site_spaces = sections * SITE_SPACES
        return (
            self.teams
            + self.collections
            + self.spaces
            + self.sites
            + sections
            + (site_spaces - sections)
            + site_spaces
            + self.sites
            + self.role_changes
        )

    def plan_minimum(self) -> int:
        """R_min: the organization, one read per page of each list, the members of each
        managed team and the structure of each managed site."""
        pages = sum(
            math.ceil(n / PAGE) or 1
            for n in (self.members, self.teams, self.collections, self.spaces, self.sites)
        )
        return 1 + pages + self.teams + self.sites


class Server:
    """A server process of `bench_proc.py` (emulator or replay) with its CPU and memory."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [*PROC, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http"):
            raise RuntimeError(f"{args[0]} did not start")

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def control(self, method: str, path: str, body: Any = None) -> None:
        httpx.request(method, f"{self.url}/_emulator/{path}", json=body, timeout=30)

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def client(what: str, url: str, manifest: Path, record: Path | None = None) -> dict[str, Any]:
    args = [what, url, str(manifest)] + (["--record", str(record)] if record else [])
    done = subprocess.run([*PROC, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def best_plan(server: Server, manifest: Path) -> dict[str, Any]:
    """The plan of least wall time of REPEAT runs, with the server's CPU during that run."""
    runs = []
    for _ in range(REPEAT):
        cpu = server.cpu()
        run = client("plan", server.url, manifest)
        runs.append(run | {"server_cpu": server.cpu() - cpu})
    return min(runs, key=lambda run: run["wall"])


def timed_get(http: httpx.Client, path: str, times: int) -> float:
    http.get(path).raise_for_status()
    started = time.perf_counter()
    for _ in range(times):
        http.get(path).raise_for_status()
    return (time.perf_counter() - started) / times * 1000


def measure(org: Org, latency: float, tmp: Path) -> dict[str, Any]:
    seed, manifest, record = tmp / "seed.yaml", tmp / "org.yaml", tmp / "record.json"
    seed.write_text(yaml.safe_dump(org.seed()), "utf-8")
    manifest.write_text(yaml.safe_dump(org.manifest()), "utf-8")
    row: dict[str, Any] = {"org": org}
    emulator = Server("emulator", str(seed))
    try:
        cpu = emulator.cpu()
        row["apply"] = client("apply", emulator.url, manifest)
        row["apply_server_cpu"] = emulator.cpu() - cpu
        emulator.control("PUT", "faults", {"latency": latency})
        cpu = emulator.cpu()
        row["plan"] = client("plan", emulator.url, manifest)
        row["plan_server_cpu"] = emulator.cpu() - cpu
        row["refresh"] = client("refresh", emulator.url, manifest)
        emulator.control("PUT", "faults", {})
        client("plan", emulator.url, manifest, record)
        row["plan_emulator"] = best_plan(emulator, manifest)
        with httpx.Client(
            base_url=emulator.url, headers={"Authorization": "Bearer tok_ada"}, timeout=60
        ) as http:
            base = "/v1/orgs/org_acme"
            row["member_list"] = timed_get(http, f"{base}/members?limit={PAGE}", 5)
            team = http.get(f"{base}/teams?limit=1").json()["items"][0]["id"]
            row["team_members"] = timed_get(http, f"{base}/teams/{team}/members", 20)
        row["emulator_rss"] = emulator.peak_mb()
    finally:
        emulator.stop()
    replay = Server("replay", str(record))
    try:
        row["plan_replay"] = best_plan(replay, manifest)
    finally:
        replay.stop()
    return row


def _plan_cpu(run: dict[str, Any]) -> float:
    cpu: float = run["cpu"] + run["server_cpu"]
    return cpu


def report(rows: list[dict[str, Any]], latency: float) -> None:
    def line(name: str, target: str, cells: list[str]) -> None:
        print(f"{name:<34}" + "".join(f"{c:>16}" for c in cells) + f"   {target}")

    print()
    line("", "target", [f"{r['org'].resources:,} res." for r in rows])
    line(
        "  sites / teams / members",
        "",
        [f"{r['org'].sites}/{r['org'].teams}/{r['org'].members}" for r in rows],
    )
    line("apply actions", "", [str(r["apply"]["actions"]) for r in rows])
    line(
        "apply requests (no retry) / min.",
        "= minimum",
        [
            f"{r['apply']['requests'] - r['apply']['retries']} / {r['org'].apply_minimum()}"
            for r in rows
        ],
    )
    line(
        "apply retries (429, 5xx, drops)",
        "0",
        [str(r["apply"]["retries"]) for r in rows],
    )
    line(
        "apply requests per action",
        "",
        [f"{r['apply']['requests'] / r['apply']['actions']:.2f}" for r in rows],
    )
    line("apply estimate (plan -v)", "", [str(r["apply"]["estimate"]) for r in rows])
    line("apply wall s (latency 0)", "", [f"{r['apply']['wall']:.1f}" for r in rows])
    line(
        "apply CPU s client / emulator",
        "",
        [f"{r['apply']['cpu']:.1f} / {r['apply_server_cpu']:.1f}" for r in rows],
    )
    line(
        "plan requests / R_min",
        "R_min + 1",
        [f"{r['plan']['requests']} / {r['org'].plan_minimum()}" for r in rows],
    )
    ideal = [
        (math.ceil(r["plan"]["requests"] / PARALLELISM) + DEPTH) * latency / 1000 for r in rows
    ]
    line(
        f"plan wall s / ideal ({latency:.0f} ms)",
        "~1.1x ideal",
        [f"{r['plan']['wall']:.2f} / {i:.2f}" for r, i in zip(rows, ideal, strict=True)],
    )
    line(
        "plan CPU s client / emulator",
        "linear",
        [f"{r['plan']['cpu']:.2f} / {r['plan_server_cpu']:.2f}" for r in rows],
    )
    line("refresh requests (per resource)", "", [str(r["refresh"]["requests"]) for r in rows])
    line("refresh wall s", "", [f"{r['refresh']['wall']:.2f}" for r in rows])
    line(
        "refresh / plan requests",
        ">= 10x",
        [f"{r['refresh']['requests'] / r['plan']['requests']:.1f}x" for r in rows],
    )
    line(
        "refresh / plan wall",
        "",
        [f"{r['refresh']['wall'] / r['plan']['wall']:.1f}x" for r in rows],
    )
    line(
        "plan wall s emulator / replay",
        "<= 1.5x",
        [
            f"{r['plan_emulator']['wall']:.2f}/{r['plan_replay']['wall']:.2f}="
            f"{r['plan_emulator']['wall'] / r['plan_replay']['wall']:.2f}x"
            for r in rows
        ],
    )
    line(
        "  CPU s client+server emu / replay",
        "",
        [
            f"{_plan_cpu(r['plan_emulator']):.2f}/{_plan_cpu(r['plan_replay']):.2f}="
            f"{_plan_cpu(r['plan_emulator']) / _plan_cpu(r['plan_replay']):.2f}x"
            for r in rows
        ],
    )
    line(
        "  server CPU s emulator / replay",
        "",
        [
            f"{r['plan_emulator']['server_cpu']:.2f} / {r['plan_replay']['server_cpu']:.2f}"
            for r in rows
        ],
    )
    line(
        "member list ms (page of)",
        "< 50 ms (1,000)",
        [f"{r['member_list']:.0f} ({min(PAGE, r['org'].members)})" for r in rows],
    )
    line("team members list ms", "< 5 ms", [f"{r['team_members']:.1f}" for r in rows])
    line(
        "peak RSS MB client (apply)", "< 150 at 10k", [f"{r['apply']['rss_mb']:.0f}" for r in rows]
    )
    line("peak RSS MB emulator", "", [f"{r['emulator_rss']:.0f}" for r in rows])
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        scale = last["org"].resources / first["org"].resources
        print(
            f"\ngrowth {first['org'].resources:,} -> {last['org'].resources:,} resources "
            f"(x{scale:.1f}; linear growth is x{scale:.1f}):"
        )
        for name, get in (
            ("plan requests", lambda r: r["plan"]["requests"]),
            ("apply requests", lambda r: r["apply"]["requests"]),
            ("apply client CPU", lambda r: r["apply"]["cpu"]),
            ("apply emulator CPU", lambda r: r["apply_server_cpu"]),
            ("plan client CPU", lambda r: r["plan"]["cpu"]),
            ("client peak RSS", lambda r: r["apply"]["rss_mb"]),
        ):
            print(f"  {name:<20} x{get(last) / max(get(first), 1e-9):.1f}")
    print("\nplan requests by kind of call (largest size):")
    for call, count in sorted(rows[-1]["plan"]["calls"].items(), key=lambda kv: -kv[1]):
        print(f"  {count:6}  {call}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,3000,10000", help="resources, comma-separated")
    parser.add_argument(
        "--latency", type=float, default=50.0, help="ms per request for plan and refresh"
    )
    parser.add_argument("--quick", action="store_true", help="one small size, 20 ms latency")
    parser.add_argument(
        "--fixed", action="store_true", help="only the fixed costs (scripts/bench_fixed.py)"
    )
    parser.add_argument(
        "--scale", action="store_true", help="only 100,000 entries (scripts/bench_scale.py)"
    )
    parser.add_argument(
        "--previous",
        metavar="VENV",
        help="a virtual environment with the previous release: measured beside this tree",
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    latency = args.latency
    if args.quick:
        sizes, latency = [1000], 20.0
    from bench_fixed import main as fixed_costs  # scripts/ is on the path
    from bench_scale import main as scale

    if args.scale:
        scale(args.previous)
        return
    fixed_costs(latency, args.previous)
    if args.fixed:
        return
    print()
    print(
        f"docsync benchmark: sizes {sizes}, latency {latency:.0f} ms, "
        f"parallelism {PARALLELISM}, {os.cpu_count()} CPUs"
    )
    rows = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            rows.append(measure(Org(size), latency, Path(tmp)))
            print(
                f"  {size:,} resources measured in {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    report(rows, latency)
    from bench_grants import report as grants_report  # scripts/ is on the path
    from bench_integrations import report as integrations_report

    grants_report(200)
    integrations_report(50)
    print()
    scale(args.previous)


if __name__ == "__main__":
    main()
