"""Route templates of request paths (`GET /v1/orgs/{organizationId}/teams`), to count requests
by kind of call: the figure a reviewer compares with what a plan should cost.

The segment after a list's name is an id, named as the API description names it. The kinds
give their lists' names (`Routes.id_name`, added by the planner when it starts reading); the
ones below belong to no kind docsync declares."""

from __future__ import annotations

from collections.abc import Mapping

#: A list's name -> the name of the id that follows it in a path, for lists of no kind.
API_IDS = {
    "users": "userId",
    "versions": "version",
}


#: paths whose templates a client remembers (a path is usually asked for again at once)
_REMEMBERED = 4096


class RouteNames:
    """What a client names the routes of its requests by; a path's template is worked out once."""

    def __init__(self) -> None:
        self._ids = dict(API_IDS)
        self._templates: dict[str, str] = {}

    def add(self, ids: Mapping[str, str]) -> None:
        """More lists' names (`{"teams": "teamId"}`)."""
        if any(self._ids.get(name) != id_name for name, id_name in ids.items()):
            self._ids.update(ids)
            self._templates.clear()

    def template(self, path: str) -> str:
        """`/v1/orgs/acme/teams/a` -> `/v1/orgs/{organizationId}/teams/{teamId}`; query strings
        are dropped."""
        found = self._templates.get(path)
        if found is None:
            if len(self._templates) >= _REMEMBERED:
                self._templates.clear()
            found = self._templates[path] = self._template(path)
        return found

    def _template(self, path: str) -> str:
        segments = path.split("?", 1)[0].split("/")
        out: list[str] = []
        expect_id: str | None = None
        for segment in segments:
            if expect_id is not None and segment:
                out.append("{" + expect_id + "}")
                expect_id = None
                continue
            out.append(segment)
            expect_id = self._ids.get(segment) if len(out) > 2 else None
        return "/".join(out)

    def call_kind(self, method: str, path: str) -> str:
        """`METHOD /route/{template}`: the key requests are counted by."""
        return f"{method.upper()} {self.template(path)}"
