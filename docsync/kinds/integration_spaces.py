"""An integration installation's spaces (`integrations[].spaces`, by title or
`Collection/Space`): when written, exact; each installation there with its own configuration
(only the keys written managed). Planned under its installation (`integration_targets.py`)."""

from __future__ import annotations

from pydantic import RootModel

from docsync.core.kind import Declaration, Field
from docsync.kinds.integration_targets import SPACES, InstalledOn, InstalledOnKind
from docsync.kinds.lost import Writes


class SpaceInstallation(InstalledOn):
    """An integration installed on one space; only the configuration keys written are managed."""


class SpaceInstallations(RootModel[dict[str, SpaceInstallation | None]]):
    """The spaces an integration is installed on, each with its configuration; exact."""


INTEGRATION_SPACE = Declaration(
    SPACES.kind,
    "spaces",
    "space installation",
    key="space",
    parents=("integration",),
    mapped=True,
    exact=True,
    fields=(Field("configuration", create=False),),
    entry=SpaceInstallations,
    order=18,
)


class IntegrationSpaceKind(InstalledOnKind):
    declaration = INTEGRATION_SPACE
    level = SPACES
    #: an install, a PATCH and an uninstall are each sent again as they are (installing again
    #: where it is installed answers that installation)
    writes = (Writes(),)
