"""`docsync --version`: the release and the commit it was built from.

The release is the version of the distribution this code was installed as (its metadata), or,
in a checkout, the version its `pyproject.toml` says (an editable install's metadata keeps the
version of the day it was installed). A checkout knows its commit from git; an install from a
git URL (`pip install "docsync-iac @ git+https://...@v0.2.0"`) finds it in the `direct_url.json`
pip records. Anything else is unknown, which is said rather than guessed, and never an error:
a copy of the package beside another docsync-iac install is not that install.
"""

from __future__ import annotations

import json
import subprocess
import tomllib
from functools import cache
from importlib.metadata import Distribution
from pathlib import Path

DISTRIBUTION = "docsync-iac"
#: the directory holding the `docsync` package: a checkout's top, or site-packages
_SOURCE = Path(__file__).resolve().parent.parent


@cache
def release() -> str:
    """`0.2.0`: this code's version, or `unknown`."""
    dist = _this_distribution()
    return _checkout_version() or (dist.version if dist is not None else None) or "unknown"


def _checkout_version() -> str | None:
    """The version of the pyproject.toml beside the package, when it is docsync-iac's."""
    try:
        project = tomllib.loads((_SOURCE / "pyproject.toml").read_text("utf-8"))["project"]
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError, TypeError):
        return None
    if not isinstance(project, dict) or project.get("name") != DISTRIBUTION:
        return None
    version = project.get("version")
    return version if isinstance(version, str) and version else None


def _this_distribution() -> Distribution | None:
    """The installed docsync-iac, when its files are the ones running (not another copy)."""
    from importlib import metadata

    try:
        dist = metadata.distribution(DISTRIBUTION)
        where = Path(str(dist.locate_file("docsync/__init__.py"))).resolve()
    except (metadata.PackageNotFoundError, OSError, ValueError):
        return None
    return dist if where == Path(__file__).resolve().parent / "__init__.py" else None


def _commit_from_checkout() -> str | None:
    """The commit of the checkout docsync runs from; None when its source is not one.

    The top of the work tree must be the directory holding the `docsync` package: a docsync
    installed into a virtual environment inside some other repository is not that repository.
    """
    if not (_SOURCE / ".git").exists():
        return None
    try:
        # --exclude: a hash even on a tagged commit, where describe would say the tag alone
        describe = ["describe", "--always", "--dirty", "--abbrev=12", "--exclude", "*"]
        done = subprocess.run(
            ["git", "-C", str(_SOURCE), *describe],
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
    """The commit pip installed this distribution from, when it installed from a git URL."""
    dist = _this_distribution()
    text = dist.read_text("direct_url.json") if dist is not None else None
    if not text:
        return None
    try:
        commit = json.loads(text).get("vcs_info", {}).get("commit_id")
    except (ValueError, AttributeError):
        return None
    return commit[:12] if isinstance(commit, str) and commit else None


def version_line() -> str:
    """`docsync 0.2.0 (distribution docsync-iac, commit 5f7ecea01234)`, or `commit unknown`."""
    commit = _commit_from_checkout() or _commit_from_install() or "unknown"
    return f"docsync {release()} (distribution {DISTRIBUTION}, commit {commit})"
