"""Contract fuzzing: schemathesis generates requests from production's document for every
configuration operation the emulator serves, and checks what the emulator answers.

`run(mode, examples=...)` serves a fresh emulator of the contract mode in-process (schemathesis's
ASGI transport: no socket, the emulator's own routes and store), fills its organization with one
of each resource (`populate`, so that generated requests reach real sites, sections, teams...),
then runs schemathesis's engine with a fixed seed and four checks:

- `not_a_server_error`: no 5xx;
- `response_schema_conformance`: every answer valid for its status under production's schema;
- `negative_data_rejection`: a request production's schemas refuse is refused (4xx);
- `positive_data_acceptance`: a request they accept is not refused as malformed (400).

The document is production's with the narrowings of `fuzz_document.NARROWED`. A failure names
the operation, the check, what the emulator answered and a curl line that reproduces it.
`python -m tests.contract.fuzz` (scripts/fuzz) runs longer, stateful sequences included, and
prints its figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from schemathesis.engine import events, from_schema
from schemathesis.python import asgi
from starlette.types import ASGIApp

from docsync.emulator.app import CONTRACTS, Contract, EmulatorConfig, create_app
from tests.contract.document import load_spec
from tests.contract.fuzz_document import fuzz_document
from tests.contract.fuzz_forgiven import forgiven
from tests.contract.fuzz_org import populate
from tests.emulator_harness import SEED

CHECKS = (
    "not_a_server_error",
    "response_schema_conformance",
    "negative_data_rejection",
    "positive_data_acceptance",
)
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
    requests: Counter[str] = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    #: failures `fuzz_forgiven.FORGIVEN` explains, by reason
    forgiven: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def summary(self) -> str:
        return (
            f"fuzz --contract {self.mode}: {self.total} requests over {len(self.requests)} "
            f"operations, {len(self.failures)} failures, {len(self.errors)} errors, "
            f"{sum(self.forgiven.values())} forgiven (tests/contract/fuzz_forgiven.py), "
            f"{self.seconds:.1f} s"
        )

    def problems(self) -> str:
        """Every failure (once per operation and check) and error, for a test's message."""
        seen: dict[tuple[str, str], Failure] = {}
        for failure in self.failures:
            seen.setdefault((failure.operation, failure.check), failure)
        lines = [str(f) for f in seen.values()] + [f"error: {e}" for e in self.errors]
        return "\n".join(lines)


def _config(examples: int, seed: int, phases: tuple[str, ...], workers: int) -> Any:
    return schemathesis.Config.from_dict(
        {
            "seed": seed,
            # no replay of earlier runs' failures: a run depends on its seed alone
            "cache": {"enabled": False},
            "headers": {"Authorization": f"Bearer {TOKEN}"},
            "parameters": {"path.organizationId": "org_acme"},
            "generation": {"max-examples": examples, "no-shrink": True, "database": "none"},
            "checks": {"enabled": False, **{check: {"enabled": True} for check in CHECKS}},
            "phases": {phase: {"enabled": phase in phases} for phase in PHASES},
            "workers": workers,
            "output": {"sanitization": {"enabled": True}},
        }
    )


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
                recorder.label,
                node.name,
                f"{failure.title}: {failure.message}".replace("\n", " ")[:400],
                _answer(recorder, case_id),
                node.failure_info.code_sample,
            )


def emulator_app(mode: Contract) -> ASGIApp:
    """A fresh emulator of `mode`, seeded with the example seed and `populate`d."""
    app = create_app(EmulatorConfig(seed=SEED, contract=mode))
    with asgi.get_client(app) as client:
        populate(client, f"http://{asgi.HOST}", TOKEN, production=mode == "production")
    return app


def run(
    mode: Contract,
    *,
    examples: int,
    seed: int = 25,
    phases: tuple[str, ...] = ("fuzzing",),
    workers: int = 1,
) -> Report:
    """Fuzz a fresh emulator of `mode`; the report counts requests per operation."""
    spec = load_spec()
    if spec is None:
        raise RuntimeError("the production contract is absent: run bash scripts/contract.sh")
    app = emulator_app(mode)
    schema = schemathesis.openapi.from_dict(
        fuzz_document(spec, mode, BASE), config=_config(examples, seed, phases, workers)
    )
    schema.app = app
    schema.config.base_url = BASE
    report = Report(mode)
    started = time.perf_counter()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished | events.FuzzScenarioFinished):
            recorder = event.recorder
            for interaction in recorder.interactions.values():
                report.requests[_label(interaction, recorder.label)] += 1
            for failure in _failures(recorder):
                reason = forgiven(failure.operation, failure.check, failure.answer)
                if reason is None:
                    report.failures.append(failure)
                else:
                    report.forgiven[f"{failure.operation}: {failure.check}"] += 1
        elif isinstance(event, events.NonFatalError):
            report.errors.append(f"{event.label}: {event.value}")
        elif isinstance(event, events.FatalError):
            report.errors.append(f"fatal: {event.exception}")
    report.seconds = time.perf_counter() - started
    return report


def _label(interaction: Any, fallback: str) -> str:
    """`METHOD /template` of one request (a stateful scenario's recorder names the scenario)."""
    label = getattr(interaction, "label", None)
    return label if isinstance(label, str) else fallback


def main(argv: list[str] | None = None) -> int:
    """scripts/fuzz: a longer run per contract mode, stateful sequences included."""
    parser = argparse.ArgumentParser(prog="scripts/fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=100, help="per operation and phase")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--mode", choices=CONTRACTS, action="append")
    parser.add_argument("--phases", default="fuzzing,stateful")
    args = parser.parse_args(argv)
    failed = False
    for mode in args.mode or CONTRACTS:
        report = run(
            mode, examples=args.examples, seed=args.seed, phases=tuple(args.phases.split(","))
        )
        print(report.summary())
        for operation, count in sorted(report.requests.items()):
            print(f"  {count:6d}  {operation}")
        if report.failures or report.errors:
            failed = True
            print(report.problems())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
