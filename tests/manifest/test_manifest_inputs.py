"""Every path docsync reads is a regular file of bounded size, checked before it is read: a FIFO
would block the read forever and a device such as /dev/zero never ends (the variable file of one
grew to gigabytes and ended in `internal error: MemoryError`). Each is refused in one located
line, wherever a path is read: manifests, the files of a manifest directory, variable files, a
saved plan to apply or show. Run in one child process under a memory ceiling and a time limit,
so that a regression fails the test instead of holding or exhausting the machine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.kit import Write
from tests.manifest.conftest import run_bounded

SECONDS = 5.0
RESIDENT_MB = 300
FIFO = "a named pipe (FIFO), not a regular file: docsync reads regular files only"
DEVICE = "a character device, not a regular file: docsync reads regular files only"


def _sparse(path: Path, size: int) -> Path:
    """A file of `size` bytes that takes no disk space (nothing is written)."""
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


@pytest.mark.slow
def test_pipes_devices_and_huge_files_are_refused_in_one_line_fast(
    write: Write, tmp_path: Path
) -> None:
    manifest = str(write("m.yaml", "organization: o\n"))
    fifo = tmp_path / "vars.yaml"
    os.mkfifo(fifo)
    write("d/org.yaml", "organization: o\n")
    in_directory = tmp_path / "d" / "teams.yaml"
    os.mkfifo(in_directory)
    huge = _sparse(tmp_path / "huge.yaml", 1024**3)
    cases = {
        "/dev/zero as --var-file": (
            ["validate", manifest, "--var-file", "/dev/zero"],
            f"/dev/zero:1:1: {DEVICE}",
        ),
        "/dev/urandom as --var-file": (
            ["plan", manifest, "--var-file", "/dev/urandom"],
            f"Error: /dev/urandom:1:1: {DEVICE}",
        ),
        "a FIFO as --var-file": (
            ["validate", manifest, "--var-file", str(fifo)],
            f"{fifo}:1:1: {FIFO}",
        ),
        "a FIFO as a manifest": (["validate", str(fifo)], f"{fifo}:1:1: {FIFO}"),
        "a FIFO in a manifest directory": (
            ["validate", str(tmp_path / "d")],
            f"{in_directory}:1:1: {FIFO}",
        ),
        "a 1 GB variable file": (
            ["validate", manifest, "--var-file", str(huge)],
            f"{huge}:1:1: the file is larger than 10 MiB",
        ),
        "a FIFO as a saved plan to apply": (
            ["apply", "--plan", str(fifo)],
            f"Error: {fifo}: {FIFO}",
        ),
        "a FIFO shown": (["show", str(fifo)], f"Error: {fifo}: {FIFO}"),
        "/dev/zero shown": (["show", "/dev/zero"], f"Error: /dev/zero: {DEVICE}"),
        "a 1 GB plan shown": (
            ["show", str(huge)],
            f"Error: {huge}: the file is larger than 256 MiB",
        ),
    }
    results, resident = run_bounded([args for args, _ in cases.values()], timeout=60)
    for (name, (_args, expected)), (code, output, seconds) in zip(
        cases.items(), results, strict=True
    ):
        assert code == 1, (name, output)
        assert output.strip().splitlines() == [expected], (name, output)
        assert seconds < SECONDS, (name, seconds)
    assert resident < RESIDENT_MB, resident


def test_a_variable_file_is_held_to_the_manifests_limits(write: Write) -> None:
    """What a manifest may not hold, a variable file may not either: the same size, the same
    located decoding error."""
    from tests.manifest.conftest import run_validate

    manifest = write("m.yaml", "organization: o\n")
    big = write("big.yaml", "a: 1\n" + "#" * (10 * 1024 * 1024) + "\n")
    result = run_validate(str(manifest), "--var-file", str(big))
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [f"{big}:1:1: the file is larger than 10 MiB"]
    latin = write("latin.yaml", "")
    latin.write_bytes(b"region: eu\nname: caf\xe9\n")
    result = run_validate(str(manifest), "--var-file", str(latin))
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [
        f"{latin}:2:10: not UTF-8 text (byte 0xe9 cannot be decoded)"
    ]
