"""The mistakes people make, and what docsync says to each: every message read at 2 a.m. says
what is wrong, where, and what to do; one line where one fact is wrong. A table: the files
written, the command run (after the setup commands), its exit code and its stderr, line by line
(`exact=False`: these lines among others, in this order)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from docsync.engine.saved import SAVED_FORMAT
from docsync.manifest.files import SAVED_PLAN_FORMAT
from tests.emulator_harness import EmulatorHandle
from tests.kit import cli_env, invoke

LANGUAGES = 39
RESERVED = (
    "the variable name 'env' is reserved: templates read the environment with env('NAME'); "
    "give the variable another name (stage, environment...)"
)
INCLUDE = (
    "{% include %}, {% import %} and {% extends %} cannot be used in manifests: each value (or "
    "*.yaml.j2 file) is rendered alone, with no other template to load; pass values they share "
    "with --var or --var-file"
)
MORE = "more problems; --max-problems all (or DOCSYNC_MAX_PROBLEMS=all) shows every one"
OK = "organization: org_acme\nteams: [{title: Platform}]\nspaces: [{title: Guides}]\n"
DEFAULT_SITE = """\
organization: org_acme
settings: {defaultContent: {site: Developer Docs}}
sites: [{title: Developer Docs}]
"""
THREE_TEAMS = (
    "organization: org_acme\nprune: [teams]\nteams: [{title: A}, {title: B}, {title: C}]\n"
)


def _glossary(entries: str) -> str:
    return (
        f"organization: org_acme\ntranslationsGlossary:\n  keyLanguage: en\n  entries:\n{entries}"
    )


#: a glossary entry of 2,000 unknown language keys (the report had 100,000: 100,000 lines)
UNKNOWN_KEYS = _glossary(
    "    - {en: Workspace, " + ", ".join(f"x{i}: a" for i in range(2000)) + "}\n"
)
#: 100 entries written as `term: {language: word}` instead of `{language: word}`
WRONG_SHAPE = _glossary("".join(f"    - term{i}: {{fr: a, de: b}}\n" for i in range(100)))


def _key_lines(count: int, line: int, first_column: int, step: int) -> list[str]:
    """The glossary lines of UNKNOWN_KEYS: the languages listed once, then said to be above."""
    out = []
    for i in range(count):
        column = first_column + sum(step + (len(str(n)) - 1) for n in range(i))
        said = (
            "(allowed: 'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', "
            "'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', "
            "'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', "
            "'sl')"
            if i == 0
            else f"(allowed: the {LANGUAGES} values listed above)"
        )
        out.append(
            f"a.yaml:{line}:{column}: translationsGlossary.entries[0].x{i}: not an allowed key "
            + said
        )
    return out


@dataclass(frozen=True)
class Mistake:
    files: dict[str, str]
    args: tuple[str, ...]
    code: int
    lines: tuple[str | re.Pattern[str], ...]
    env: dict[str, str] = field(default_factory=dict)
    #: commands run first, each of which must succeed
    setup: tuple[tuple[str, ...], ...] = ()
    exact: bool = True


MISTAKES: dict[str, Mistake] = {
    "an include in a template": Mistake(
        {"a.yaml": "organization: org_acme\nteams:\n  - title: \"{% include 'x.yaml' %}\"\n"},
        ("validate", "a.yaml"),
        1,
        (f"a.yaml:3:12: teams[0].title: template refused by the sandbox: {INCLUDE}",),
    ),
    "a field indented off its list item": Mistake(
        {"a.yaml": "organization: org_acme\nteams:\n  - title: A\n   members: [x]\n"},
        ("validate", "a.yaml"),
        1,
        (
            "a.yaml:4:4: not valid YAML: this line is indented unlike the list it is in (its "
            "items start with '- ' at line 3, column 3): indent it as the fields of its item, or "
            "begin a new item with '- '",
        ),
    ),
    "a tab": Mistake(
        {"a.yaml": "organization: org_acme\nteams:\n\t- title: A\n"},
        ("validate", "a.yaml"),
        1,
        (
            "a.yaml:3:1: not valid YAML: a tab character: YAML indents with spaces only; replace "
            "the tab with spaces",
        ),
    ),
    "--var env=": Mistake(
        {"a.yaml": OK},
        ("validate", "a.yaml", "--var", "env=staging"),
        2,
        (
            re.compile(r"Usage: \S+ validate \[OPTIONS\] PATH\.\.\."),  # click's usage lines
            re.compile(r"Try '\S+ validate (-h|--help)' for help\."),
            "",
            f"Error: Invalid value for --var: {RESERVED}",
        ),
    ),
    "env in a --var-file": Mistake(
        {"a.yaml": OK, "vars.yaml": "region: eu\nenv: staging\n"},
        ("validate", "a.yaml", "--var-file", "vars.yaml"),
        1,
        (f"vars.yaml:2:1: env: {RESERVED}",),
    ),
    "deleting the default site, settings unwritten": Mistake(
        {
            "setup.yaml": DEFAULT_SITE,
            "a.yaml": "organization: org_acme\nsites:\n"
            "  - {title: Developer Docs, state: absent}\n",
        },
        ("plan", "a.yaml"),
        1,
        (
            'Error: a.yaml:3:5: site["Developer Docs"] cannot be deleted: settings still refers '
            "to it in `defaultContent`, and no manifest writes `settings`: write `settings: "
            "{defaultContent: ...}` naming another one, or null, in the same plan",
        ),
        setup=(("apply", "setup.yaml", "--auto-approve"),),
    ),
    "a saved plan given as a manifest": Mistake(
        {"ok.yaml": OK},
        ("validate", "plan.json"),
        1,
        (
            "plan.json:1:1: a saved plan (written by `docsync plan --out`), not a manifest: "
            "`docsync show plan.json` shows it, `docsync apply --plan plan.json` applies it",
        ),
        setup=(("plan", "ok.yaml", "--out", "plan.json"),),
    ),
    "a manifest given as a saved plan": Mistake(
        {"ok.yaml": OK},
        ("apply", "--plan", "ok.yaml"),
        1,
        (
            "Error: ok.yaml is a manifest, not a saved plan: `docsync apply ok.yaml` plans and "
            "applies it; `docsync plan ok.yaml --out plan.json` saves a plan to review, which "
            "`docsync apply --plan plan.json` applies",
        ),
    ),
    "a manifest given to show": Mistake(
        {"ok.yaml": OK},
        ("show", "ok.yaml"),
        1,
        ("Error: ok.yaml is a manifest, not a plan: `docsync plan ok.yaml` shows its plan",),
    ),
    "prune: [spaces]": Mistake(
        {"a.yaml": "organization: org_acme\nprune: [spaces]\n"},
        ("validate", "a.yaml"),
        1,
        (
            "a.yaml:2:9: prune[0]: docsync never prunes spaces: delete a space with an entry "
            "`state: absent`, and take spaces out of prune",
        ),
    ),
    "a pattern, a boolean and a misspelt key": Mistake(
        {
            "a.yaml": "organization: org_acme\n"
            "sites:\n  - {title: Docs, published: yes please}\n"
            "teams:\n  - tittle: Platform\n"
            'policies:\n  - {name: "my rule", match: "true", warn: x}\n'
        },
        ("validate", "a.yaml"),
        1,
        (
            "a.yaml:3:30: sites[0].published: must be true or false; got 'yes please'",
            "a.yaml:5:5: teams[0].tittle: unknown field 'tittle'; did you mean 'title'?",
            "a.yaml:7:12: policies[0].name: a rule's name starts with a letter or digit and "
            "holds only letters, digits, '_', '.' and '-'; got 'my rule'",
        ),
    ),
    "a token that is nobody's": Mistake(
        {"ok.yaml": OK},
        ("plan", "ok.yaml"),
        1,
        (
            "Error: GET /v1/orgs: 401 Unauthorized: the token does not belong to any user (check "
            "that DOCSYNC_TOKEN is valid and has the rights this call needs)",
        ),
        env={"DOCSYNC_TOKEN": "tok_nobody"},
    ),
    "an empty DOCSYNC_API_URL": Mistake(
        {"ok.yaml": OK},
        ("plan", "ok.yaml"),
        1,
        (
            "Error: DOCSYNC_API_URL is empty: set it to the Management API's URL, or unset it "
            "to use production (https://api.gitbook.com)",
        ),
        env={"DOCSYNC_API_URL": ""},
    ),
    "export --out a file": Mistake(
        {"hostname": "build-7\n"},
        ("export", "--org", "org_acme", "--out", "hostname"),
        1,
        (
            "Error: --out hostname is a file, not a directory: export writes its files into a "
            "directory (made when missing); name one",
        ),
    ),
    "export --out /dev/full": Mistake(
        {},
        ("export", "--org", "org_acme", "--out", "/dev/full"),
        1,
        (
            "Error: --out /dev/full is a character device, not a directory: export writes its "
            "files into a directory (made when missing); name one",
        ),
    ),
    "plan --out /dev/null": Mistake(
        {"ok.yaml": OK},
        ("plan", "ok.yaml", "--out", "/dev/null"),
        0,
        (
            "Wrote the plan to /dev/null, a character device, which keeps nothing to apply: to "
            "apply it later, save it to a file (`--out plan.json`, then `docsync apply --plan "
            "plan.json`).",
        ),
    ),
    "apply -v": Mistake(
        {"ok.yaml": OK},
        ("apply", "ok.yaml", "-v", "--auto-approve"),
        0,
        (re.compile(r"plan: \d+ requests \(0 retries\) in (?!0\.00 s)\d+\.\d\d s"),),
        exact=False,
    ),
    "--auto-approve beside --plan": Mistake(
        {"ok.yaml": OK},
        ("apply", "--plan", "plan.json", "--auto-approve"),
        0,
        (
            "Note: --auto-approve changes nothing with --plan: a saved plan was reviewed when it "
            "was made, and is applied without asking.",
        ),
        setup=(("plan", "ok.yaml", "--out", "plan.json"),),
        exact=False,
    ),
    "--max-delete-share 0 below 10 resources": Mistake(
        {"three.yaml": THREE_TEAMS, "a.yaml": THREE_TEAMS.replace(", {title: C}", "")},
        ("plan", "a.yaml", "--max-delete-share", "0"),
        1,
        (
            "Error: refusing this plan (pass --force to proceed anyway):",
            "  the plan deletes or replaces 1 of 3 team resources, and the share allowed is 0 "
            "(none)",
        ),
        setup=(("apply", "three.yaml", "--auto-approve", "--force"),),
    ),
    "2,000 unknown language keys": Mistake(
        {"a.yaml": UNKNOWN_KEYS},
        ("validate", "a.yaml"),
        1,
        (*_key_lines(20, 5, 23, 7), f"... and 1,980 {MORE}"),
    ),
    "100 glossary entries in a wrong shape": Mistake(
        {"a.yaml": WRONG_SHAPE},
        ("plan", "a.yaml"),
        1,
        (
            "Error: a.yaml:5:7: translationsGlossary.entries[0].term0: not an allowed key "
            "(allowed: 'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', "
            "'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', "
            "'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl')",
            *(
                f"a.yaml:{6 + i}:7: translationsGlossary.entries[{1 + i}].term{1 + i}: not an "
                f"allowed key (allowed: the {LANGUAGES} values listed above)"
                for i in range(19)
            ),
            f"... and 80 {MORE}",
        ),
    ),
    "--max-problems 2": Mistake(
        {"a.yaml": WRONG_SHAPE},
        ("validate", "a.yaml", "--max-problems", "2"),
        1,
        (re.compile(r"a\.yaml:5:7: .*"), re.compile(r"a\.yaml:6:7: .*"), f"... and 98 {MORE}"),
    ),
    "DOCSYNC_MAX_PROBLEMS=all": Mistake(
        {"a.yaml": WRONG_SHAPE},
        ("validate", "a.yaml"),
        1,
        tuple(
            re.compile(rf"a\.yaml:{5 + i}:7: .*\.term{i}: not an allowed key .*")
            for i in range(100)
        ),
        env={"DOCSYNC_MAX_PROBLEMS": "all"},
    ),
}


def _matches(expected: str | re.Pattern[str], line: str) -> bool:
    if isinstance(expected, re.Pattern):
        return expected.fullmatch(line) is not None
    return expected == line


def _in_order(expected: tuple[str | re.Pattern[str], ...], lines: list[str]) -> bool:
    found = iter(lines)
    return all(any(_matches(want, line) for line in found) for want in expected)


@pytest.mark.parametrize("name", list(MISTAKES))
def test_each_mistake_gets_its_message(
    name: str, emulator: EmulatorHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mistake = MISTAKES[name]
    monkeypatch.chdir(tmp_path)
    for file, text in mistake.files.items():
        (tmp_path / file).write_text(text, encoding="utf-8")
    env = cli_env(emulator, **mistake.env)
    for command in mistake.setup:
        done = invoke(cli_env(emulator), *command)
        assert done.exit_code == 0, done.output
    result = invoke(env, *mistake.args)
    lines = result.stderr.splitlines()
    assert result.exit_code == mistake.code, result.output
    if mistake.exact:
        assert len(lines) == len(mistake.lines), "\n".join(lines)
        assert all(_matches(want, line) for want, line in zip(mistake.lines, lines, strict=True)), (
            lines
        )
    else:
        assert _in_order(mistake.lines, lines), lines
    assert "Traceback" not in result.output


def test_a_saved_plan_is_told_from_a_manifest_by_the_format_it_is_saved_in() -> None:
    assert SAVED_FORMAT.startswith(SAVED_PLAN_FORMAT)
