#!/usr/bin/env bash
# Counts the keys that survive when 8 processes each write 200 distinct keys into one domain at
# the same time, synchronizing after every key: through Foundation's UserDefaults (which on Linux
# rewrites the file in place without a lock) and through PlistStore. Prints a Markdown table.
# Builds the probe and plistconv (debug) in the repository if they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=.build/debug
[ -x "$bin/plist-store-probe" ] || swift build --product plist-store-probe >&2
[ -x "$bin/plistconv" ] || swift build --product plistconv >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/xdg" "$work/store"

pids=()
for writer in 0 1 2 3 4 5 6 7; do
    XDG_CONFIG_HOME="$work/xdg" "$bin/plist-store-probe" foundation-write lost "p$writer" 200 & pids+=($!)
done
wait "${pids[@]}"
pids=()
for writer in 0 1 2 3 4 5 6 7; do
    PLIST_CONTAINER_ROOT="$work/store" "$bin/plist-store-probe" write lost "p$writer" 200 1 & pids+=($!)
done
wait "${pids[@]}"

count() { # keys in a domain file, or "unreadable"
    "$bin/plistconv" print "$1" >/dev/null 2>&1 || { echo unreadable; return; }
    "$bin/plistconv" print "$1" | grep -c ' => '
}
echo "| 8 processes x 200 keys, synchronize after each | keys kept (of 1,600) |"
echo "| --- | ---: |"
echo "| Foundation UserDefaults | $(count "$work/xdg/lost.plist") |"
echo "| PlistStore | $(count "$work/store/Library/Preferences/lost.plist") |"
