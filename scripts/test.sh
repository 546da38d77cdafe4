#!/usr/bin/env bash
# Checks types, lint, casts and imports, and runs every test file under test/ with node's own
# runner; fails when any check or test fails, or when no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."

node bin/node-version.js "npm test"
echo "node $(node --version)"

# The checks run beside the build and the tests, on the core the tests leave idle while they
# wait, and are awaited at the end:
# - strict TypeScript (esbuild and tsx run the code without checking its types);
# - formatting and lint rules (biome.json);
# - casts and non-null assertions in src/ under their ceilings (scripts/count-casts.mjs);
# - imports that point down and form no cycle (.dependency-cruiser.cjs).
checks=()
check() {
  local log
  log=$(mktemp)
  ("$@" >"$log" 2>&1) &
  checks+=("$!|$log|$*")
}
check npm run --silent typecheck
check npm run --silent lint
check node scripts/count-casts.mjs
check npx --no-install depcruise src clients/typescript/src --config .dependency-cruiser.cjs --output-type err

# The process tests run the server as `npm start` does (the bundle), and the client tests import
# mod97/client as built: everything is built once, from these sources, before any test runs.
# Test files are bundled too, and run by plain node in a pool of worker processes, as many as
# TEST_CONCURRENCY (scripts/build-tests.mjs says why).
workers=${TEST_CONCURRENCY:-6}
node scripts/build.mjs &
build=$!
tests=$(mktemp)
node scripts/build-tests.mjs "$workers" >"$tests"
wait "$build"
mapfile -t files <"$tests"
rm -f "$tests"
if [ "${#files[@]}" -eq 0 ]; then echo "no test files found" >&2; exit 1; fi

log=$(mktemp)
set +e
# A test that hangs fails after 15 minutes, naming its worker, instead of holding CI to its limit.
node --enable-source-maps --test --test-timeout=900000 --test-concurrency="$workers" --test-reporter=spec "${files[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
passed=$(grep -E '^ℹ pass [0-9]+' "$log" | awk '{print $3}' | tail -1)
rm -f "$log"

for entry in "${checks[@]}"; do
  IFS='|' read -r pid checklog command <<<"$entry"
  if ! wait "$pid"; then
    cat "$checklog" >&2
    echo "failed: $command" >&2
    rc=1
  fi
  rm -f "$checklog"
done
if [ "$rc" -eq 0 ] && [ "${passed:-0}" -eq 0 ]; then echo "no test ran" >&2; exit 1; fi
exit "$rc"
