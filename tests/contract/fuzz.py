"""Contract fuzzing: schemathesis generates requests from production's document for every
configuration operation the emulator serves, and checks what the emulator answers.

`run(mode, examples=...)` serves a fresh emulator of the contract mode in-process (schemathesis's
ASGI transport: no socket, the emulator's own routes and store), fills its organization with one
of each resource (`populate`, so that generated requests reach real sites, sections, teams...),
then runs schemathesis's engine with a fixed seed and five checks:

- `not_a_server_error`: no 5xx;
- `response_schema_conformance`: every answer valid for its status under production's schema;
- `status_code_conformance`: every answer's status one the operation declares;
- `negative_data_rejection`: a request production's schemas refuse is refused (4xx);
- `positive_data_acceptance`: a request they accept is not refused as malformed (400).

The document is production's with the departures of `fuzz_document.DEPARTURES`. Each check runs
as schemathesis's own, wrapped (`_explained`): a failure a conflict of production's document
explains (`fuzz_forgiven.conflicts`) is counted apart instead of raised, so that generation for
that operation goes on (schemathesis stops an operation at its first failure). Any other failure
names the operation, the check, what the emulator answered and a curl line that reproduces it.
`scripts/fuzz` runs longer, with the coverage and stateful phases, and prints the figures.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from schemathesis import checks as core_checks
from schemathesis.engine import events, from_schema
from schemathesis.python import asgi
from schemathesis.specs.openapi import checks as openapi_checks
from starlette.types import ASGIApp

from docsync.emulator.app import EmulatorConfig, create_app
from docsync.emulator.defaults import Contract
from tests.contract.document import load_spec
from tests.contract.fuzz_document import fuzz_document
from tests.contract.fuzz_forgiven import Seen, forgiven
from tests.contract.fuzz_org import populate
from tests.contract.observed import load_observed_spec
from tests.emulator_harness import SEED

CHECKS = (
    "not_a_server_error",
    "response_schema_conformance",
    "status_code_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
)
#: what the wrapped checks are registered as (schemathesis refuses a second check of one name)
_WRAPPED = "_unless_explained"
TOKEN = "tok_ada"
BASE = f"http://{asgi.HOST}/v1"
PHASES = ("examples", "coverage", "fuzzing", "stateful")


@dataclass(frozen=True)
class Failure:
    """One refused check: the operation, the check, what was answered, how to reproduce it."""

    operation: str
    check: str
    message: str
    answer: str
    curl: str

    def __str__(self) -> str:
        curl = self.curl if len(self.curl) <= 600 else self.curl[:600] + "..."
        answer = self.answer if len(self.answer) <= 300 else self.answer[:300] + "..."
        return f"{self.operation}: {self.check}: {self.message}\n    answered: {answer}\n    {curl}"


@dataclass
class Report:
    """What one run sent and found."""

    mode: Contract
    #: requests by operation (`METHOD /template`)
    requests: Counter[str] = field(default_factory=Counter)
    #: requests by phase (coverage, fuzzing, stateful)
    phases: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    #: failures a conflict of `fuzz_forgiven.conflicts` explains, by operation and check
    forgiven: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def summary(self) -> str:
        phases = ", ".join(f"{name} {count}" for name, count in self.phases.items())
        return (
            f"fuzz --contract {self.mode}: {self.total} requests ({phases}) over "
            f"{len(self.requests)} operations, {len(self.failures)} failures, "
            f"{len(self.errors)} errors, {sum(self.forgiven.values())} forgiven "
            f"(tests/contract/fuzz_forgiven.py), {self.seconds:.1f} s"
        )

    def problems(self) -> str:
        """Every failure (once per operation and check) and error, for a test's message."""
        seen: dict[tuple[str, str], Failure] = {}
        for failure in self.failures:
            seen.setdefault((failure.operation, failure.check), failure)
        lines = [str(f) for f in seen.values()] + [f"error: {e}" for e in self.errors]
        return "\n".join(lines)


class _Explained:
    """The failures the wrapped checks found explained, by operation and check (one run at a
    time in a process; checks may run on the engine's worker threads)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts: Counter[str] = Counter()

    def add(self, seen: Seen) -> None:
        with self.lock:
            self.counts[f"{seen.operation}: {seen.check}"] += 1

    def take(self) -> Counter[str]:
        with self.lock:
            found, self.counts = self.counts, Counter()
        return found


EXPLAINED = _Explained()


def _explained(name: str) -> str:
    """Register schemathesis's check `name` wrapped: a failure a conflict of production's
    document explains is counted in EXPLAINED instead of raised. Returns the wrapper's name."""
    check = getattr(openapi_checks, name, None) or getattr(core_checks, name)

    def wrapped(ctx: Any, response: Any, case: Any) -> bool | None:
        try:
            result: bool | None = check(ctx, response, case)
        except AssertionError:
            meta = case.meta
            negative = meta is not None and meta.generation.mode.is_negative
            text = response.content.decode("utf-8", "replace")
            seen = Seen(case.operation.label, name, f"{response.status_code} {text}", negative)
            if forgiven(seen) is None:
                raise
            EXPLAINED.add(seen)
            return None
        return result

    wrapped.__name__ = name + _WRAPPED
    if wrapped.__name__ not in core_checks.CHECKS.get_all_names():
        schemathesis.check(wrapped)
    return wrapped.__name__


def _config(examples: int, scenarios: int, seed: int, phases: tuple[str, ...]) -> Any:
    return schemathesis.Config.from_dict(
        {
            "seed": seed,
            # no replay of earlier runs' failures: a run depends on its seed alone
            "cache": {"enabled": False},
            # a verdict that depends on the seed, never on the machine's load: Hypothesis's
            # too_slow check times the generation of a body (a site's customization, under load)
            "suppress-health-check": ["too_slow"],
            "headers": {"Authorization": f"Bearer {TOKEN}"},
            "parameters": {"path.organizationId": "org_acme"},
            "generation": {"max-examples": examples, "no-shrink": True, "database": "none"},
            "checks": {
                "enabled": False,
                **{_explained(check): {"enabled": True} for check in CHECKS},
            },
            "phases": {
                **{phase: {"enabled": phase in phases} for phase in PHASES},
                "stateful": {
                    "enabled": "stateful" in phases,
                    "generation": {"max-examples": scenarios},
                },
            },
            "output": {"sanitization": {"enabled": True}},
        }
    )


def _operation(recorder: Any, case_id: str) -> str:
    """`METHOD /template` of one case: a stateful scenario's recorder holds several operations
    under one label, each case knows its own."""
    node = recorder.cases.get(case_id)
    return str(node.value.operation.label) if node is not None else str(recorder.label)


def _answer(recorder: Any, case_id: str) -> str:
    interaction = recorder.interactions.get(case_id)
    response = interaction.response if interaction is not None else None
    if response is None:
        return "no answer"
    return f"{response.status_code} {response.content.decode('utf-8', 'replace')}"


def _failures(recorder: Any) -> Iterator[Failure]:
    for case_id, nodes in recorder.checks.items():
        for node in nodes:
            if node.status.name != "FAILURE" or node.failure_info is None:
                continue
            failure = node.failure_info.failure
            yield Failure(
                _operation(recorder, case_id),
                node.name.removesuffix(_WRAPPED),
                f"{failure.title}: {failure.message}".replace("\n", " ")[:400],
                _answer(recorder, case_id),
                node.failure_info.code_sample,
            )


def emulator_app(mode: Contract) -> ASGIApp:
    """A fresh emulator of `mode`, seeded with the example seed and `populate`d."""
    app = create_app(EmulatorConfig(seed=SEED, contract=mode))
    with asgi.get_client(app) as client:
        populate(client, f"http://{asgi.HOST}", TOKEN)
    return app


def run(
    mode: Contract,
    *,
    examples: int,
    scenarios: int = 100,
    seed: int = 25,
    phases: tuple[str, ...] = ("fuzzing",),
) -> Report:
    """Fuzz a fresh emulator of `mode`: `examples` per operation in the fuzzing phase,
    `scenarios` stateful sequences; the report counts requests per operation and phase."""
    if "stateful" in phases and scenarios < 1:
        raise ValueError("the stateful phase needs at least one scenario")
    spec = load_observed_spec() if mode == "production" else load_spec()
    if spec is None:
        raise RuntimeError("the production contract is absent: run bash scripts/contract.sh")
    app = emulator_app(mode)
    config = _config(examples, scenarios, seed, phases)
    schema = schemathesis.openapi.from_dict(fuzz_document(spec, mode, BASE), config=config)
    schema.app = app
    schema.config.base_url = BASE
    report = Report(mode)
    EXPLAINED.take()
    started = time.perf_counter()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            _record(report, event.phase.value, event.recorder)
        elif isinstance(event, events.NonFatalError):
            report.errors.append(f"{event.label}: {event.value}")
        elif isinstance(event, events.FatalError):
            report.errors.append(f"fatal: {event.exception}")
    report.seconds = time.perf_counter() - started
    report.forgiven = EXPLAINED.take()
    return report


def _record(report: Report, phase: str, recorder: Any) -> None:
    for case_id in recorder.interactions:
        report.requests[_operation(recorder, case_id)] += 1
        report.phases[phase] += 1
    report.failures.extend(_failures(recorder))
