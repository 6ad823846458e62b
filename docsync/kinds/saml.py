"""SAML single sign-on providers, keyed by label; `defaultTeam` names a team."""

from __future__ import annotations

from docsync.core.catalogue import SAML
from docsync.kinds.base import CrudKind


class SamlKind(CrudKind):
    declaration = SAML
    list_path = "/v1/orgs/{org}/saml"
