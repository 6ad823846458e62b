"""A server that accepts the connection and then drips its answer, or never sends it, cannot
hold `docsync plan`: it ends within `--timeout` (plus a little) with one line naming the host
and what was slow. The server is a raw socket in a thread, not the emulator: no framework in
it would answer this badly on purpose."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.kit import TOKEN, Write, invoke

#: what `--timeout` gives the test (the least it takes: the test waits for it) and what the
#: bound allows on top (start-up, a loaded machine)
TIMEOUT = 0.5
SLACK = 3.0


@contextmanager
def dripping(every: float, *, headers: bool) -> Iterator[str]:
    """A loopback HTTP server answering each request with one byte every `every` seconds, after
    a status line and headers promising 100 kB (`headers`), or with nothing at all."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    stop = threading.Event()

    def answer(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            received = b""
            while b"\r\n\r\n" not in received:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                received += chunk
            try:
                if headers:
                    conn.sendall(
                        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        b"Content-Length: 100000\r\n\r\n"
                    )
                    while not stop.wait(every):
                        conn.sendall(b" ")
                else:
                    stop.wait(60)
            except OSError:
                return  # the client gave up and closed: as it should

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=answer, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def plan_against(url: str, manifest: Path, *options: str) -> tuple[int, str, float]:
    env = {"DOCSYNC_API_URL": url, "DOCSYNC_TOKEN": TOKEN, "NO_COLOR": "1"}
    started = time.monotonic()
    result = invoke(env, "plan", manifest, *options)
    return result.exit_code, result.stderr, time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize(
    ("headers", "slow"),
    [
        (True, r"'s answer was still coming after 0\.5 s \(\d+ bytes had come\)"),
        (False, r" had not answered after 0\.5 s"),
    ],
    ids=["drips", "silent"],
)
def test_a_server_that_drips_or_never_answers_ends_the_plan_within_the_timeout(
    write: Write, headers: bool, slow: str
) -> None:
    manifest = write("org.yaml", "organization: org_acme\n")
    with dripping(0.1, headers=headers) as url:
        code, err, seconds = plan_against(url, manifest, "--timeout", str(TIMEOUT))
    host = url.removeprefix("http://")
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1, err
    assert seconds < TIMEOUT + SLACK, (seconds, err)
    assert lines[0].startswith(f"Error: GET /v1/orgs: no response: {host}"), err
    assert re.search(slow, lines[0]), err
    assert "--timeout changes it" in lines[0] and "Traceback" not in err
