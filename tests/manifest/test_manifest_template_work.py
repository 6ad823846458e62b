"""The templates' budget counts work, never seconds: a run's verdict does not depend on the load
of the machine it runs on. 8,000 small templates passed on an idle machine and failed beside
three busy processes (about 2,000 error lines) while the budget was two seconds of wall time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from docsync.manifest import template_work
from docsync.manifest.templating import Renderer
from tests.kit import REPO, Write
from tests.manifest.conftest import run_validate

TEMPLATES = 8_000

#: `docsync validate` on a machine as loaded as can be: every read of any clock is ten seconds
#: after the one before, as if the process got the processor back only that long after each step
_LOADED = """
import itertools, json, sys, time
ticks = itertools.count(start=1e6, step=10.0)
for name in ("monotonic", "perf_counter", "time", "process_time", "thread_time"):
    setattr(time, name, lambda: next(ticks))
    setattr(time, f"{name}_ns", lambda: int(next(ticks) * 1e9))
from click.testing import CliRunner
from docsync.cli import main
from docsync.manifest import template_work
template_work.STEP_LIMIT = int(sys.argv[1])
result = CliRunner().invoke(main, sys.argv[2:])
print(json.dumps([result.exit_code, result.output]))
"""


def _validate_loaded(*args: str) -> tuple[int, str]:
    """`docsync validate` in a child process whose every clock runs ten seconds a read, with
    this process's budget of work."""
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, str(template_work.STEP_LIMIT), "validate", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    code, output = json.loads(done.stdout)
    return code, output


@pytest.mark.slow
def test_8000_templates_pass_on_a_machine_loaded_as_can_be(write: Write) -> None:
    teams = "".join(f'  - title: "Team {{{{ region | upper }}}} {i}"\n' for i in range(TEMPLATES))
    path = write("many.yaml", "organization: o\nteams:\n" + teams)
    code, output = _validate_loaded(str(path), "--var", "region=eu")
    assert code == 0, output[:2000]
    assert f"OK: 1 file, {TEMPLATES} teams" in output


def test_a_hostile_template_stops_at_the_same_step_whatever_the_load(
    write: Write, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(template_work, "STEP_LIMIT", 300_000)
    loops = "{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}"
    path = write("m.yaml", f'organization: o\nspaces:\n  - title: S\n    emoji: "{loops}"\n')
    idle = run_validate(str(path))
    loaded = _validate_loaded(str(path))
    assert idle.exit_code == 1 == loaded[0]
    assert idle.output == loaded[1]
    assert "template stopped: the templates of this run took more than" in idle.output


def test_the_same_templates_take_the_same_steps() -> None:
    """Counted, so repeatable to the step: two runs of the same templates agree exactly."""

    def steps() -> int:
        renderer = Renderer({"names": [f"n{i}" for i in range(50)]}, {"REGION": "eu"})
        for i in range(20):
            renderer.render_value(
                f"{{% for n in names %}}{{{{ n|upper }}}}-{i}{{% endfor %}}{{{{ env('REGION') }}}}"
            )
        return renderer.steps

    first = steps()
    assert first > 20 * 50
    assert steps() == first


def test_the_budget_is_for_the_run(write: Write, monkeypatch: pytest.MonkeyPatch) -> None:
    """The templates of one run share the budget: once it is spent, each later one stops too,
    located (a run of hostile templates cannot take the budget once per value)."""
    monkeypatch.setattr(template_work, "STEP_LIMIT", 50_000)
    loops = "{% for i in range(99999) %}{% endfor %}"
    path = write(
        "m.yaml",
        f'organization: o\nspaces:\n  - title: S\n    emoji: "{loops}"\n'
        "teams:\n  - title: \"{{ 'Platform' }}\"\n",
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    stopped = "template stopped: the templates of this run took more than 50,000 steps together"
    assert f"m.yaml:4:12: spaces[0].emoji: {stopped}" in result.output
    assert f"m.yaml:6:12: teams[0].title: {stopped}" in result.output
