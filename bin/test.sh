#!/usr/bin/env bash
# npm test: the type check (tsc, the project and the dashboard) runs beside the test files rather
# than before them: alone it held the whole run up for over a minute on 2 cores, while the test
# files leave a core partly idle waiting on sockets, nodes and timers. Both must pass.
# .typecheck-result says how the type check ended, for .ci/run's count.
set -uo pipefail
cd "$(dirname "$0")/.."
rm -f .typecheck-result .typecheck.log
( npx tsc --noEmit && npx tsc --noEmit -p dashboard ) > .typecheck.log 2>&1 &
typecheck=$!
npx vitest run --reporter=default --reporter=json --outputFile.json=.test-results.json
tests=$?
wait "$typecheck"
types=$?
cat .typecheck.log
if [ "$types" -eq 0 ]; then
  echo 'Type check (tsc --noEmit, and -p dashboard): passed'
  echo passed > .typecheck-result
else
  echo 'Type check (tsc --noEmit, and -p dashboard): FAILED'
  echo failed > .typecheck-result
fi
[ "$tests" -eq 0 ] && [ "$types" -eq 0 ]
