# Sourced by the other scripts: make .venv with docsync and its dev tools, once per change of pyproject.toml.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.docsync-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  # The distribution was once named "docsync" (a namesake's name on the index): drop that install.
  .venv/bin/python -m pip uninstall --quiet --disable-pip-version-check -y docsync 2>/dev/null || true
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
