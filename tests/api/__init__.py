"""Tests of the API client, against mocked transports and loopback servers."""
