"""`docsync emulator`: serve the local emulator of the Management API."""

from __future__ import annotations

from pathlib import Path

import click

from docsync.cli import main
from docsync.emulator.defaults import CONTRACTS, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RATE_LIMIT


def _share(_ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not 0 <= value <= 1:
        raise click.BadParameter(f"must be a share between 0 and 1, got {value}")
    return value


@main.command("emulator")
@click.option("--host", default=DEFAULT_HOST, show_default=True, help="Interface to listen on.")
@click.option(
    "--port",
    default=DEFAULT_PORT,
    show_default=True,
    type=click.IntRange(min=0, max=65535),
    help="TCP port; 0 takes a free one (the URL printed names it).",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="SQLite file that persists state across restarts (seeded only when new). "
    "Default: in memory.",
)
@click.option(
    "--seed",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Seed YAML (users, organizations, spaces), or a snapshot of an organization (`docsync "
    "export --format emulator-seed`). Default: the packaged example seed.",
)
@click.option("--latency", default=0.0, type=float, help="Milliseconds added to each request.")
@click.option("--fail-429", default=0.0, type=float, callback=_share, help="Share answered 429.")
@click.option(
    "--fail-5xx", default=0.0, type=float, callback=_share, help="Share answered 500/503."
)
@click.option(
    "--drop-after-commit",
    default=0.0,
    type=float,
    callback=_share,
    help="Share of writes whose connection is cut after the write is committed.",
)
@click.option(
    "--rate-limit",
    default=DEFAULT_RATE_LIMIT,
    type=click.IntRange(min=0),
    show_default=True,
    help="Requests per window (0: no budget and no X-RateLimit headers).",
)
@click.option("--rate-window", default=60.0, type=click.FloatRange(min=0.001), help="Seconds.")
@click.option("--fault-seed", default=0, type=int, help="Random seed: same seed, same faults.")
@click.option(
    "--contract",
    type=click.Choice(CONTRACTS),
    help="description: the API description plus what production adds; production: only what "
    "the production contract has, shaped as production shapes it (docs/emulator.md). "
    "Default: production for a snapshot's seed, else description.",
)
@click.option("-v", "--verbose", is_flag=True, help="Log every request.")
def emulator(
    host: str,
    port: int,
    db: Path | None,
    seed: Path | None,
    latency: float,
    fail_429: float,
    fail_5xx: float,
    drop_after_commit: float,
    rate_limit: int,
    rate_window: float,
    fault_seed: int,
    contract: str | None,
    verbose: bool,
) -> None:
    """Serve the emulator of the Management API (see docs/emulator.md). Stop with Ctrl-C."""
    import sqlite3

    from docsync.emulator.app import EmulatorConfig
    from docsync.emulator.errors import SeedError
    from docsync.emulator.faults import FaultConfig
    from docsync.emulator.seed import load_seed
    from docsync.emulator.server import listen_socket, serve
    from docsync.emulator.snapshot import TOKEN_PREFIX

    if db is not None and not db.parent.is_dir():
        raise click.BadParameter(f"directory {str(db.parent)!r} does not exist", param_hint="--db")
    try:
        seed_data = load_seed(seed)
    except SeedError as error:
        raise click.ClickException(str(error)) from error
    snapshot = seed_data.get("snapshot")
    contract = contract or ("production" if snapshot else "description")
    faults = FaultConfig(
        latency=latency,
        fail_429=fail_429,
        fail_5xx=fail_5xx,
        drop_after_commit=drop_after_commit,
        rate_limit=rate_limit,
        rate_window=rate_window,
        seed=fault_seed,
    )
    config = EmulatorConfig(
        seed=seed_data,
        db=str(db) if db else None,
        faults=faults,
        contract="production" if contract == "production" else "description",
    )
    try:
        sock = listen_socket(host, port)
    except OSError as error:
        reason = error.strerror or str(error)
        raise click.ClickException(f"cannot listen on {host}:{port}: {reason}") from None
    bound = sock.getsockname()[1]
    click.echo(
        f"docsync emulator: http://{host}:{bound} (API under /v1, control under /_emulator; "
        f"{contract} contract)"
    )
    if snapshot and snapshot.get("user"):
        token = TOKEN_PREFIX + str(snapshot["user"])
        click.echo(f"snapshot of {snapshot['organization']}: its reader's DOCSYNC_TOKEN={token}")
    try:
        serve(config, sock, "info" if verbose else "warning")
    except sqlite3.Error as error:
        where = f"--db {db}" if db else "the in-memory database"
        raise click.ClickException(f"{where}: cannot hold the emulator's state: {error}") from None
