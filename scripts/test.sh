#!/usr/bin/env bash
# `make test`: builds the tests and runs every unit and integration test. The whole output goes to
# .build/test.log; the terminal gets the failures and a summary: what ran, what was skipped and
# why (each skip names the make target that runs it), how long it took and where the output is.
# Usage: scripts/test.sh [swift test arguments, e.g. --filter BeaconCoreTests]
set -uo pipefail
cd "$(dirname "$0")/.."
log=.build/test.log
mkdir -p .build
start=$SECONDS
# The formatter first: its configuration is .swift-format (docs/testing.md, "Formatting"); a file it
# would change fails the run, and `swift format format -i -r Sources Tests Package.swift fuzz` fixes it.
echo "test: swift format lint …" >&2
if ! swift format lint --strict --parallel -r Sources Tests Package.swift fuzz >.build/format.log 2>&1; then
    grep -E 'warning:|error:' .build/format.log | head -20 >&2
    echo "test: format: $(grep -cE 'warning:|error:' .build/format.log) findings (all: .build/format.log); fix with swift format format -i" >&2
    exit 1
fi
echo "test: format: clean" >&2
echo "test: building (swift build --build-tests) …" >&2
if ! swift build --build-tests >.build/test-build.log 2>&1; then
    grep -E 'error:' .build/test-build.log | sort -u >&2
    echo "test: the build failed; its output: .build/test-build.log" >&2
    exit 1
fi
echo "test: running (swift test --skip-build) …" >&2
swift test --skip-build "$@" >"$log" 2>&1
status=$?
# Failures as swift-testing and XCTest report them.
grep -E '^✘ Test .* (recorded an issue|failed)|error: .*XCTAssert|Test Case .* failed' "$log" | head -100 >&2
summary=$(grep -E '^(✔|✘) Test run with' "$log" | tail -1)
xctest=$(grep -oE 'Executed [0-9]+ tests?, with [0-9]+ failures?' "$log" | tail -1)
skipped_suites=$(grep -E '^➜ Suite .* skipped' "$log")
skipped_tests=$(grep -cE '^➜ Test .* skipped' "$log")
echo "test: ${summary:-no swift-testing summary (see the log)}" >&2
[ -n "$xctest" ] && [ "${xctest#Executed 0 }" = "$xctest" ] && echo "test: XCTest: $xctest" >&2
if [ "$skipped_tests" -gt 0 ]; then
    echo "test: skipped $skipped_tests tests, $(grep -cE '^➜ Suite .* skipped' "$log") suites of them whole:" >&2
    # A skipped suite's tests are listed once, under the suite.
    suites=$(printf '%s\n' "$skipped_suites" | sed -nE 's/^➜ Suite ([A-Za-z0-9_]+) skipped.*/\1/p')
    printf '%s\n' "$skipped_suites" | sed -E 's/^➜ Suite ([A-Za-z0-9_]+) skipped:? ?"?([^"]*)"?$/  \1: \2/' |
        sed -E 's/: \.?$/: (no reason given)/' >&2
    grep -E '^➜ Test .* skipped' "$log" | while read -r line; do
        name=$(sed -E 's/^➜ Test ([^ (]+).*/\1/' <<<"$line")
        file=$(grep -rlE "func $name\(" Tests | head -1)
        suite=$(basename "${file:-unknown}" .swift)
        suite=${suite%%+*}
        grep -qxF "$suite" <<<"$suites" && continue
        sed -E "s/^➜ Test ([^ ]+) skipped:? ?\"?([^\"]*)\"?\$/  $suite.\1: \2/" <<<"$line" |
            sed -E 's/: \.?$/: (no reason given)/' >&2
    done
fi
echo "test: $((SECONDS - start)) s; the whole output ($(wc -l <"$log") lines): $log" >&2
exit $status
