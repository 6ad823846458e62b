"""Shell completion, as docs/usage.md documents it: the `docsync` console script prints a completion
script when `_DOCSYNC_COMPLETE` asks for one, and that script completes docsync's commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: The console script pip installed beside the interpreter running the tests (`.venv/bin`).
DOCSYNC = Path(sys.executable).parent / ("docsync.exe" if os.name == "nt" else "docsync")


def _run(**env: str) -> str:
    assert DOCSYNC.is_file(), f"{DOCSYNC}: the docsync console script is not installed"
    result = subprocess.run(
        [str(DOCSYNC)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_completion_script_is_produced(shell: str) -> None:
    script = _run(_DOCSYNC_COMPLETE=f"{shell}_source")
    assert script.strip()
    assert "docsync" in script and "_DOCSYNC_COMPLETE" in script


def test_bash_completion_completes_commands() -> None:
    answer = _run(_DOCSYNC_COMPLETE="bash_complete", COMP_WORDS="docsync pl", COMP_CWORD="1")
    assert answer.split() == ["plain,plan"]
