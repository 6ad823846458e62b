"""Base URL and token resolution: the HTTPS rule, `/v1` stripping, token hygiene."""

from __future__ import annotations

import pytest

from docsync.api import ApiClient, ConfigError
from docsync.api.config import (
    is_loopback,
    normalize_base_url,
    resolve_api_url,
    resolve_token,
)
from tests.api.apikit import TOKEN


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://api.gitbook.com", "https://api.gitbook.com"),
        ("https://api.gitbook.com/v1", "https://api.gitbook.com"),
        ("https://api.gitbook.com/v1/", "https://api.gitbook.com"),
        ("  https://proxy.example/gitbook/v1  ", "https://proxy.example/gitbook"),
        ("http://127.0.0.1:8719", "http://127.0.0.1:8719"),
        ("http://127.9.8.7:8719/v1", "http://127.9.8.7:8719"),
        ("http://localhost:8719/", "http://localhost:8719"),
        ("http://LOCALHOST", "http://LOCALHOST"),
        ("http://[::1]:8719", "http://[::1]:8719"),
    ],
)
def test_accepted_base_urls_are_normalized(url: str, expected: str) -> None:
    assert normalize_base_url(url) == expected


@pytest.mark.parametrize(
    ("url", "complaint"),
    [
        ("http://api.gitbook.com", "plain http"),
        ("http://10.0.0.5:8719", "plain http"),
        ("http://localhost.evil.example", "plain http"),
        ("http://app.localhost", "plain http"),
        ("http://[::2]:80", "plain http"),
        ("ftp://127.0.0.1", "absolute http"),
        ("api.gitbook.com", "absolute http"),
        ("https://", "absolute http"),
        ("https://user:pw@api.gitbook.com", "credentials"),
        ("https://api.gitbook.com/?x=1", "query string"),
        ("http://127.0.0.1:99999", "not a valid URL"),
        ("http://[::1", "not a valid URL"),
    ],
)
def test_refused_base_urls_say_why(url: str, complaint: str) -> None:
    with pytest.raises(ConfigError, match=complaint):
        normalize_base_url(url)
    with pytest.raises(ConfigError):
        ApiClient(url, TOKEN)


def test_credentials_in_a_url_are_not_echoed() -> None:
    with pytest.raises(ConfigError) as caught:
        normalize_base_url("https://ada:hunter2@api.gitbook.com")
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.255.0.1", True), ("::1", True), ("localhost", True),
     ("localhost.", True), ("128.0.0.1", False), ("example.com", False), ("0.0.0.0", False)],
)  # fmt: skip
def test_loopback_hosts(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_url_precedence_option_then_environment_then_default() -> None:
    env = {"DOCSYNC_API_URL": "http://127.0.0.1:1/v1"}
    assert resolve_api_url("https://a.example", env) == "https://a.example"
    assert resolve_api_url(None, env) == "http://127.0.0.1:1"
    assert resolve_api_url(None, {}) == "https://api.gitbook.com"


@pytest.mark.parametrize("empty", ["", "  ", "\t"])
def test_an_empty_url_is_refused_naming_where_it_came_from(empty: str) -> None:
    # A CI variable unset in one environment must not send that job to production.
    with pytest.raises(
        ConfigError, match=r"^DOCSYNC_API_URL is empty: .*unset it to use production"
    ):
        resolve_api_url(None, {"DOCSYNC_API_URL": empty})
    with pytest.raises(ConfigError, match=r"^--api-url is empty: .*leave it out to use production"):
        resolve_api_url(empty, {"DOCSYNC_API_URL": "https://a.example"})
    with pytest.raises(ConfigError, match=r"^api_url is empty"):
        resolve_api_url(empty, {}, given_as="api_url")


def test_a_malformed_url_names_the_variable_it_came_from() -> None:
    with pytest.raises(
        ConfigError, match=r"^DOCSYNC_API_URL 'api\.gitbook\.com' must be an absolute"
    ):
        resolve_api_url(None, {"DOCSYNC_API_URL": "api.gitbook.com"})
    with pytest.raises(ConfigError, match=r"^--api-url 'ftp://x' must be an absolute"):
        resolve_api_url("ftp://x", {})


@pytest.mark.parametrize("bad", ["", "   ", "tok en", "tok\x00en", "tökén"])
def test_unusable_tokens_are_refused_without_being_shown(bad: str) -> None:
    with pytest.raises(ConfigError, match="DOCSYNC_TOKEN") as caught:
        resolve_token({"DOCSYNC_TOKEN": bad})
    if bad.strip():
        assert bad.strip() not in str(caught.value)


def test_the_token_comes_from_the_environment_stripped() -> None:
    assert resolve_token({"DOCSYNC_TOKEN": f"\t{TOKEN}\n"}) == TOKEN
    with pytest.raises(ConfigError, match="not set"):
        resolve_token({})
