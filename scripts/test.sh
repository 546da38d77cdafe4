#!/usr/bin/env bash
# Type-checks, then runs every test file under test/ with node's own runner; fails when none ran.
set -euo pipefail
cd "$(dirname "$0")/.."
# Strict TypeScript is part of the suite: tsx runs the code without checking its types.
npm run --silent typecheck
# Formatting and lint rules (biome.json) are part of the suite too.
npm run --silent lint
# Casts and non-null assertions in src/ stay under their ceilings (counted by the compiler's parser).
node scripts/count-casts.mjs
# Imports point down and form no cycle (.dependency-cruiser.cjs): any violation fails.
npx --no-install depcruise src --config .dependency-cruiser.cjs --output-type err
# The process tests run the server as `npm start` does (the bundle), and the client tests import
# mod97/client as built: everything is built once, from these sources, before any test runs.
node scripts/build.mjs
mapfile -t files < <(find test -name '*.test.ts' | sort)
if [ "${#files[@]}" -eq 0 ]; then echo "no test files found" >&2; exit 1; fi
log=$(mktemp)
set +e
node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-4}" --test-reporter=spec "${files[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
passed=$(grep -E '^ℹ pass [0-9]+' "$log" | awk '{print $3}' | tail -1)
rm -f "$log"
if [ "$rc" -eq 0 ] && [ "${passed:-0}" -eq 0 ]; then echo "no test ran" >&2; exit 1; fi
exit "$rc"
