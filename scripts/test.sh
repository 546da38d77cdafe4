#!/usr/bin/env bash
# Checks types, lint, casts and imports, then runs every test file under test/ with node's own
# runner; fails when any check fails or no test ran.
set -euo pipefail
cd "$(dirname "$0")/.."
# Strict TypeScript is part of the suite (esbuild and tsx run the code without checking its
# types). It runs beside the tests, on a core they leave idle while they wait, and is awaited last.
typecheck_log=$(mktemp)
npm run --silent typecheck >"$typecheck_log" 2>&1 &
typecheck_pid=$!
# Formatting and lint rules (biome.json) are part of the suite too.
npm run --silent lint
# Casts and non-null assertions in src/ stay under their ceilings (counted by the compiler's parser).
node scripts/count-casts.mjs
# Imports point down and form no cycle (.dependency-cruiser.cjs): any violation fails.
npx --no-install depcruise src --config .dependency-cruiser.cjs --output-type err
# The process tests run the server as `npm start` does (the bundle), and the client tests import
# mod97/client as built: everything is built once, from these sources, before any test runs.
node scripts/build.mjs
# Test files are bundled once (scripts/build-tests.mjs says why) and run by plain node. Files
# that run long or mostly wait (on child processes, PostgreSQL, the browser) start first, so
# their waits overlap the others' work; TEST_CONCURRENCY sets how many run at once.
mapfile -t files < <(node scripts/build-tests.mjs | awk '{ print (/\/(multiprocess|release|web|store|payments|mcp)\/|fuzz/ ? 0 : 1), $0 }' | sort -s -k1,1n | cut -d' ' -f2-)
if [ "${#files[@]}" -eq 0 ]; then echo "no test files found" >&2; exit 1; fi
log=$(mktemp)
set +e
node --enable-source-maps --test --test-concurrency="${TEST_CONCURRENCY:-8}" --test-reporter=spec "${files[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
passed=$(grep -E '^ℹ pass [0-9]+' "$log" | awk '{print $3}' | tail -1)
rm -f "$log"
if ! wait "$typecheck_pid"; then cat "$typecheck_log" >&2; echo "typecheck failed" >&2; exit 1; fi
rm -f "$typecheck_log"
if [ "$rc" -eq 0 ] && [ "${passed:-0}" -eq 0 ]; then echo "no test ran" >&2; exit 1; fi
exit "$rc"
