"""Sites, their sections, section groups, site spaces, publishing and structure (sites helper)."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
