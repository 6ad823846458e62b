"""Route modules of the emulator; each exposes `routes: list[starlette.routing.BaseRoute]`."""
