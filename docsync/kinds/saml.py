"""SAML single sign-on providers, keyed by label; `defaultTeam` names a team."""

from __future__ import annotations

from typing import Any

from docsync.kinds.base import CrudKind, Field


def _team_id(raw: dict[str, Any]) -> Any:
    # Written as a team id, read back as a whole Team object.
    team = raw.get("defaultTeam")
    return team.get("id") if isinstance(team, dict) else team


class SamlKind(CrudKind):
    name = "saml"
    section = "saml"
    key_field = "label"
    list_path = "/v1/orgs/{org}/saml"
    fields = (
        Field("label"),
        Field("ssoURL"),
        Field("entityID"),
        Field("certificate", sensitive=True, normalize=lambda v: v.strip() if v else v),
        Field("defaultTeam", ref="team", live=_team_id),
        Field("defaultRole"),
    )
