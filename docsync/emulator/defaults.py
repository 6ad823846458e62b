"""The emulator's defaults, in a module that loads nothing: `docsync emulator --help` shows
them without importing Starlette or uvicorn."""

from __future__ import annotations

from typing import Literal

#: `description`: the API description plus what production adds (the default);
#: `production`: only what the production contract has, shaped as production shapes it.
Contract = Literal["description", "production"]
CONTRACTS: tuple[Contract, ...] = ("description", "production")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8719
DEFAULT_RATE_LIMIT = 100_000
