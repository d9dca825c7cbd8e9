#!/usr/bin/env bash
# Builds the fuzz targets (libFuzzer + address sanitizer) and runs each for the given number
# of seconds, one after another, at the lowest CPU priority. Usage: Fuzz/run.sh [seconds] [target...]
#
# Each target's corpus grows in .build-fuzz/corpus/<target> (outside git), seeded from the
# shared corpus files of the formats named on the `// Seeds:` line of its main.swift and from
# Fuzz/Seeds/<target>/. A crash,
# a failed property or a timeout leaves its input in .build-fuzz/artifacts/<target>/ and makes
# the script fail; copy that input into Fixtures/fuzz/<target>/ once it is fixed. Each run adds
# its summary line to .build-fuzz/history.txt, for totals across sessions. The timeout
# is 30 s, not less: at nice 19 on a busy machine a 0.1 s input can wait seconds for a CPU.
set -euo pipefail

seconds=${1:-60}
shift || true
fuzz=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$fuzz")
scratch=${PLIST_FUZZ_SCRATCH:-"$root/.build-fuzz"}  # build, corpus and findings
corpus_source=${PLIST_CORPUS:-"${PLIST_SHARED:-$root/../shared}/corpus"}

if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for dir in "$fuzz"/Sources/Fuzz*/; do
        [ -f "$dir/main.swift" ] && targets+=("$(basename "$dir")")
    done
fi

export SWIFT_BACKTRACE=enable=no  # let libFuzzer and the sanitizer report crashes
if [ -z "${PLIST_FUZZ_NO_BUILD:-}" ]; then  # set it to run what is built while sources change
    build_start=$(date +%s)
    mkdir -p "$scratch"
    if ! nice -n 19 swift build -c release --package-path "$fuzz" --scratch-path "$scratch" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld >"$scratch/build.log" 2>&1; then
        grep -v '^\[' "$scratch/build.log" | tail -40
        echo "build failed (see $scratch/build.log)"
        exit 1
    fi
    echo "build: $(($(date +%s) - build_start)) s"
fi

status=0
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    artifacts="$scratch/artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    # Seeds: a format of the manifest; `json`, the corpus's expected values (JSON files); or
    # `samples`, what the target writes with --write-seeds=FOLDER.
    formats=$(sed -n 's|^// Seeds: *||p' "$fuzz/Sources/$target/main.swift")
    for format in $formats; do
        if [ "$format" = samples ]; then
            "$scratch/release/$target" --write-seeds="$corpus"
        elif [ "$format" = json ] && [ -d "$corpus_source/expected" ]; then
            (cd "$corpus_source" && find expected -name '*.json') | while read -r file; do
                cp -n "$corpus_source/$file" "$corpus/seed-$(echo "$file" | tr / _)" 2>/dev/null || true
            done
        elif [ -f "$corpus_source/MANIFEST.tsv" ]; then
            awk -F'\t' -v format="$format" 'NR > 1 && $2 == format { print $1 }' "$corpus_source/MANIFEST.tsv" |
                while read -r file; do
                    cp -n "$corpus_source/$file" "$corpus/seed-$(echo "$file" | tr / _)" 2>/dev/null || true
                done
        fi
    done
    if [ -d "$fuzz/Seeds/$target" ]; then  # hand-written seeds (the shared corpus has no JSON)
        for seed in "$fuzz/Seeds/$target"/*; do cp -n "$seed" "$corpus/seed-$(basename "$seed")"; done
    fi
    dictionary=()
    [ -f "$fuzz/Dictionaries/$target.dict" ] && dictionary=("-dict=$fuzz/Dictionaries/$target.dict")
    log="$scratch/$target.log"
    if nice -n 19 "$scratch/release/$target" "$corpus" "${dictionary[@]}" -max_total_time="$seconds" \
        -max_len=65536 -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" >"$log" 2>&1; then
        result=ok
    else
        result="FAILED (see $log and $artifacts)"
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    coverage=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1 || true)
    elapsed=$(sed -n "s/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p" "$log")
    summary="$target: ${runs:-0} executions in ${elapsed:-?} s, $coverage, corpus $(ls "$corpus" | wc -l) files: $result"
    echo "$summary"
    echo "$(date -u +%FT%TZ) $summary" >>"$scratch/history.txt"  # totals across sessions
done
exit $status
