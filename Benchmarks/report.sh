#!/usr/bin/env bash
# Makes REPORT.md and report.svg here, and rewrites the performance table in ../README.md
# (perf_table.py): generates the benchmark inputs, runs the short benchmark pass (this package
# against Foundation in one run), and times whole-process conversions of the inputs with plistconv
# and every other converter installed (the Swift toolchain's plutil, libplist's plistutil, Python's
# plistlib), then appends the preferences-store comparison (store_ratios.sh, lost_updates.sh).
# Takes 10-20 minutes. WORK=folder for the inputs (default below).
set -euo pipefail
cd "$(dirname "$0")"
work="${WORK:-/tmp/plist-bench-report}"
mkdir -p "$work/inputs"

swift build -c release --package-path .. --product plistconv >&2
swift build -c release --product plist-bench-inputs >&2
.build/release/plist-bench-inputs "$work/inputs"

status=0
PLIST_BENCH_SHORT=1 BENCH_INPUTS="$work/inputs" ./ratios.sh >"$work/ratios.md" || status=$?
python3 report.py --plistconv "$(swift build -c release --package-path .. --show-bin-path)/plistconv" \
    --inputs "$work/inputs" --work "$work" --ratios "$work/ratios.md" --command "Benchmarks/report.sh"
{
    echo
    echo "## Preferences store: PlistStore against Foundation's UserDefaults, same run (p50)"
    echo
    ./store_ratios.sh
    echo
    echo "Lost updates (\`lost_updates.sh\`): 8 processes write 200 distinct keys each into one domain at once."
    echo
    ./lost_updates.sh
} >>REPORT.md
exit "$status"
