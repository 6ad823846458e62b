"""Fixtures of the API client tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from docsync.api import ApiClient
from tests.api.apikit import FakeClock, Handler, mock_client


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_client(clock: FakeClock) -> Callable[..., ApiClient]:
    """Build a client over a MockTransport handler (sync or async), on the fake clock."""

    def build(handler: Handler, **options: Any) -> ApiClient:
        return mock_client(clock, handler, **options)

    return build
