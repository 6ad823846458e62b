"""The root of docsync's error tree; the CLI turns any of these into a message and exit code 1.

DocsyncError
 ├── ManifestError        (docsync.manifest: located problems in manifests)
 ├── ApiError             (docsync.api: the server answered with an error)
 │    └── OutcomeUnknown  (a write whose result is not known: never blindly retried)
 ├── PlanError            (docsync.core: the live state and the manifest cannot be reconciled)
 └── ApplyRefused         (docsync.core: a plan that must not be applied as it stands)
"""

from __future__ import annotations


class DocsyncError(Exception):
    """An error meant for the person running docsync: its message is the whole story."""

    exit_code = 1
