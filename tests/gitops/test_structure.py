"""The site structure picture of the Markdown plan: which sites get one, and how changed lines
are marked (the golden plan shows a whole one, tests/gitops/golden/plan.md)."""

from __future__ import annotations

from pathlib import Path

from docsync.core.model import Action, Picture, Plan
from docsync.kinds.catalogue import KINDS
from docsync.kinds.nested.kind import every_nested_kind
from docsync.kinds.sites.picture import changed_sites
from docsync.render.markdown import render_markdown
from tests.gitops.conftest import Cli, write


def test_sites_with_a_structure_change_get_a_picture() -> None:
    actions = [
        Action("update", "site", 'site["A"]'),  # a site field: no picture
        Action("create", "section", 'site["B"].section["S"]'),
        Action("reorder", "site", 'site["C"]'),
        Action("delete", "site_space", 'site["B"].section["S"].site_space["x"]'),
        Action("update", "section_group", 'site["D.E"].section_group["G"]'),
    ]
    assert changed_sites(actions, KINDS) == ['site["B"]', 'site["C"]', 'site["D.E"]']


def test_every_kind_nested_under_a_site_changes_its_structure() -> None:
    """Which kinds are parts of a site's structure comes from the catalogue, not a list."""
    for kind in every_nested_kind(KINDS):
        action = Action("delete", kind.name, f'site["Docs"].{kind.name}["x"]')
        assert changed_sites([action], KINDS) == ['site["Docs"]'], kind.name


def test_changed_lines_are_marked_on_each_side() -> None:
    plan = Plan("org_acme", [Action("reorder", "site", 'site["A"]')])
    plan.structures = [
        Picture(
            'site["A"]',
            ['site["A"]', '  section "One"  (default)', '  section "Two"', "  x"],
            ['site["A"]', '  section "One"', '  section "Two"  (default)', "  x"],
        ),
        Picture('site["New"]', [], ['site["New"]', '  section "X"']),
    ]
    text = render_markdown(plan)
    before = '  site["A"]\n-   section "One"  (default)\n-   section "Two"\n    x\n```'
    after = '  site["A"]\n+   section "One"\n+   section "Two"  (default)\n    x\n```'
    assert before in text and after in text
    assert "_(a new site)_" in text and '+   section "X"' in text
    assert text.index("#### Site structure") < text.index("#### Actions")


def test_a_site_whose_structure_stays_has_no_picture(cli: Cli, tmp_path: Path) -> None:
    path = write(
        tmp_path / "s.yaml",
        "organization: org_acme\nsites:\n  - {title: Docs, visibility: public}\n",
    )
    result = cli("plan", path, "--format", "markdown")
    assert result.exit_code == 0, result.output
    assert "Site structure" not in result.stdout
