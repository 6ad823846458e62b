"""docsync: configuration as code for a documentation platform's Management API.

The Python API (docs/python-api.md): `load`, `plan`, `apply`, their results and docsync's
error types. Each is imported when first read (PEP 562), so that `import docsync` and the
command line's start never pay for the pipeline they do not use."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsync.api.errors import ApiError as ApiError
    from docsync.api.errors import ConfigError as ConfigError
    from docsync.api.errors import Unauthorized as Unauthorized
    from docsync.core.errors import ApplyRefused as ApplyRefused
    from docsync.core.errors import PlanError as PlanError
    from docsync.errors import DocsyncError as DocsyncError
    from docsync.manifest.problems import ManifestError as ManifestError
    from docsync.policies import PolicyDenied as PolicyDenied
    from docsync.python_api import ActionOutcome as ActionOutcome
    from docsync.python_api import ApplyResult as ApplyResult
    from docsync.python_api import Manifests as Manifests
    from docsync.python_api import Plan as Plan
    from docsync.python_api import apply as apply
    from docsync.python_api import load as load
    from docsync.python_api import plan as plan

#: The release this code is (docsync.version.release): looked up when first read, so that a
#: command that never prints it never pays for reading the distribution's metadata.
__version__: str

#: Each public name, and the module it is read from when first used.
_PUBLIC = {
    "load": "docsync.python_api",
    "plan": "docsync.python_api",
    "apply": "docsync.python_api",
    "Manifests": "docsync.python_api",
    "Plan": "docsync.python_api",
    "ApplyResult": "docsync.python_api",
    "ActionOutcome": "docsync.python_api",
    "DocsyncError": "docsync.errors",
    "ManifestError": "docsync.manifest.problems",
    "ApiError": "docsync.api.errors",
    "ConfigError": "docsync.api.errors",
    "Unauthorized": "docsync.api.errors",
    "PlanError": "docsync.core.errors",
    "ApplyRefused": "docsync.core.errors",
    "PolicyDenied": "docsync.policies",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name == "__version__":
        from docsync.version import release

        return release()
    if name in _PUBLIC:
        value = getattr(import_module(_PUBLIC[name]), name)
        globals()[name] = value  # read once
        return value
    raise AttributeError(f"module 'docsync' has no attribute {name!r}")


def __dir__() -> list[str]:
    return [*__all__, "__version__"]
