"""A site's customization settings: as production answers them for a site nobody customized,
as a site holds them, and as a site space shows them (its site's, with its override on top).

The published-content answer (`GET .../sites/{siteId}/published`) carries them for the site and
each site space: production's `SiteCustomizationSettings` requires every group below, and these are
the platform's defaults (theme clean, light/dark by system, no announcement, trademark shown).
A site holds its settings in its row (`customization`), a site space its override in its own, only
the fields overridden; the parts in `customization_shapes.MERGED` are overridden field by field.
"""

from __future__ import annotations

import copy
from typing import Any

from docsync.emulator.customization_shapes import MERGED
from docsync.emulator.http import Ctx
from docsync.emulator.store import Doc, Row

_COLOR = {"light": "#346DDB", "dark": "#346DDB"}
_CODE = {"light": "default-light", "dark": "default-dark"}

DEFAULT: dict[str, Any] = {
    "styling": {
        "theme": "clean",
        "primaryColor": dict(_COLOR),
        "infoColor": {"light": "#787878", "dark": "#787878"},
        "successColor": {"light": "#00C950", "dark": "#00C950"},
        "warningColor": {"light": "#FE9A00", "dark": "#FE9A00"},
        "dangerColor": {"light": "#FB2C36", "dark": "#FB2C36"},
        "corners": "rounded",
        "depth": "subtle",
        "links": "default",
        "font": "Inter",
        "monospaceFont": "IBMPlexMono",
        "codeTheme": {"default": dict(_CODE), "openapi": dict(_CODE)},
        "background": "plain",
        "icons": "regular",
        "sidebar": {"background": "default", "list": "default"},
        "search": "subtle",
    },
    "internationalization": {"locale": "en"},
    "favicon": {},
    "header": {"preset": "default", "links": []},
    "footer": {"groups": []},
    "themes": {"default": "system", "toggeable": True},
    "feedback": {"enabled": False},
    "ai": {"mode": "search"},
    "advancedCustomization": {"enabled": True},
    "trademark": {"enabled": True},
    "externalLinks": {"target": "self"},
    "pagination": {"enabled": True},
    "pageActions": {"items": []},
    "privacyPolicy": {},
    "socialPreview": {},
    "socialAccounts": [],
    "insights": {"trackingCookie": True},
}


#: what production answers for a site nobody customized beyond its document's groups (docs/
#: emulator.md, "Production as it answers": `customization-switches`): page actions as switches,
#: without the ordered `items` its document requires
AS_PRODUCTION_ANSWERS: dict[str, Any] = {
    "pdf": {"enabled": True},
    "git": {"showEditLink": True},
    "pageActions": {"externalAI": True, "markdown": True, "mcp": True},
}


def default_customization(production: bool = False) -> dict[str, Any]:
    """A fresh copy of the defaults (callers may fill in per-site values), as production
    answers them when `production`."""
    found = copy.deepcopy(DEFAULT)
    return found | copy.deepcopy(AS_PRODUCTION_ANSWERS) if production else found


def site_settings(ctx: Ctx, site: Row) -> Doc:
    """What a site shows: its settings as written, else production's defaults."""
    stored = site.data.get("customization")
    return dict(stored) if isinstance(stored, dict) else default_customization(ctx.production)


def effective(ctx: Ctx, site: Row, site_space: Row) -> Doc:
    """What a site space shows: its site's settings with its override on top."""
    override = site_space.data.get("customization")
    return overlaid(site_settings(ctx, site), override if isinstance(override, dict) else {})


def overlaid(base: Doc, override: Doc, path: str = "") -> Doc:
    """`base` with `override` on top; the parts in MERGED field by field."""
    out = dict(base)
    for name, value in override.items():
        where = path + name
        if where in MERGED and isinstance(base.get(name), dict):
            out[name] = overlaid(base[name], value, where + ".")
        else:
            out[name] = value
    return out


def override_of(effective: Doc, base: Doc, path: str = "") -> Doc:
    """What `overlaid` put on `base` to show `effective`: the fields that differ (the parts in
    MERGED field by field). An override equal to its site's value reads as none."""
    out: Doc = {}
    for name, value in effective.items():
        where = path + name
        if where in MERGED and isinstance(value, dict) and isinstance(base.get(name), dict):
            inner = override_of(value, base[name], where + ".")
            if inner:
                out[name] = inner
        elif base.get(name) != value:
            out[name] = value
    return out


def with_override(stored: Doc, body: Doc, path: str = "") -> Doc:
    """The stored override after a PATCH: given fields set, null ones cleared, a part of MERGED
    left out once nothing in it is overridden."""
    out = dict(stored)
    for name, value in body.items():
        where = path + name
        if value is None:
            out.pop(name, None)
        elif where in MERGED:
            merged = with_override(out.get(name) or {}, value, where + ".")
            if merged:
                out[name] = merged
            else:
                out.pop(name, None)
        else:
            out[name] = value
    return out
