"""A plan as big as a migration, built without a server, for the tests of the comment budget
(the renderer, and the CI example's comment step)."""

from __future__ import annotations

from docsync.core.model import Action, FieldChange, Kept, Plan
from docsync.kinds.access.grant_writes import grant_address

#: a manifest change as big as a migration: 3,000 actions, 150 of them risky, 60 grants
KINDS = {("create", "space"): 2_430, ("update", "team"): 360, ("delete", "space"): 120}


def migration() -> Plan:
    actions = []
    for (verb, kind), count in KINDS.items():
        for i in range(count):
            title = f"{kind.title()} {i:05}"
            changes = [
                FieldChange("title", None if verb == "create" else title, title),
                FieldChange("description", "was", f"{title}, described at some length"),
                FieldChange("emoji", None, "1f4d8"),
            ]
            location = f"content.yaml:{i + 4}:5"
            actions.append(Action(verb, kind, f'{kind}["{title}"]', changes, location))  # type: ignore[arg-type]
    for i in range(30):
        actions.append(
            Action(
                "unpublish", "site", f'site["Site {i:03}"]', [FieldChange("published", True, False)]
            )
        )
        actions[-1].audience_change = True
    for i in range(60):  # 20 resources, 3 grants each: 20 access tables
        resource = f'space["Space {i // 3:05}"]'
        address = grant_address(resource, "team", f"Team {i % 3}")
        actions.append(Action("create", "grant", address, [FieldChange("role", None, "read")]))
    plan = Plan("org_acme", actions)
    plan.kept = [
        Kept(
            "grant",
            f'space["Space {i:05}"]',
            grant_address(f'space["Space {i:05}"]', "member", "ada@acme.example"),
            "admin",
        )
        for i in range(20)
    ]
    return plan
