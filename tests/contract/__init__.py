"""Tests held to the production contract (`@gitbook/api` spec/openapi.json, pinned)."""
