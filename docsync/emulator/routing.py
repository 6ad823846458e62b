"""A Starlette router that tries only the routes a path can match, not all ~90 of them in turn.

Starlette's router matches every route's regex in order until one matches; for the emulator that
is about 35 regexes per request. A route whose parameters match within one path segment (every
convertor but `path`) can only match a path of as many segments, and one whose last segment is
literal only a path ending in it. The index keeps, for each (segments, last segment) and for each
number of segments, the routes that can match, in their original order: the first full or
partial match among them is the one Starlette would find. A path none of them matches goes to
Starlette's own scan (its 405, trailing-slash redirect and 404 stay as they are).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from starlette.convertors import PathConvertor
from starlette.routing import BaseRoute, Match, Route, Router
from starlette.types import Receive, Scope, Send

Key = tuple[int, str | None]  # (number of "/" in the path, literal last segment or None)


def _key(route: BaseRoute) -> Key | None:
    """Where a route goes in the index; None for one that may match any path."""
    if not isinstance(route, Route) or any(
        isinstance(c, PathConvertor) for c in route.param_convertors.values()
    ):
        return None
    last = route.path.rsplit("/", 1)[-1]
    return route.path.count("/"), None if "{" in last else last


class IndexedRouter(Router):
    """`Router` whose HTTP dispatch looks routes up by the shape of the path first."""

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        super().__init__(list(routes))
        keys = [_key(route) for route in self.routes]
        anywhere = [i for i, key in enumerate(keys) if key is None]
        literal: dict[Key, list[int]] = defaultdict(list)
        wild: dict[int, list[int]] = defaultdict(list)
        for i, key in enumerate(keys):
            if key is not None:
                (literal[key] if key[1] is not None else wild[key[0]]).append(i)
        self._anywhere = [self.routes[i] for i in anywhere]
        self._wild = {n: self._pick(found + anywhere) for n, found in wild.items()}
        self._literal = {
            key: self._pick(found + wild.get(key[0], []) + anywhere)
            for key, found in literal.items()
        }

    def _pick(self, indexes: list[int]) -> list[BaseRoute]:
        return [self.routes[i] for i in sorted(set(indexes))]

    def candidates(self, path: str) -> list[BaseRoute]:
        """The routes that may match `path`, in the router's order."""
        slashes = path.count("/")
        found = self._literal.get((slashes, path.rsplit("/", 1)[-1]))
        if found is None:
            found = self._wild.get(slashes, self._anywhere)
        return found

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("root_path"):
            await super().app(scope, receive, send)
            return
        scope.setdefault("router", self)
        partial: tuple[BaseRoute, Scope] | None = None
        for route in self.candidates(scope["path"]):
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                scope["route"] = route
                scope.update(child_scope)
                await route.handle(scope, receive, send)
                return
            if match is Match.PARTIAL and partial is None:
                partial = route, child_scope
        if partial is not None:
            route, child_scope = partial
            scope["route"] = route
            scope.update(child_scope)
            await route.handle(scope, receive, send)
            return
        await super().app(scope, receive, send)
