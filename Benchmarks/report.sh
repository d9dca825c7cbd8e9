#!/usr/bin/env bash
# Makes REPORT.md and report.svg here, and rewrites the performance table in ../README.md
# (perf_table.py): generates the benchmark inputs, runs the short benchmark pass (this package
# against Foundation in one run), and times whole-process conversions of the inputs with plistconv
# and every other converter installed (the Swift toolchain's plutil, libplist's plistutil, Python's
# plistlib), then appends the preferences-store comparison (store_ratios.sh, lost_updates.sh), the
# large-file measurements (large-files.sh) and the start-up comparison (startup.sh).
# The in-process table against libplist and rust plist comes from the peer harness
# (PEERS_DIR, default ../shared/peers beside this checkout: run.sh builds its runners, one of them
# this checkout through PROJECT_DIR, makes its corpus and times each peer), with peak RSS measured
# by peers.py; peers that cannot be built are reported as not measured. Needs libplist-dev and
# librust-plist-dev (see run.sh's header). PEER_REPS (default 3) runs per peer measurement, best
# kept, fewer once PEER_BUDGET seconds (default 10) are spent on one (libplist's binary writes of the
# large inputs take tens of seconds each). Takes 20-30 minutes on an idle 2-core machine, the first
# run longer (it builds the peers and their corpus into WORK); see docs/PERFORMANCE.md.
# WORK=folder for the inputs (default below).
set -euo pipefail
cd "$(dirname "$0")"
work="${WORK:-/tmp/plist-bench-report}"
peers_dir="${PEERS_DIR:-$(cd ../.. && pwd)/shared/peers}"
mkdir -p "$work/inputs"

swift build -c release --package-path .. --product plistconv >&2
swift build -c release --product plist-bench-inputs >&2
.build/release/plist-bench-inputs "$work/inputs"

status=0
PLIST_BENCH_SHORT=1 BENCH_INPUTS="$work/inputs" ./ratios.sh >"$work/ratios.md" || status=$?
rm -rf "$work/peers/out"
if [[ -f "$peers_dir/run.sh" ]]; then
    PROJECT_DIR="$(cd .. && pwd)" PEERS="swift-plist libplist rust-plist" STEPS="build corpus inproc" \
        CORPUS="$work/peers/corpus" BUILD="$work/peers/build" OUT="$work/peers/out" EDGE_FILES="" \
        ROUNDS=1 REPS="${PEER_REPS:-3}" BUDGET="${PEER_BUDGET:-10}" bash "$peers_dir/run.sh" >&2 || echo "report.sh: the peer harness failed" >&2
else
    echo "report.sh: no peer harness at $peers_dir (set PEERS_DIR): no peer table" >&2
fi
python3 report.py --peers "$work/peers/out" "$work/peers/build" "$work/peers/corpus" --plistconv "$(swift build -c release --package-path .. --show-bin-path)/plistconv" \
    --inputs "$work/inputs" --work "$work" --ratios "$work/ratios.md" --command "Benchmarks/report.sh"
{
    echo
    echo "## Preferences store: PlistStore against Foundation's UserDefaults, same run"
    echo
    ./store_ratios.sh
    echo
    echo "Lost updates (\`lost_updates.sh\`): 8 processes write 200 distinct keys each into one domain at once."
    echo
    ./lost_updates.sh
    echo
    echo "## Large files: memory and time"
    echo
    echo "\`large-files.sh\` (whole process, peak RSS from GNU \`time\`; in-memory variants read a pipe):"
    echo
    echo '```'
    ./large-files.sh 2>&1
    echo '```'
    echo
    echo "## Start-up: the tool on a small file and as git's textconv, same run"
    echo
    ./startup.sh
} >>REPORT.md
exit "$status"
