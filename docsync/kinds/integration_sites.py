"""An integration installation's sites (`integrations[].sites`, by title): when written, exact;
each installation there with its own configuration (only the keys written managed). Planned
under its installation (`integration_targets.py`)."""

from __future__ import annotations

from pydantic import RootModel

from docsync.core.kind import Declaration, Field
from docsync.kinds.integration_targets import SITES, InstalledOn, InstalledOnKind
from docsync.kinds.lost import Writes


class SiteInstallation(InstalledOn):
    """An integration installed on one site; only the configuration keys written are managed."""


class SiteInstallations(RootModel[dict[str, SiteInstallation | None]]):
    """The sites an integration is installed on, each with its configuration; exact."""


INTEGRATION_SITE = Declaration(
    SITES.kind,
    "sites",
    "site installation",
    key="site",
    parents=("integration",),
    mapped=True,
    exact=True,
    fields=(Field("configuration", create=False),),
    entry=SiteInstallations,
    order=17,
)


class IntegrationSiteKind(InstalledOnKind):
    declaration = INTEGRATION_SITE
    level = SITES
    #: an install, a PATCH and an uninstall are each sent again as they are (installing again
    #: where it is installed answers that installation)
    writes = (Writes(),)
