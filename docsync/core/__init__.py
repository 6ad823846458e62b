"""The core: plan model, desired and live state, plan contexts, the dependency graph and errors.

It imports nothing from `docsync.api`, `docsync.engine` or `docsync.render`: kinds, the engine
and the renderers stand on it."""
