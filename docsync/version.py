"""`docsync --version`: the release and the commit it was built from.

A checkout knows its commit from git; an install from a git URL (`pip install
"docsync-iac @ git+https://...@<commit>"`) finds it in the `direct_url.json` pip records. Anywhere
else the commit is unknown, which is said rather than guessed, and never an error.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from docsync import __version__

DISTRIBUTION = "docsync-iac"


def _commit_from_checkout() -> str | None:
    """The commit of the checkout docsync runs from; None when its source is not one.

    The top of the work tree must be the directory holding the `docsync` package: a docsync
    installed into a virtual environment inside some other repository is not that repository.
    """
    source = Path(__file__).resolve().parent.parent
    if not (source / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(source), "describe", "--always", "--dirty", "--abbrev=12"],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def _commit_from_install() -> str | None:
    """The commit pip installed from, when it installed from a git URL."""
    from importlib import metadata

    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if not text:
        return None
    try:
        commit = json.loads(text).get("vcs_info", {}).get("commit_id")
    except (ValueError, AttributeError):
        return None
    return commit[:12] if isinstance(commit, str) and commit else None


def version_line() -> str:
    """`docsync 0.1.0 (commit 5f7ecea01234)`, or `(commit unknown)`."""
    commit = _commit_from_checkout() or _commit_from_install() or "unknown"
    return f"docsync {__version__} (distribution {DISTRIBUTION}, commit {commit})"
