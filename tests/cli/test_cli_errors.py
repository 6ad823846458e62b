"""Bad inputs end in one clear `Error:` line and a non-zero exit, never a Python traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import ACME, Run, run_process
from tests.emulator_harness import EmulatorHandle
from tests.kit import invoke


def _no_traceback(output: str) -> None:
    assert "Traceback" not in output, output


def test_plan_detailed_exitcode_bad_var_exits_1_not_2(cli: Run) -> None:
    # A --var mistake is found inside the command, after click's parsing: with
    # --detailed-exitcode it must still exit 1, or CI reads it as "changes present".
    result = cli("plan", ACME, "--var", "not a pair", "--detailed-exitcode")
    assert result.exit_code == 1, result.output
    assert "KEY=VALUE" in result.output


def test_plan_out_into_a_missing_directory(cli: Run, tmp_path: Path) -> None:
    target = tmp_path / "missing" / "plan.json"
    result = cli("plan", ACME, "--out", target, "--detailed-exitcode")
    _no_traceback(result.output)
    assert result.exit_code == 1
    assert f"Error: cannot write {target}" in result.stderr


def test_export_out_where_no_directory_can_be_made(cli: Run, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    result = cli("export", "--org", "org_acme", "--out", blocker / "sub")
    _no_traceback(result.output)
    assert result.exit_code == 1
    assert f"{blocker / 'sub'}" in result.stderr


def test_schema_out_where_no_directory_can_be_made(cli: Run, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    result = cli("schema", "--out", blocker / "sub")
    _no_traceback(result.output)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot ")


def test_emulator_port_out_of_range_is_a_usage_error(cli: Run) -> None:
    result = cli("emulator", "--port", "70000")
    _no_traceback(result.output)
    assert result.exit_code == 2
    assert "--port" in result.stderr


def test_emulator_db_in_a_missing_directory(cli: Run, tmp_path: Path) -> None:
    result = cli("emulator", "--port", "1", "--db", tmp_path / "missing" / "state.db")
    _no_traceback(result.output)
    assert result.exit_code == 2
    assert "--db" in result.stderr and "missing" in result.stderr


def test_emulator_db_that_is_not_a_database(cli: Run, tmp_path: Path) -> None:
    # The database is opened before the port is bound: port 1 is never listened on.
    db = tmp_path / "notes.db"
    db.write_text("these are notes, not an SQLite database\n" * 20)
    result = cli("emulator", "--port", "1", "--db", db)
    _no_traceback(result.output)
    assert result.exit_code == 1
    assert f"--db {db}" in result.stderr and "not a database" in result.stderr


@pytest.mark.slow
@pytest.mark.usefixtures("quick_retries")
def test_unreachable_server_names_the_url(cli: Run) -> None:
    url = "http://127.0.0.1:9"
    # tried again until its deadline (a server restarting refuses connections for a while)
    result = cli("plan", ACME, "--api-url", url, "--timeout", "2")
    assert result.exit_code == 1
    assert "could not connect" in result.stderr
    assert url in result.stderr and "DOCSYNC_API_URL" in result.stderr


def test_a_url_that_is_not_the_api_says_so(cli: Run, emulator: EmulatorHandle) -> None:
    result = cli("plan", ACME, "--api-url", f"{emulator.url}/elsewhere")
    assert result.exit_code == 1
    assert "404" in result.stderr
    assert f"{emulator.url}/elsewhere" in result.stderr and "--api-url" in result.stderr


def test_wrong_token_is_not_blamed_on_the_url(cli: Run) -> None:
    result = cli("plan", ACME, env={"DOCSYNC_TOKEN": "tok_nobody"})
    assert result.exit_code == 1
    assert "401" in result.stderr and "DOCSYNC_TOKEN" in result.stderr
    assert "--api-url" not in result.stderr
    assert "tok_nobody" not in result.output


def test_saved_plan_applied_from_another_directory(
    emulator: EmulatorHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / "repo"
    shutil.copytree(ACME, work / "manifests")
    plan_file = tmp_path / "plan.json"
    with monkeypatch.context() as here:  # planned in-process: the apply's process is checked
        here.chdir(work)
        made = invoke(_env(emulator), "plan", "manifests", "--out", plan_file)
    assert made.exit_code == 0, made.output
    applied = run_process("apply", "--plan", plan_file, env=_env(emulator), cwd=tmp_path)
    _no_traceback(applied.stderr)
    assert applied.returncode == 1
    assert "relative to the directory" in applied.stderr
    assert "manifests/org.yaml" in applied.stderr
    assert emulator.stats()["requests"].get("PUT /v1/orgs/{organizationId}/teams", 0) == 0


def _env(emulator: EmulatorHandle) -> dict[str, str]:
    return {"DOCSYNC_API_URL": emulator.url, "DOCSYNC_TOKEN": "tok_ada"}


def test_bad_manifest_or_missing_token_changes_nothing(
    cli: Run, emulator: EmulatorHandle, tmp_path: Path
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("organization: org_acme\nteams:\n  - title: X\n   members: [a\n")
    result = cli("apply", broken, "--auto-approve")
    _no_traceback(result.output)
    assert result.exit_code == 1
    assert f"{broken}:4:4: not valid YAML" in result.stderr
    result = cli("apply", ACME, "--auto-approve", env={"DOCSYNC_TOKEN": ""})
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: DOCSYNC_TOKEN is not set: export a Management API token, "
        "for example `export DOCSYNC_TOKEN=...`\n"
    )
    assert emulator.stats()["total"] == 0  # not even a read


def test_a_bug_is_one_internal_error_line_and_its_traceback_only_under_vv(
    cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docsync.engine import run

    async def broken(*_: object, **__: object) -> object:
        raise KeyError("source")

    monkeypatch.setattr(run, "plan", broken)
    result = cli("plan", ACME)
    _no_traceback(result.output)
    assert result.exit_code == 1
    assert "Error: internal error: KeyError: 'source' (a bug in docsync" in result.stderr
    verbose = cli("plan", ACME, "-vv")
    assert verbose.exit_code == 1
    assert "Traceback" in verbose.stderr and "KeyError: 'source'" in verbose.stderr


@pytest.mark.parametrize("entry", ["main", "run"])
def test_output_whose_reader_went_away_ends_quietly(entry: str) -> None:
    """`docsync validate manifests/ | head -1`: the second line met a closed pipe and docsync
    called it "internal error: BrokenPipeError ... a bug in docsync". `run` is the executable's
    entry, which ends without the interpreter's teardown."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                f"from docsync.cli import {entry}; {entry}()",
                "validate",
                str(ACME),
            ],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write)
    assert done.stderr == ""
    assert done.returncode == 141  # as a tool that SIGPIPE ends: 128 + 13


def test_the_executable_flushes_all_it_printed_before_it_ends(tmp_path: Path) -> None:
    """`run` ends the process without the interpreter's teardown: what was printed, to a file
    or a pipe, is all there, and the exit code is the command's."""
    out = tmp_path / "out.txt"
    with out.open("w") as sink:
        done = subprocess.run(
            [sys.executable, "-c", "from docsync.cli import run; run()", "schema"],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    assert done.returncode == 0 and done.stderr == ""
    assert out.read_text().rstrip().endswith("}")
    failed = subprocess.run(
        [sys.executable, "-c", "from docsync.cli import run; run()", "validate", "missing.yaml"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert failed.returncode == 2 and "'missing.yaml' does not exist" in failed.stderr
