"""The engine: the live state read, the diff that makes a plan, the executor that carries it
out, saved plans, the safety rails, targets and secrets by provenance."""
