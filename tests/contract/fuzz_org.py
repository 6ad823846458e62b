"""The organization the contract fuzzer starts from: one of each resource the emulator serves.

Generated requests name resources by ids they draw or learn from earlier answers; with one of
each resource there already, the first requests of each operation reach real resources instead
of 404s. Each kind says the requests that make its own (`Seed`, in its module), read off the
catalogue in its order, so that a seed may name the ids its referents' seeds were answered.
"""

from __future__ import annotations

import re
from typing import Any

from tests.contract import declared

ORGANIZATION = "org_acme"
#: `"{name}"`: the id a seed of that name was answered
_NAMED = re.compile(r"^\{(\w+)\}$")


class _Api:
    """Calls that must succeed: a refusal stops the run with the request and the answer."""

    def __init__(self, client: Any, base: str, token: str) -> None:
        self.client = client
        self.base = base
        self.headers = {"Authorization": f"Bearer {token}"}

    def __call__(self, method: str, path: str, body: Any = None) -> Any:
        response = self.client.request(method, self.base + path, json=body, headers=self.headers)
        if response.status_code >= 300:
            raise RuntimeError(
                f"fuzz organization: {method} {path} answered {response.status_code}: "
                f"{response.text[:300]}"
            )
        return response.json() if response.content else None


def _filled(value: Any, ids: dict[str, str]) -> Any:
    """A seed's body with each text `"{name}"` the id it names."""
    if isinstance(value, dict):
        return {key: _filled(item, ids) for key, item in value.items()}
    if isinstance(value, list):
        return [_filled(item, ids) for item in value]
    named = _NAMED.match(value) if isinstance(value, str) else None
    return ids[named.group(1)] if named else value


def populate(client: Any, base: str, token: str) -> None:
    """Create the fuzzer's organization in the emulator behind `client` (a requests session)."""
    api = _Api(client, base, token)
    ids = {"org": ORGANIZATION}
    for kind, seed in declared.seeds():
        try:
            answer = api(seed.method, seed.path.format_map(ids), _filled(seed.body, ids))
        except KeyError as missing:
            raise RuntimeError(f"{kind}'s seed names {missing}, made by no seed before") from None
        if seed.name:
            ids[seed.name] = str(answer["id"])
