#!/usr/bin/env bash
# Runs the preferences-store benchmarks, PlistStore against Foundation's UserDefaults in the same
# run, with Foundation's files in a temporary XDG_CONFIG_HOME, and prints a Markdown table of the
# p50 wall-clock times and the ratio (Foundation / PlistStore; higher is better for PlistStore).
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
p50 = {}
for name in os.listdir(sys.argv[1]):
    match = pattern.search(name)
    if match:
        with open(os.path.join(sys.argv[1], name)) as table:
            header, *rows = [line.rstrip("\n").split("\t") for line in table]
        p50[match.groups()] = float(dict(rows)["50"])
def show(ns):
    return f"{ns / 1e6:.2f} ms" if ns >= 1e6 else f"{ns / 1e3:.2f} µs" if ns >= 1e3 else f"{ns:.0f} ns"
print("| operation | domain | PlistStore p50 | UserDefaults p50 | ratio (UserDefaults / PlistStore) |")
print("| --- | --- | ---: | ---: | ---: |")
for (library, operation, domain) in sorted(k for k in p50 if k[0] == "PlistStore"):
    ours, theirs = p50[(library, operation, domain)], p50.get(("UserDefaults", operation, domain))
    ratio = f"{theirs / ours:.2f}×" if theirs else "–"
    print(f"| {operation} | {domain} | {show(ours)} | {show(theirs) if theirs else '–'} | {ratio} |")
PY
