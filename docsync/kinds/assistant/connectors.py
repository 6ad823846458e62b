"""What a site's assistant can read from: production's context connectors
(`ContextConnectorSetup`), each a `connector` and the `setupSettings` it takes, checked offline
so that `docsync validate` refuses a setup production would refuse once the site exists.

- `builtin:email` and `builtin:api` take no settings; `integration:<name>` names an integration
  installed on the organization (its settings are the integration's), and takes none either;
- every other builtin connector takes the settings of its row in `CONNECTORS`: which are
  required, and each setting's limits and pattern as production declares them. A setting
  production does not name is refused (production would drop it silently).

Tokens and keys (`SECRETS`) are secrets: never shown, and the API answers them masked, so they
are written, never compared (`context_connections.py`). `tests/contract/test_connectors.py`
holds this table to production's document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from docsync.core.paths import Path

#: the settings that are credentials, in any connector that takes them
SECRETS = ("token", "apiToken", "apiKey", "clientSecret", "refreshToken")
#: a connector that reads what an integration installed on the organization gives
INTEGRATION = "integration:"
INTEGRATION_PATTERN = r"^integration:[^:]+$"
#: production's change-request statuses, the keys of a Jira connection's `statusMapping`
STATUSES = ("draft", "open", "archived", "merged")
Found = list[tuple[Path, str]]


@dataclass(frozen=True)
class Text:
    """A setting that is text: its length and what it looks like, as production says."""

    min_length: int = 1
    max_length: int | None = None
    pattern: str | None = None
    #: what the pattern asks for, said for people
    looks_like: str = ""

    def problems(self, value: Any) -> list[str]:
        if not isinstance(value, str):
            return [f"must be text; got {type(value).__name__}"]
        found = []
        if len(value) < self.min_length:
            found.append("must not be empty")
        if self.max_length is not None and len(value) > self.max_length:
            found.append(f"must be at most {self.max_length} characters")
        if value and self.pattern is not None and not re.match(self.pattern, value):
            found.append(f"must be {self.looks_like}")
        return found


@dataclass(frozen=True)
class Mapping:
    """A setting that maps production's change-request statuses to text (Jira's statuses)."""

    max_length: int = 255

    def problems(self, value: Any) -> list[str]:
        if not isinstance(value, dict):
            return [f"must be a mapping of {', '.join(STATUSES)} to text"]
        found = []
        for key, item in value.items():
            if key not in STATUSES:
                found.append(f"{key!r} is not a change-request status ({', '.join(STATUSES)})")
            elif not isinstance(item, str) or not 1 <= len(item) <= self.max_length:
                found.append(f"{key}: must be text of 1 to {self.max_length} characters")
        return found


Setting = Text | Mapping
#: production's `format: uri` and `format: email`, said as docsync says them elsewhere
URI = Text(pattern=r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$", looks_like="an absolute URL")
EMAIL = r"^[^@\s]+@[^@\s]+$"
REPOSITORY = Text(
    pattern=r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$", looks_like="a repository as 'owner/name'"
)
TOKEN = Text()


@dataclass(frozen=True)
class Connector:
    """A builtin connector's settings, each with its check, and those a setup requires."""

    settings: dict[str, Setting]
    required: tuple[str, ...]


def _all(settings: dict[str, Setting]) -> Connector:
    return Connector(settings, tuple(settings))


#: every builtin connector that takes settings, as production declares it
CONNECTORS: dict[str, Connector] = {
    "builtin:website": _all({"url": URI}),
    "builtin:youtube": _all(
        {
            "channelId": Text(
                pattern=r"^(UC[A-Za-z0-9_-]{22}|@[A-Za-z0-9._-]{3,100})$",
                looks_like="a YouTube channel id (UC...) or handle (@name)",
            )
        }
    ),
    "builtin:github-discussions": _all({"repository": REPOSITORY, "token": TOKEN}),
    "builtin:github-issues": _all({"repository": REPOSITORY, "token": TOKEN}),
    "builtin:intercom": _all({"token": TOKEN}),
    "builtin:front": _all({"token": TOKEN}),
    "builtin:zendesk": _all({"subdomain": TOKEN, "email": TOKEN, "apiToken": TOKEN}),
    "builtin:zoho-desk": _all(
        dict.fromkeys(("dataCenter", "orgId", "clientId", "clientSecret", "refreshToken"), TOKEN)
    ),
    "builtin:freshdesk": _all({"domain": TOKEN, "apiKey": TOKEN}),
    "builtin:pylon": _all({"token": TOKEN}),
    "builtin:hubspot": _all({"token": TOKEN}),
    "builtin:linear": _all({"token": TOKEN}),
    "builtin:jira": Connector(
        {
            "baseUrl": Text(max_length=2048, pattern=URI.pattern, looks_like="an absolute URL"),
            "apiEmail": Text(max_length=254, pattern=EMAIL, looks_like="an email address"),
            "apiToken": Text(max_length=1024),
            "statusMapping": Mapping(),
        },
        ("baseUrl", "apiEmail", "apiToken"),
    ),
}
#: the builtin connectors that take no settings
BARE = ("builtin:email", "builtin:api")
CONNECTOR_PATTERN = (
    r"^(builtin:[a-z-]+|" + INTEGRATION_PATTERN.removeprefix("^").removesuffix("$") + ")$"
)


def integration_of(connector: str) -> str | None:
    """The integration an `integration:<name>` connector reads from; None for a builtin one."""
    return connector.removeprefix(INTEGRATION) if connector.startswith(INTEGRATION) else None


def check_setup(connector: Any, settings: Any, path: Path) -> Found:
    """What production would refuse in one connection's setup (`path`: its entry), as
    (path, message) pairs: an unknown connector, settings missing, unknown or malformed, or
    settings given to a connector that takes none."""
    if not isinstance(connector, str):
        return []  # the entry's model reports a connector missing or not text
    where: Path = (*path, "setupSettings")
    spec = CONNECTORS.get(connector)
    if spec is None:
        if connector in BARE or re.match(INTEGRATION_PATTERN, connector):
            if settings is not None:
                return [(where, f"{connector} takes no settings")]
            return []
        known = ", ".join([*BARE, *CONNECTORS, "integration:<name>"])
        return [((*path, "connector"), f"{connector!r} is not a connector ({known})")]
    if not isinstance(settings, dict):
        names = ", ".join(spec.required)
        return [(where, f"{connector} needs its settings: {names}")]
    found: Found = []
    for name in spec.required:
        if name not in settings:
            found.append((where, f"{connector} needs '{name}'"))
    for name, value in settings.items():
        check = spec.settings.get(str(name))
        if check is None:
            allowed = ", ".join(spec.settings)
            found.append(((*where, name), f"{connector} takes no '{name}' (it takes {allowed})"))
            continue
        found += [((*where, name), message) for message in check.problems(value)]
    return found
