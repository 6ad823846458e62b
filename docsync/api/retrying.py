"""A request's tries: retried with backoff after a 5xx or a lost connection until its deadline
(`--timeout`), after a 429 as the server asks within the rate-limit allowance; a create is never
sent twice blindly (OutcomeUnknown), a DELETE that finds nothing after a try that may have run is
done, and a failure ends in one line naming the request."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx

from docsync.api.errors import (
    NO_CHANGE_HINT,
    UNKNOWN_HINT,
    ApiError,
    OutcomeUnknown,
    RateLimited,
    TimedOut,
    describe_transport,
    error_class,
    server_message,
    truncate,
)
from docsync.api.exchange import Budget, Exchanger, TooSlow
from docsync.api.ratelimit import RatePacer
from docsync.api.retry import HOPELESS, NOT_SENT, RETRYABLE_STATUSES, RetryPolicy, asked_wait
from docsync.api.shape import TLS_HINT, AnswerTooLarge, check_write_answer, is_tls_failure
from docsync.api.stats import RequestStats

logger = logging.getLogger("docsync.api")

#: a retry is not worth starting with less of the budget left than this
_LAST_TRY = 0.5


class Retrying:
    """Sends a request until it is answered, retrying what may be retried."""

    def __init__(
        self,
        exchanger: Exchanger,
        policy: RetryPolicy,
        pacer: RatePacer,
        stats: RequestStats,
        *,
        sleep: Callable[[float], Awaitable[None]],
        clock: Callable[[], float],
        rng: random.Random,
        redact: Callable[[str], str],
    ) -> None:
        self.exchanger = exchanger
        self.policy = policy
        self._pacer = pacer
        self._stats = stats
        self._sleep = sleep
        self._clock = clock
        self._rng = rng
        self._redact = redact

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None,
        body: Any,
        idempotent: bool,
    ) -> Any:
        if not path.startswith("/v1/"):
            raise ValueError(f"API paths start with /v1/, got {path!r}")
        policy = self.policy
        failed = limited = 0  # answers against each allowance: 5xx and lost ones, 429s
        started = self._clock()
        budget = Budget(self.exchanger.deadlines.answer, self._clock)
        # An earlier attempt may have been carried out though its answer was lost.
        uncertain = False
        while True:
            try:
                response = await self.exchanger.send(method, path, params, body, budget)
            except AnswerTooLarge as error:
                raise ApiError(method, path, None, str(error)) from None
            except HOPELESS as error:
                message = self._redact(describe_transport(error))
                raise ApiError(method, path, None, message) from None
            except TooSlow as slow:
                if slow.sent and not idempotent:
                    raise OutcomeUnknown(method, path, None, slow.what, hint=UNKNOWN_HINT) from None
                failed += 1
                delay = self._retry_in(failed, budget)
                if delay is None:
                    attempts = failed + limited
                    raise self._too_slow(method, path, slow.what, attempts, budget) from None
                reason = "too slow"
                uncertain |= slow.sent
            except httpx.TransportError as error:
                message = self._redact(describe_transport(error))
                if is_tls_failure(error):  # a certificate problem does not pass with time
                    raise ApiError(method, path, None, message, hint=TLS_HINT) from None
                if not idempotent and not isinstance(error, NOT_SENT):
                    raise OutcomeUnknown(method, path, None, message, hint=UNKNOWN_HINT) from None
                failed += 1
                delay = self._retry_in(failed, budget)
                if delay is None:
                    hint = self._gave_up(failed, limited, budget)
                    raise ApiError(method, path, None, message, hint=hint) from None
                reason = type(error).__name__
                uncertain |= not isinstance(error, NOT_SENT)
            else:
                status = response.status_code
                if 200 <= status < 300:
                    answer = decode(method, path, response, self._redact)
                    if method != "GET":
                        check_write_answer(method, path, status, answer, creates=not idempotent)
                    return answer
                if status == 404 and method == "DELETE" and uncertain:
                    return None  # the lost attempt deleted it: done
                if status == 409 and uncertain:
                    # Production's "would not result in any update": the lost attempt may have
                    # made it so; the caller reads it back (ApiClient.write, kinds.requests.settle).
                    raise self.error(
                        method, path, response, cls=OutcomeUnknown, hint=NO_CHANGE_HINT
                    )
                if status not in RETRYABLE_STATUSES:
                    raise self.error(method, path, response)
                if status == 429:
                    limited += 1
                    delay = self._rate_limited_wait(method, path, response, limited, started)
                    self._pacer.hold(delay)  # the whole client backs off, not just this request
                    budget.excuse(delay)
                else:
                    if not idempotent:
                        raise self.error(method, path, response, cls=OutcomeUnknown)
                    failed += 1
                    asked = asked_wait(status, response.headers, self._clock())
                    if asked is not None and asked > policy.max_wait:
                        hint = f"the server asks to wait {asked:.0f} s; try again later"
                        raise self.error(method, path, response, hint=hint)
                    delay = self._retry_in(failed, budget, asked or None)
                    if delay is None:
                        hint = self._gave_up(failed, limited, budget)
                        raise self.error(method, path, response, hint=hint)
                    uncertain = True
                reason = str(status)
            self._stats.retries += 1
            self._stats.waited += delay
            logger.debug(
                "retrying %s %s in %.2f s (%s; %d failed, %d rate-limited)",
                method,
                path,
                delay,
                reason,
                failed,
                limited,
            )
            await self._sleep(delay)

    def _retry_in(self, failed: int, budget: Budget, asked: float | None = None) -> float | None:
        """The wait before the try after the `failed`th failed one: the server's (`asked`),
        else the backoff, cut to what the request's deadline leaves for one more try; None when
        no try is left (the deadline, or the policy's count when it has one)."""
        limit = self.policy.max_attempts
        room = budget.remaining - _LAST_TRY
        if (limit is not None and failed >= limit) or room <= 0:
            return None
        if asked is not None:
            return asked if asked <= room else None
        return min(self.policy.backoff(failed, self._rng.random()), room)

    def _gave_up(self, failed: int, limited: int, budget: Budget) -> str:
        text = f"gave up after {failed + limited} attempts"
        limit = self.policy.max_attempts
        if limit is not None and failed >= limit:
            return text
        return (
            f"{text} in {budget.spent:.3g} s; docsync waits {budget.seconds:g} s for one answer, "
            "retries included: --timeout changes it"
        )

    def _too_slow(
        self, method: str, path: str, what: str, attempts: int, budget: Budget
    ) -> TimedOut:
        tries = "1 try" if attempts == 1 else f"{attempts} tries"
        hint = (
            f"{tries} in {budget.spent:.3g} s; docsync waits {budget.seconds:g} s for one "
            "answer, retries included: --timeout changes it"
        )
        return TimedOut(method, path, None, what, hint=hint)

    def _rate_limited_wait(
        self, method: str, path: str, response: httpx.Response, limited: int, started: float
    ) -> float:
        """How long to sit out the `limited`th 429 of a request, or RateLimited when the
        rate-limit allowance (attempts, time since the first try) would be spent."""
        policy = self.policy
        now = self._clock()
        backoff = policy.backoff(limited, self._rng.random())
        asked = asked_wait(429, response.headers, now)
        if asked is not None and asked > policy.max_wait:
            hint = f"the server asks to wait {asked:.0f} s; try again later"
            raise self.error(method, path, response, cls=RateLimited, hint=hint)
        delay = asked or backoff
        spent = now - started
        if limited >= policy.rate_limited_attempts or spent + delay > policy.rate_limited_for:
            hint = f"still rate limited after {limited} attempts in {spent:.0f} s; try again later"
            raise self.error(method, path, response, cls=RateLimited, hint=hint)
        return delay

    def error(
        self,
        method: str,
        path: str,
        response: httpx.Response,
        *,
        cls: type[ApiError] | None = None,
        hint: str = "",
    ) -> ApiError:
        status = response.status_code
        chosen = cls or error_class(status)
        if chosen is OutcomeUnknown:
            hint = hint or UNKNOWN_HINT
        elif status in (401, 403) and not hint:
            hint = "check that DOCSYNC_TOKEN is valid and has the rights this call needs"
        message = server_message(self._redact(response.text), clean=self._redact)
        return chosen(method, path, status, message, hint=hint)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def decode(method: str, path: str, response: httpx.Response, redact: Callable[[str], str]) -> Any:
    """The answer's JSON (None when empty); NaN and Infinity are refused: JSON has neither, and
    an id or a number read as one would be used as if it were one."""
    if response.status_code in (204, 205) or not response.content.strip():
        return None
    try:
        return json.loads(response.content, parse_constant=_no_constant)
    except RecursionError:
        message = "the answer is JSON nested too deeply to read"
        raise ApiError(method, path, response.status_code, message) from None
    except ValueError as error:
        if "is not a JSON value" in str(error):
            message = f"the answer is not JSON: {error} (a number must be finite)"
            raise ApiError(method, path, response.status_code, message) from None
        snippet = truncate(redact(response.text.strip()[:2000]), 200)
        message = f"expected a JSON answer, got: {snippet!r}"
        raise ApiError(method, path, response.status_code, message) from None
