"""docsync's offline checks of a site's context connections and channels, held to production's
document (their kinds say these setups are docsync's own checks: `OWN_CHECK`, `SHAPE`).

- Every setup production's ContextConnectorSetup declares is in docsync/kinds/assistant/
  connectors.py with the same settings, the same required ones and the same limits, and no other;
  every setting production says is redacted when read back is a secret there.
- A connection's create, as docsync sends it (`connection_changes.create_body` of a valid
  entry), is accepted by production's schema, for every connector; one required setting left
  out, both refuse it; usage and filter as production checks them.
- Every channel type of production's SiteChannelSetup takes the one list docsync's model and
  check say, each item of production's pattern.
"""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds import CATALOGUE
from docsync.kinds.assistant.channels import ALLOWED
from docsync.kinds.assistant.connection_changes import create_body
from docsync.kinds.assistant.connectors import (
    BARE,
    CONNECTORS,
    INTEGRATION_PATTERN,
    SECRETS,
    Text,
    check_setup,
)
from tests.contract.checker import Contract
from tests.contract.document import require_spec

CONNECTIONS = "/v1/orgs/o/sites/s/context-connections"
#: a valid setup of each connector that takes settings
VALID: dict[str, dict[str, Any]] = {
    "builtin:website": {"url": "https://status.acme.example"},
    "builtin:youtube": {"channelId": "@acme-docs"},
    "builtin:github-discussions": {"repository": "acme/docs", "token": "t"},
    "builtin:github-issues": {"repository": "acme/docs", "token": "t"},
    "builtin:intercom": {"token": "t"},
    "builtin:front": {"token": "t"},
    "builtin:zendesk": {"subdomain": "acme", "email": "ops@acme.example", "apiToken": "t"},
    "builtin:zoho-desk": {
        "dataCenter": "eu",
        "orgId": "1",
        "clientId": "c",
        "clientSecret": "s",
        "refreshToken": "r",
    },
    "builtin:freshdesk": {"domain": "acme", "apiKey": "k"},
    "builtin:pylon": {"token": "t"},
    "builtin:hubspot": {"token": "t"},
    "builtin:linear": {"token": "t"},
    "builtin:jira": {
        "baseUrl": "https://acme.atlassian.net",
        "apiEmail": "ops@acme.example",
        "apiToken": "t",
        "statusMapping": {"merged": "Done"},
    },
}
USAGE = {"changeRequests": True, "search": False, "sync": True, "searchBoost": "x0.8"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return require_spec()


@pytest.fixture(scope="module")
def contract(spec: dict[str, Any]) -> Contract:
    return Contract(spec, strict=True)


def _branches(spec: dict[str, Any], name: str) -> list[dict[str, Any]]:
    branches: list[dict[str, Any]] = spec["components"]["schemas"][name]["oneOf"]
    return branches


def _resolved(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = spec["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def test_every_connector_of_production_is_docsync_s_with_its_settings(spec: dict[str, Any]) -> None:
    seen: set[str] = set()
    for branch in _branches(spec, "ContextConnectorSetup"):
        connector = branch["properties"]["connector"]
        if "enum" not in connector:
            assert connector["pattern"] == INTEGRATION_PATTERN
            continue
        (name,) = connector["enum"]
        seen.add(name)
        settings = branch["properties"].get("setupSettings")
        if settings is None:
            assert name in BARE, f"{name} takes no settings in production"
            continue
        ours = CONNECTORS[name]
        assert set(ours.settings) == set(settings["properties"]), name
        assert set(ours.required) == set(settings["required"]), name
        for setting, schema in settings["properties"].items():
            schema = _resolved(spec, schema)
            check = ours.settings[setting]
            if schema.get("type") == "string" and "oneOf" not in schema:
                assert isinstance(check, Text), (name, setting)
                assert check.min_length == schema.get("minLength", 1), (name, setting)
                assert check.max_length == schema.get("maxLength"), (name, setting)
                if "pattern" in schema:
                    assert check.pattern == schema["pattern"], (name, setting)
            redacted = "redacted when read back" in schema.get("description", "").lower()
            assert not redacted or setting in SECRETS, f"{name}.{setting} is a secret"
    assert seen == {*BARE, *CONNECTORS}


@pytest.mark.parametrize("connector", [*BARE, *VALID, "integration:google-analytics"])
def test_a_create_docsync_sends_is_one_production_takes(contract: Contract, connector: str) -> None:
    settings = VALID.get(connector)
    entry: dict[str, Any] = {"label": "Source", "connector": connector, "usageSettings": USAGE}
    entry |= {"filter": "tag:docs"} | ({"setupSettings": settings} if settings else {})
    assert check_setup(connector, settings, ()) == []
    CATALOGUE.named("context_connection").entry.model_validate(entry)  # type: ignore[union-attr]
    assert contract.accepts("POST", CONNECTIONS, create_body(entry))
    for required in CONNECTORS[connector].required if connector in CONNECTORS else ():
        assert settings is not None
        short = {k: v for k, v in settings.items() if k != required}
        assert check_setup(connector, short, ()) != []
        assert not contract.accepts(
            "POST", CONNECTIONS, create_body(entry | {"setupSettings": short})
        )


BROKEN: list[tuple[str, Any]] = [
    ("usageSettings", {"search": True, "searchBoost": "x1.0"}),
    ("usageSettings", {"changeRequests": True, "search": True, "searchBoost": "x2"}),
    ("filter", "x" * 1025),
]


@pytest.mark.parametrize(("field", "value"), BROKEN, ids=[f"{f} {str(v)[:20]}" for f, v in BROKEN])
def test_usage_and_filter_are_refused_where_production_refuses_them(
    contract: Contract, field: str, value: Any
) -> None:
    entry = {"label": "Mail", "connector": "builtin:email", field: value}
    model = CATALOGUE.named("context_connection").entry
    assert model is not None
    with pytest.raises(ValueError):
        model.model_validate(entry)
    assert not contract.accepts("POST", CONNECTIONS, {"connector": "builtin:email", field: value})


def test_every_channel_type_takes_the_list_docsync_says(spec: dict[str, Any]) -> None:
    model = CATALOGUE.named("channel").entry
    assert model is not None
    settings = model.model_fields["setupSettings"].annotation
    lists = settings.__args__[0].model_json_schema()["properties"]  # type: ignore[union-attr]
    seen = set()
    for branch in _branches(spec, "SiteChannelSetup"):
        (kind,) = branch["properties"]["type"]["enum"]
        setup = branch["properties"]["setupSettings"]
        assert setup["additionalProperties"] is False
        ((name, schema),) = setup["properties"].items()
        assert ALLOWED[kind] == name
        pattern = _resolved(spec, schema["items"])["pattern"]
        assert lists[name]["items"]["pattern"] == pattern
        seen.add(kind)
    assert seen == set(ALLOWED)
