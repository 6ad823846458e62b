"""GitOps test helpers: the seeded organization, the CLI in-process (tests/kit.py), golden files
that survive random ids and timestamps (tests/golden.py)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import Result

from docsync.emulator.app import collect_routes
from tests import kit
from tests.emulator_harness import SEED as EXAMPLE_SEED
from tests.emulator_harness import EmulatorHandle
from tests.golden import golden_files, stable

HERE = Path(__file__).resolve().parent
MANIFESTS = HERE / "manifests"
GOLDEN = HERE / "golden"
SEED: dict[str, Any] = yaml.safe_load((HERE / "seed.yaml").read_text("utf-8"))
TOKEN = kit.TOKEN
#: The SAML certificate of before.yaml and after.yaml (read through env()): never printed.
CERT_BEFORE = "MIIC-gitops-certificate-before-0123456789"
CERT_AFTER = "MIIC-gitops-certificate-after-9876543210"

#: Whether the emulator answers GET /v1/user (who the token is): the lockout guards need it.
HAS_ME = any(getattr(route, "path", None) == "/v1/user" for route in collect_routes())
NO_ME = (
    "the emulator has no GET /v1/user (production: getAuthenticatedUser), so docsync cannot "
    "tell which member holds the token"
)

Cli = Callable[..., Result]

#: check_golden(name, text): text with ids, timestamps and version made stable (tests.golden)
#: against golden/<name>; DOCSYNC_UPDATE_GOLDEN=1 rewrites it instead.
check_golden = golden_files(GOLDEN, stable)
normalize = stable  # the name test_golden.py's docstring gives it


def cli_env(emulator: EmulatorHandle, **extra: str) -> dict[str, str]:
    """tests.kit's environment, with the certificate of after.yaml."""
    return kit.cli_env(emulator, **{"SAML_CERT": CERT_AFTER, **extra})


def invoke(
    emulator: EmulatorHandle, *args: str | Path, env: dict[str, str] | None = None
) -> Result:
    """The CLI in-process (real HTTP to the emulator); stdout and stderr kept apart."""
    return kit.invoke(cli_env(emulator, **(env or {})), *args)


def reset(emulator: EmulatorHandle, **org_extra: Any) -> None:
    """The GitOps seed, with extra organization fields (sso: true...) when given."""
    seed = copy.deepcopy(SEED)
    seed["organizations"][0].update(org_extra)
    emulator.reset(seed)


@pytest.fixture
def acme(emulator: EmulatorHandle) -> EmulatorHandle:
    """The emulator reset to tests/gitops/seed.yaml (fixed ids for teams, collections, spaces)."""
    reset(emulator)
    return emulator


#: the staging organization of the environment tests, beside the example seed's org_acme
STAGING = "org_acme_staging"


@pytest.fixture
def staging_and_production(emulator: EmulatorHandle) -> EmulatorHandle:
    """The example seed and a second organization, org_acme_staging, with the same people and
    the same live space (org_acme stands for production)."""
    seed = yaml.safe_load(EXAMPLE_SEED.read_text("utf-8"))
    (production,) = [o for o in seed["organizations"] if o["id"] == "org_acme"]
    seed["organizations"].append({**production, "id": STAGING, "title": "Acme (staging)"})
    spaces = [s for s in seed["spaces"] if s["organization"] == "org_acme"]
    seed["spaces"] += [{**s, "id": f"{s['id']}_staging", "organization": STAGING} for s in spaces]
    emulator.reset(seed)
    return emulator


@pytest.fixture
def cli(acme: EmulatorHandle) -> Cli:
    """cli(*args, env=None) -> Result against the seeded emulator."""

    def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
        return invoke(acme, *args, env=env)

    return run


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Run in an empty temporary directory: manifest locations and --out files are relative."""
    monkeypatch.chdir(tmp_path)
    yield tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def build_golden_state(emulator: EmulatorHandle) -> None:
    """The live state of the golden plan: before.yaml applied, then space_scratch binned."""
    reset(emulator)
    result = invoke(
        emulator,
        "apply",
        MANIFESTS / "before.yaml",
        "--auto-approve",
        env={"SAML_CERT": CERT_BEFORE},
    )
    assert result.exit_code == 0, result.output
    with emulator.client() as client:
        assert client.delete("/v1/spaces/space_scratch").status_code == 205
