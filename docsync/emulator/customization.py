"""A site's customization settings as production answers them for a site nobody customized.

The published-content answer (`GET .../sites/{siteId}/published`) carries them for the site and
each site space: production's `SiteCustomizationSettings` requires every group below, and these are
the platform's defaults (theme clean, light/dark by system, no announcement, trademark shown).
"""

from __future__ import annotations

import copy
from typing import Any

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
