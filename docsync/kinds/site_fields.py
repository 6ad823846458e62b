"""A site's own fields as a manifest writes them and as they compare: their types, the proxy's
pattern and how a live proxy reads back."""

from __future__ import annotations

from typing import Any, Literal

from docsync.core.entries import Model, explained


def dump_all(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else value


def proxy_of(raw: dict[str, Any]) -> Any:
    """Written as `host/path`, read back as `{origin, target}`: compare the origin's host/path."""
    proxy = raw.get("proxy")
    origin = proxy.get("origin") if isinstance(proxy, dict) else proxy
    if not origin:
        return None
    text = str(origin).split("://", 1)[-1].rstrip("/")
    host, _, rest = text.partition("/")
    return f"{host.lower()}/{rest}" if rest else host.lower()


Visibility = Literal["public", "unlisted", "share-link", "visitor-auth"]
SiteType = Literal["basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"]
PROXY_PATTERN = explained(
    r"^([A-Za-z0-9_-]+[.])*[A-Za-z0-9_-]+[.][a-zA-Z]{2,}(/[A-Za-z0-9_-]+)+$",
    "must be a host and path without a scheme, like 'acme.example/docs'",
)


class AdaptiveContent(Model):
    enabled: bool
