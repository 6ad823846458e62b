"""Golden text, Markdown and JSON plans of one scenario that covers every action type and the
kinds of an organization's story; the three tell the same story, and the JSON is valid against
schemas/plan.schema.json. A kind the story does not show is planned from its own declared
scenario (`Declaration.lost_answers`), whose three renderings must agree the same way.

The live state is before.yaml applied to the seeded emulator, with space_scratch binned; the plan
is after.yaml's. Ids the emulator generates and timestamps are normalized (conftest.normalize);
regenerate with DOCSYNC_UPDATE_GOLDEN=1 and review the diff."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from docsync.cli import main
from docsync.core.model import VERBS
from docsync.kinds import CATALOGUE, KINDS
from docsync.kinds.kind import Kind
from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import (
    CERT_AFTER,
    CERT_BEFORE,
    MANIFESTS,
    build_golden_state,
    check_golden,
    invoke,
)

REPO = Path(__file__).resolve().parents[2]
FORMATS = {"text": "plan.txt", "markdown": "plan.md", "json": "plan.json"}


@pytest.fixture(scope="module")
def saved_plan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the fixture below saves the golden plan (`plan --out`)."""
    return tmp_path_factory.mktemp("saved") / "plan.json"


@pytest.fixture(scope="module")
def outputs(emulator_server: EmulatorHandle, saved_plan: Path) -> Iterator[dict[str, str]]:
    """The three renderings of the golden plan (one emulator setup for the whole module); the
    text run also saves it."""
    build_golden_state(emulator_server)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(MANIFESTS)  # locations read `after.yaml:12:5`, not a temporary path
        found = {}
        for name in FORMATS:
            save = ["--out", str(saved_plan)] if name == "text" else []
            result = invoke(emulator_server, "plan", "after.yaml", "--format", name, *save)
            assert result.exit_code == 0, result.output
            assert result.stderr == (
                f"Saved the plan to {saved_plan}: apply it with "
                f"`docsync apply --plan {saved_plan}`.\n"
                if save
                else ""
            )
            found[name] = result.stdout
    yield found


@pytest.mark.parametrize("output_format", sorted(FORMATS))
def test_show_renders_the_saved_plan_as_plan_did(
    outputs: dict[str, str], saved_plan: Path, output_format: str
) -> None:
    """No network: the API URL points nowhere."""
    result = CliRunner().invoke(
        main,
        ["show", str(saved_plan), "--format", output_format],
        env={"DOCSYNC_API_URL": "http://127.0.0.1:9", "DOCSYNC_TOKEN": "", "NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout == outputs[output_format]


@pytest.mark.parametrize("output_format", sorted(FORMATS))
def test_golden(outputs: dict[str, str], output_format: str) -> None:
    check_golden(FORMATS[output_format], outputs[output_format])


def _acts(kind: Kind) -> bool:
    """Whether a kind's actions are its own: not a part, or a part that carries its own out (a
    site's or space's Git Sync installation); most parts' changes are their parent's actions (a
    site's share links: `site["Docs"].shareLinks`)."""
    if not kind.declaration.part:
        return True
    if getattr(kind, "part_payload", None) is not None:
        return False  # carried out by its holder, whose action carries the part's payload
    execute = type(kind).execute
    return execute is not Kind.execute and not getattr(execute, "__final__", False)


def test_the_scenario_covers_every_action_type(outputs: dict[str, str]) -> None:
    actions = json.loads(outputs["json"])["actions"]
    assert {a["verb"] for a in actions} == set(VERBS)
    assert {a["kind"] for a in actions} <= {k.name for k in KINDS if _acts(k)}


def test_every_kind_acts_in_the_story_or_in_its_own_scenario(
    outputs: dict[str, str], emulator: EmulatorHandle, tmp_path: Path
) -> None:
    """The story (before.yaml, after.yaml) is the organization's; a kind it does not show (one
    added since) is rendered from the scenario its declaration holds (`lost_answers`, applied
    here without faults): each step planned in the three formats, which tell the same story, the
    JSON valid, and the kind acting in one of them."""
    shown = {a["kind"] for a in json.loads(outputs["json"])["actions"]}
    for kind in sorted({k.name for k in KINDS if _acts(k)} - shown):
        emulator.reset()
        acted = set().union(*(_rendered(step, emulator, tmp_path) for step in _own(kind)))
        assert kind in acted, f"{kind}: neither the story nor its own scenario plans its actions"


def _own(kind: str) -> list[str]:
    """The manifests of the scenario that covers a kind: its setup, then each step."""
    for declared in CATALOGUE:
        for scenario in declared.lost_answers:
            if kind in (declared.name, *scenario.covers):
                return [scenario.setup, *(step.manifest for step in scenario.steps)]
    raise AssertionError(f"{kind} declares no scenario (`lost_answers`)")


def _rendered(manifest: str, emulator: EmulatorHandle, tmp_path: Path) -> set[str]:
    """The kinds acting in the plan of `manifest`, once its three renderings agree; then
    applied."""
    path = tmp_path / "m.yaml"
    path.write_text(manifest, encoding="utf-8")
    found = {}
    for name in FORMATS:
        planned = invoke(emulator, "plan", path, "--format", name)
        assert planned.exit_code == 0, f"{manifest}\n{planned.output}"
        found[name] = planned.stdout
    assert (
        story_of_text(found["text"])
        == story_of_json(found["json"])
        == story_of_markdown(found["markdown"])
    ), manifest
    _valid(found["json"])
    result = invoke(emulator, "apply", path, "--auto-approve")
    assert result.exit_code == 0, result.output
    return {a["kind"] for a in json.loads(found["json"])["actions"]}


def test_no_secret_in_any_format(outputs: dict[str, str]) -> None:
    for text in outputs.values():
        assert CERT_AFTER not in text and CERT_BEFORE not in text
        assert "MIIC" not in text


def test_json_is_valid_against_the_checked_in_schema(outputs: dict[str, str]) -> None:
    document = _valid(outputs["json"])
    sensitive = [c for a in document["actions"] for c in a["changes"] if c["sensitive"]]
    assert sensitive, "the scenario changes the SAML certificate"
    for change in sensitive:
        for side in (change["before"], change["after"]):
            assert set(side) == {"sensitive", "sha256"} and re.fullmatch(
                "[0-9a-f]{64}", side["sha256"]
            )
        assert change["before"] != change["after"]  # the hashes still tell a change


def _valid(text: str) -> Any:
    """A JSON plan, valid against schemas/plan.schema.json."""
    schema = json.loads((REPO / "schemas" / "plan.schema.json").read_text("utf-8"))
    document = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(document, schema, cls=jsonschema.Draft202012Validator)
    assert document["format_version"] == 1
    return document


# -- the same story in three formats ------------------------------------------------------------
# {"actions": {(verb, address): location}, "fields": {(verb, address): set},
#  "elements": {(verb, address): set of element paths}}
Story = dict[str, Any]

_TEXT_HEAD = re.compile(r"^  (?:\+|~|-|-/\+) (\w+) (.+?)(?:  \((.+)\))?$")
_CHANGE = re.compile(r"^[+~-] (.*?)\s+= ")
#: `+ members["lin@acme.example"]: (absent) -> "owner"`: an element of the field `members`
_ELEMENT = re.compile(r"^[+~-] ((\w+)(?:\.\w+|\[[^\]]*\])+): ")
_MD_HEAD = re.compile(
    r"^<details(?: open)?><summary>(?:🔴 |🟠 |🟣 |🔵 )?<b>(\w+)</b> <code>(.+?)</code>"
    r"(?: — <code>(.+?)</code>)? \((?:\d+ changes?|order checked after the creates)\)</summary>"
)


def _new_story() -> Story:
    return {"actions": {}, "fields": {}, "elements": {}}


def _add(story: Story, verb: str, address: str, location: str | None) -> tuple[str, str]:
    key = (verb, address)
    assert key not in story["actions"], f"{key} twice"
    story["actions"][key] = location
    story["fields"][key] = set()
    story["elements"][key] = set()
    return key


def _add_change(story: Story, key: tuple[str, str], line: str) -> None:
    """A field's line (`~ title = ...`) or one of its elements' (`+ members["x"]: ...`)."""
    element = _ELEMENT.match(line)
    if element:
        story["fields"][key].add(element.group(2))
        story["elements"][key].add(element.group(1))
        return
    change = _CHANGE.match(line)
    assert change, line
    story["fields"][key].add(change.group(1))


def story_of_text(text: str) -> Story:
    story, key = _new_story(), None
    for line in text.split("\n"):
        if line.startswith("Unmanaged:"):
            break
        head = _TEXT_HEAD.match(line)
        if head:
            key = _add(story, *head.groups())
        elif key and line.startswith("      ") and not line.startswith("      # "):
            _add_change(story, key, line[6:])
    return story


def story_of_markdown(text: str) -> Story:
    story, key = _new_story(), None
    for line in text.split("\n"):
        head = _MD_HEAD.match(line)
        if head:
            verb, address, location = head.groups()
            key = _add(story, verb, html.unescape(address), location and html.unescape(location))
        elif line == "</details>":
            key = None
        elif key and not line.startswith(("# ", "```")) and line:
            _add_change(story, key, line)
    return story


def story_of_json(text: str) -> Story:
    story = _new_story()
    for action in json.loads(text)["actions"]:
        key = _add(story, action["verb"], action["address"], action["location"])
        story["fields"][key] = {c["field"] for c in action["changes"]}
        story["elements"][key] = {e["path"] for c in action["changes"] for e in c["elements"] or []}
    return story


def test_text_markdown_and_json_tell_the_same_story(outputs: dict[str, str]) -> None:
    text = story_of_text(outputs["text"])
    markdown = story_of_markdown(outputs["markdown"])
    document = story_of_json(outputs["json"])
    assert len(document["actions"]) == len(json.loads(outputs["json"])["actions"]) > 20
    assert text == document
    assert markdown == document
    summary = json.loads(outputs["json"])["summary"]["text"]
    assert f"Plan: {summary}." in outputs["text"]
    assert f"**Plan: {summary}**" in outputs["markdown"]


def test_the_story_parsers_see_a_missing_field() -> None:
    """The comparison above could not pass by parsing nothing: a dropped line is noticed."""
    one = (
        '  ~ update team["A"]  (a.yaml:1:1)\n      ~ title = "a" -> "b"\n'
        '      + members["x@acme.example"]: (absent) -> "member"\n'
        '      - members["y@acme.example"]: "owner" -> (absent)\n'
    )
    story = story_of_text(one)
    assert story["fields"] == {("update", 'team["A"]'): {"title", "members"}}
    assert story["elements"] == {
        ("update", 'team["A"]'): {'members["x@acme.example"]', 'members["y@acme.example"]'}
    }
    for line in one.splitlines(keepends=True)[1:]:
        assert story_of_text(one.replace(line, "")) != story
