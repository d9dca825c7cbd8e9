#!/usr/bin/env bash
# Runs the PlistCore and Foundation benchmarks (short mode, or the full suite with --full) and prints
# a Markdown table of their p50 wall-clock times. Exits non-zero unless PlistCore is faster than
# Foundation at both reading and writing the binary itunes-library input.
set -euo pipefail

usage() { echo "usage: $0 [--full]" >&2; exit 2; }
case "$#:${1:-}" in
    0:) export PLIST_BENCH_SHORT=1 ;;
    1:--full) unset PLIST_BENCH_SHORT ;;
    *) usage ;;
esac

cd "$(dirname "$0")"
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT

# One percentile table per benchmark and metric, in nanoseconds, named
# <baseline>.<target>.<library>_<operation>_<file>.<metric>.histogram.percentiles.tsv
swift package --disable-sandbox benchmark --filter '(PlistCore|Foundation)/.*' \
    --format histogramPercentiles --time-units nanoseconds --path "$results" --no-progress >&2

python3 - "$results" <<'PY'
import os
import re
import sys

pattern = re.compile(r"\.PlistBenchmarks\.(\w+?)_(read|write|readXML|writeXML)_([\w-]+)\.wallClock\.histogram\.percentiles\.tsv$")
p50 = {}  # (library, operation, file) -> nanoseconds
for name in os.listdir(sys.argv[1]):
    match = pattern.search(name)
    if match:
        with open(os.path.join(sys.argv[1], name)) as table:
            header, *rows = [line.rstrip("\n").split("\t") for line in table]
        if "(ns)" not in header[1]:
            sys.exit(f"{name}: expected nanoseconds, found {header[1]!r}")
        p50[match.groups()] = float(dict(rows)["50"])

def show(nanoseconds):
    return f"{nanoseconds / 1e6:.2f} ms" if nanoseconds >= 1e6 else f"{nanoseconds / 1e3:.1f} µs"

print("| file | operation | PlistCore p50 | Foundation p50 | ratio (Foundation / PlistCore) |")
print("| --- | --- | ---: | ---: | ---: |")
ratios = {}
for _, operation, file in sorted((key for key in p50 if key[0] == "PlistCore"), key=lambda key: key[::-1]):
    ours, theirs = p50["PlistCore", operation, file], p50.get(("Foundation", operation, file))
    if theirs is not None:
        ratios[operation, file] = theirs / ours
        print(f"| {file} | {operation} | {show(ours)} | {show(theirs)} | {theirs / ours:.2f} |")

failed = False
for operation in ("read", "write"):
    if ratios.get((operation, "itunes-library"), 0) <= 1:
        print(f"FAIL: PlistCore is not faster than Foundation at {operation} of itunes-library", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
PY
