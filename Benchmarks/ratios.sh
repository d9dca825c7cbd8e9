#!/usr/bin/env bash
# Runs the PlistCore and Foundation benchmarks (short mode, or the full suite with --full) and prints
# a Markdown table of their p50 wall-clock times, throughput and peak memory, with the ratio.
# Exits non-zero unless PlistCore is faster than Foundation at both reading and writing the binary
# itunes-library input. BENCH_INPUTS=folder (from plist-bench-inputs) adds throughput.
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
swift package --disable-sandbox benchmark --filter "${BENCH_FILTER:-(PlistCore|Foundation)/.*}" \
    --format histogramPercentiles --time-units nanoseconds --path "$results" --no-progress >&2

python3 - "$results" <<'PY'
import os
import re
import sys

pattern = re.compile(
    r"\.PlistBenchmarks\.(PlistCore|Foundation)_(read|write)-(\w+)_([\w-]+)\.(wallClock|mallocCountTotal)"
    r"\.histogram\.percentiles\.tsv$")
p50 = {}  # (library, operation, format, file, metric) -> value
for name in os.listdir(sys.argv[1]):
    match = pattern.search(name)
    if match:
        with open(os.path.join(sys.argv[1], name)) as table:
            header, *rows = [line.rstrip("\n").split("\t") for line in table]
        if match.group(5) == "wallClock" and "(ns)" not in header[1]:
            sys.exit(f"{name}: expected nanoseconds, found {header[1]!r}")
        scale = 1000 if "(K)" in header[1] else 1_000_000 if "(M)" in header[1] else 1
        p50[match.groups()] = float(dict(rows)["50"]) * (1 if match.group(5) == "wallClock" else scale)

inputs = os.environ.get("BENCH_INPUTS")
def size(format, file):
    path = inputs and os.path.join(inputs, f"{file}.{format}.plist")
    return os.path.getsize(path) if path and os.path.exists(path) else None

def show(nanoseconds):
    return f"{nanoseconds / 1e6:.2f} ms" if nanoseconds >= 1e6 else f"{nanoseconds / 1e3:.1f} µs"

def count(value):
    if value is None:
        return "–"
    return f"{value / 1e6:.1f} M" if value >= 1e6 else f"{value / 1e3:.0f} K" if value >= 1e4 else f"{value:.0f}"

print("| input | operation | PlistCore p50 | Foundation p50 | ratio (Foundation / PlistCore) | PlistCore MB/s | mallocs PlistCore / Foundation |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
ratios = {}
keys = sorted({key[1:4] for key in p50 if key[0] == "PlistCore" and key[4] == "wallClock"}, key=lambda k: (k[2], k[1], k[0]))
for operation, format, file in keys:
    ours = p50["PlistCore", operation, format, file, "wallClock"]
    # A variant of PlistCore's (`codable_xml_parallel`) is set against Foundation's `codable_xml`.
    theirs_format = format.removesuffix("_parallel")
    theirs = p50.get(("Foundation", operation, theirs_format, file, "wallClock"))
    bytes_ = size(format, file)
    throughput = f"{bytes_ / (ours / 1e9) / 1e6:.0f}" if bytes_ else "–"
    mem = f"{count(p50.get(('PlistCore', operation, format, file, 'mallocCountTotal')))} / " \
          f"{count(p50.get(('Foundation', operation, theirs_format, file, 'mallocCountTotal')))}"
    ratio = f"{theirs / ours:.2f}" if theirs else "–"
    if theirs:
        ratios[operation, format, file] = theirs / ours
    print(f"| {file} | {operation} {format} | {show(ours)} | {show(theirs) if theirs else '–'} | {ratio} | {throughput} | {mem} |")

failed = False
for operation in ("read", "write"):
    if ratios.get((operation, "binary", "itunes-library"), 0) <= 1:
        print(f"FAIL: PlistCore is not faster than Foundation at {operation} binary of itunes-library", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
PY
