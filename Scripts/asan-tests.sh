#!/usr/bin/env bash
# Runs the whole test suite under the address sanitizer with leak checking (LeakSanitizer is
# part of ASan on Linux), in its own build folder, at low CPU priority. Any finding fails the run.
# Usage: Scripts/asan-tests.sh [swift test arguments, such as --filter BinaryHostileTests]
set -euo pipefail
cd "$(dirname "$0")/.."
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}
# What LeakSanitizer reports that is no leak of the package's code (each explained in the file).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/Scripts/lsan-suppressions.txt:print_suppressions=0}
export SWIFT_BACKTRACE=enable=no  # let the sanitizer report crashes
start=$(date +%s)
mkdir -p .build-asan
if ! nice -n 19 swift build --build-tests --sanitize=address --scratch-path .build-asan >.build-asan/build.log 2>&1; then
    grep -v '^\[' .build-asan/build.log | tail -40
    echo "asan: build failed (see .build-asan/build.log)"
    exit 1
fi
built=$(date +%s)
# XCTest runs no tests here and leaks its own bookkeeping: only Swift Testing runs.
nice -n 19 swift test --skip-build --disable-xctest --sanitize=address --scratch-path .build-asan "$@"
echo "asan: build $((built - start)) s, tests $(($(date +%s) - built)) s"
