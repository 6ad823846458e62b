"""The drawings a plan shows beside its actions (a site's navigation before and after), made
once the plan is made, by the kinds whose actions they draw (`Kind.pictures`), from the states
the plan was made from; a plan read back from a file carries them already."""

from __future__ import annotations

from docsync.core.model import Picture, Plan
from docsync.kinds.catalogue import KINDS


def structures(plan: Plan) -> list[Picture]:
    """The plan's drawings: those it carries, else the kinds' for its actions (then kept)."""
    if plan.structures or plan.made_from is None:
        return plan.structures
    plan.structures = [
        picture for kind in KINDS for picture in kind.pictures(plan.made_from, plan.actions)
    ]
    return plan.structures
