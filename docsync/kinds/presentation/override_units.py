"""A site space's override units: production's `overrideSiteSpaceCustomizationById` takes a
site's customization in units (`styling.primaryColor` whole, not its `light` alone); what a
site space overrides is compared and written unit by unit."""

from __future__ import annotations

import copy
from typing import Any

from docsync.core.paths import value_at
from docsync.kinds.partial import Leaf, merged

_STYLING = dict.fromkeys(
    (
        "theme",
        "primaryColor",
        "infoColor",
        "successColor",
        "warningColor",
        "dangerColor",
        "tint",
        "corners",
        "depth",
        "links",
        "icons",
        "search",
        "background",
    )
) | {
    "sidebar": dict.fromkeys(("background", "list")),
    "codeTheme": dict.fromkeys(("default", "openapi")),
}
#: production's overrideSiteSpaceCustomizationById body: a mapping is walked, None is one value
UNITS: dict[str, Any] = {
    "title": None,
    "localizedTitle": None,
    "styling": _STYLING,
    "internationalization": {"locale": None},
    "favicon": None,
    "announcement": None,
    "header": dict.fromkeys(
        ("preset", "logo", "primaryLink", "backgroundColor", "linkColor", "links")
    ),
    "footer": dict.fromkeys(("logo", "groups", "copyright")),
    "themes": dict.fromkeys(("default", "toggeable")),
    "feedback": {"enabled": None},
    "externalLinks": {"target": None},
    "pagination": {"enabled": None},
    "trademark": {"enabled": None},
    "privacyPolicy": {"url": None},
    "socialPreview": {"url": None},
}


def unit_of(path: Leaf) -> Leaf | None:
    """The override unit `path` lies in (itself or a parent), or None when production has no
    override for it (a group as a whole, or a field the PATCH does not take)."""
    node: Any = UNITS
    for depth, part in enumerate(path):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
        if node is None:
            return path[: depth + 1]
    return None


def units() -> list[Leaf]:
    """Every override unit's path."""

    def walk(node: dict[str, Any], prefix: Leaf) -> list[Leaf]:
        found: list[Leaf] = []
        for name, child in node.items():
            path = (*prefix, name)
            found += walk(child, path) if isinstance(child, dict) else [path]
        return found

    return walk(UNITS, ())


def overrides(effective: dict[str, Any], site: dict[str, Any]) -> dict[Leaf, Any]:
    """The units where a site space's effective settings differ from its site's."""
    return {
        path: value_at(effective, path)
        for path in units()
        if value_at(effective, path) != value_at(site, path)
    }


def body(effective: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """The PATCH body: each written unit whole, a field below a unit merged into its effective
    value (`styling.primaryColor.light` keeps the live `dark`), None unsetting the unit."""
    out: dict[str, Any] = {}
    for dotted, value in fields.items():
        path = tuple(dotted.split("."))
        unit = unit_of(path)
        assert unit is not None, f"{dotted} was checked when planned"
        if value is None or unit == path:
            whole = value
        else:
            current = value_at(out, unit)
            if current is None:
                current = copy.deepcopy(value_at(effective, unit))
            base = current if isinstance(current, dict) else {}
            whole = merged(base, {".".join(path[len(unit) :]): value})
        node = out
        for part in unit[:-1]:
            node = node.setdefault(part, {})
        node[unit[-1]] = whole
    return out
