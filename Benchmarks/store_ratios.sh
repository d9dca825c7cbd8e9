#!/usr/bin/env bash
# Runs the preferences-store benchmarks, PlistStore against Foundation's UserDefaults in the same
# run, with Foundation's files in a temporary XDG_CONFIG_HOME, and prints a Markdown table of the
# p50 wall-clock times and the ratio (Foundation / PlistStore; higher is better for PlistStore), then
# the p50, p99 and worst time of a lookup while another thread keeps flushing.
set -euo pipefail
cd "$(dirname "$0")"
results=$(mktemp -d)
export XDG_CONFIG_HOME
XDG_CONFIG_HOME=$(mktemp -d)
trap 'rm -rf "$results" "$XDG_CONFIG_HOME" "${TMPDIR:-/tmp}"/plist-store-bench-*' EXIT

swift package --disable-sandbox benchmark --filter "(PlistStore|UserDefaults)/.*" \
    --format histogramPercentiles --time-units nanoseconds --path "$results" --no-progress >&2

python3 - "$results" <<'PY'
import os, re, sys
pattern = re.compile(r"\.PlistBenchmarks\.(PlistStore|UserDefaults)_([\w-]+)_([\w-]+)\.wallClock\.histogram\.percentiles\.tsv$")
percentiles = {}
for name in os.listdir(sys.argv[1]):
    match = pattern.search(name)
    if match:
        with open(os.path.join(sys.argv[1], name)) as table:
            header, *rows = [line.rstrip("\n").split("\t") for line in table]
        percentiles[match.groups()] = {key: float(value) for key, value in rows}
def show(ns):
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.2f} µs" if ns >= 1e3 else f"{ns:.0f} ns"
def table(operations, percentile, title):
    print(f"| operation | domain | PlistStore {title} | UserDefaults {title} | ratio (UserDefaults / PlistStore) |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (library, operation, domain) in sorted(k for k in percentiles if k[0] == "PlistStore" and k[1] in operations):
        ours = percentiles[(library, operation, domain)][percentile]
        theirs = percentiles.get(("UserDefaults", operation, domain), {}).get(percentile)
        ratio = f"{theirs / ours:.2f}×" if theirs else "–"
        print(f"| {operation} | {domain} | {show(ours)} | {show(theirs) if theirs else '–'} | {ratio} |")
operations = {key[1] for key in percentiles}
table(operations - {"lookup-during-flush"}, "50", "p50")
print()
print("Lookups on one thread while another changes a key of the 5,000-key domain and synchronizes, over and over")
print("(lookup-during-flush), beside lookups with no flush running (object-for-key):")
print()
print("| operation | domain | percentile | PlistStore | UserDefaults | ratio (UserDefaults / PlistStore) |")
print("| --- | --- | --- | ---: | ---: | ---: |")
# The same percentiles of object-for-key, where nothing flushes: how long this machine itself
# can hold up a lookup (preemption by other processes).
for key in (("PlistStore", "lookup-during-flush", "5000-keys"), ("PlistStore", "object-for-key", "1000-keys")):
    for percentile, title in (("50", "p50"), ("99", "p99"), ("100", "worst")):
        if key in percentiles:
            ours = percentiles[key][percentile]
            theirs = percentiles.get(("UserDefaults",) + key[1:], {}).get(percentile)
            ratio = f"{theirs / ours:.2f}×" if theirs else "–"
            print(f"| {key[1]} | {key[2]} | {title} | {show(ours)} | {show(theirs) if theirs else '–'} | {ratio} |")
PY
