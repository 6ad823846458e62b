"""The benchmark's processes: the emulator, a replay server and the client runs, each on its own
so that its CPU time and peak memory are its own. `scripts/bench.py` starts them; by hand:

    python scripts/bench_proc.py emulator SEED.yaml     # prints its URL, serves until stdin ends
    python scripts/bench_proc.py replay RECORD.json     # the same, answering recorded requests
    python scripts/bench_proc.py plan|apply|refresh URL MANIFEST [--record FILE]  # prints JSON
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

TOKEN = "tok_ada"
PARALLELISM = 8


def _usage() -> dict[str, float]:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return {"cpu": used.ru_utime + used.ru_stime, "rss_mb": used.ru_maxrss / 1024}


# -- servers -------------------------------------------------------------------------------------


def serve_emulator(seed: str) -> None:
    """The emulator on a free loopback port until stdin closes."""
    from docsync.emulator.app import EmulatorConfig
    from docsync.emulator.server import EmulatorThread

    with EmulatorThread(EmulatorConfig(seed=seed)) as server:
        print(server.url, flush=True)
        sys.stdin.read()


def serve_replay(record: str) -> None:
    """Answers each recorded request with its recorded answer, from memory (HTTP/1.1 keep-alive):
    the fastest server these answers can come from, the yardstick of the emulator's overhead."""
    answers: dict[tuple[str, str], bytes] = {}
    for item in json.loads(Path(record).read_text("utf-8")):
        body = item["body"].encode()
        head = (
            f"HTTP/1.1 {item['status']} X\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n\r\n"
        )
        answers[(item["method"], item["target"])] = head.encode() + body
    missing = b"HTTP/1.1 404 X\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}"

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                method, target, _ = line.decode("latin-1").split(" ", 2)
                length = 0
                while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = header.decode("latin-1").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                if length:
                    await reader.readexactly(length)
                writer.write(answers.get((method, target), missing))
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    async def main() -> None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        print(f"http://127.0.0.1:{port}", flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)
        server.close()

    asyncio.run(main())


# -- client runs ---------------------------------------------------------------------------------


def _recorder(log: list[dict[str, Any]]) -> Any:
    import httpx

    class Recorder(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            limits = httpx.Limits(max_connections=PARALLELISM)
            self.inner = httpx.AsyncHTTPTransport(limits=limits)

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await self.inner.handle_async_request(request)
            body = await response.aread()
            target = request.url.raw_path.decode("ascii")
            log.append(
                {
                    "method": request.method,
                    "target": target,
                    "status": response.status_code,
                    "body": body.decode("utf-8"),
                }
            )
            return httpx.Response(response.status_code, headers=response.headers, content=body)

        async def aclose(self) -> None:
            await self.inner.aclose()

    return Recorder()


async def run_client(what: str, url: str, manifest: str, record: str | None) -> dict[str, Any]:
    """Plan, apply or refresh once; the figures of that run alone (imports excluded)."""
    from docsync.api import ApiClient
    from docsync.engine import run
    from docsync.engine.cost import apply_requests
    from docsync.manifest import load_manifests

    log: list[dict[str, Any]] = []
    transport = _recorder(log) if record else None
    loaded = load_manifests([Path(manifest)])
    cpu_before = _usage()["cpu"]
    async with ApiClient(url, TOKEN, parallelism=PARALLELISM, transport=transport) as api:
        started = time.perf_counter()
        out: dict[str, Any] = {}
        if what == "refresh":
            await refresh(api, loaded.manifest.organization)
        else:
            plan, live = await run.plan(api, loaded)
            out["actions"] = len(plan.actions)
            out["estimate"] = apply_requests(plan)
            if what == "apply":
                planned = api.stats.copy()
                started = time.perf_counter()
                report = await run.apply(api, plan, live, parallelism=PARALLELISM)
                out["summary"] = report.summary()
                stats = api.stats.since(planned)
            else:
                stats = api.stats
        if what != "apply":
            stats = api.stats
        wall = time.perf_counter() - started
    if record:
        Path(record).write_text(json.dumps(log), "utf-8")
    usage = _usage()
    return out | {
        "requests": stats.requests,
        "retries": stats.retries,
        "calls": dict(stats.calls),
        "wall": wall,
        "cpu": usage["cpu"] - cpu_before,
        "rss_mb": usage["rss_mb"],
    }


async def refresh(api: Any, org: str) -> None:
    """A Terraform-style refresh: one read per resource in state, by its id. The ids are found
    first (not counted: Terraform has them in its state file)."""
    from docsync.api import ApiClient

    listing = ApiClient(api.base_url, TOKEN, parallelism=PARALLELISM)
    async with listing:
        base = f"/v1/orgs/{org}"
        members = await listing.list_all(f"{base}/members")
        teams = await listing.list_all(f"{base}/teams")
        collections = await listing.list_all(f"{base}/collections")
        spaces = await listing.list_all(f"{base}/spaces")
        sites = await listing.list_all(f"{base}/sites")
        structures = await asyncio.gather(
            *(listing.get(f"{base}/sites/{s['id']}/structure") for s in sites)
        )
    reads = [f"{base}/members/{m['id']}" for m in members]
    for team in teams:
        reads += [f"{base}/teams/{team['id']}", f"{base}/teams/{team['id']}/members"]
    reads += [f"/v1/collections/{c['id']}" for c in collections]
    reads += [f"/v1/spaces/{s['id']}" for s in spaces]
    for site, structure in zip(sites, structures, strict=True):
        path = f"{base}/sites/{site['id']}"
        reads.append(path)
        for section in structure.get("structure") or []:
            reads.append(f"{path}/sections?section={section['id']}")
            reads += [f"{path}/site-spaces?item={s['id']}" for s in section.get("siteSpaces", [])]
    await asyncio.gather(*(api.get(read) for read in reads))


def main(argv: list[str]) -> None:
    command = argv[0]
    if command == "emulator":
        serve_emulator(argv[1])
    elif command == "replay":
        serve_replay(argv[1])
    else:
        record = argv[argv.index("--record") + 1] if "--record" in argv else None
        print(json.dumps(asyncio.run(run_client(command, argv[1], argv[2], record))))


if __name__ == "__main__":
    main(sys.argv[1:])
