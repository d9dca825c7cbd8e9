#!/usr/bin/env bash
# Start-up of the tool, whole process, every figure in one run (issue 47 item 3):
#   1. a 2 KB file: plistconv built as the README installs it (release, the Swift runtime linked
#      in) converting Fixtures/sample/Info.binary.plist to XML, output on tmpfs, against a
#      Swift program that only prints (built -O with the Swift runtime linked in, and as a
#      static executable), libplist's plistutil, the Swift toolchain's plutil and Python's
#      plistlib doing the same conversion;
#   2. git's textconv: `git log -p` over a binary Info.plist with REVISIONS revisions (default
#      200), each converter as the textconv command (the printing program gives git's own cost);
#   3. where plistconv's start-up goes: the dynamic loader's own statistics (LD_DEBUG).
# Prints Markdown; the ratio column divides by plistconv's time of the same run. Needs hyperfine
# (apt-get install hyperfine); a converter that is not installed is left out, and said so.
#
#   Benchmarks/startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
revisions=${REVISIONS:-200}
work=$(mktemp -d "${TMPFS:-/dev/shm}/plist-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT

# As README.md installs it.
swift build -c release --static-swift-stdlib --product plistconv >&2
cp "$(swift build -c release --static-swift-stdlib --show-bin-path)/plistconv" "$work/plistconv"
printf 'print("hello")\n' >"$work/hello.swift"
swiftc -O -static-stdlib "$work/hello.swift" -o "$work/hello" 2>/dev/null
swiftc -O -static-executable "$work/hello.swift" -o "$work/hello-static" 2>/dev/null
cp Fixtures/sample/Info.binary.plist "$work/Info.plist"
cat >"$work/plistlib-xml.py" <<'EOF'
import plistlib, sys
with open(sys.argv[1], "rb") as f:
    value = plistlib.load(f)
out = open(sys.argv[2], "wb") if len(sys.argv) > 2 else sys.stdout.buffer
plistlib.dump(value, out, fmt=plistlib.FMT_XML)
EOF

# name, command (run without a shell; the last word is the input for textconv)
names=("plistconv" "Swift program that only prints (runtime linked in)" "the same, static executable")
small=("$work/plistconv -f xml $work/Info.plist $work/out.xml" "$work/hello" "$work/hello-static")
textconv=("$work/plistconv diff --textconv" "$work/hello" "$work/hello-static")
missing=()
if command -v plistutil >/dev/null; then
    names+=("plistutil (libplist)")
    small+=("plistutil -f xml -i $work/Info.plist -o $work/out.xml")
    textconv+=("plistutil -f xml -o - -i")
else missing+=("plistutil"); fi
if command -v plutil >/dev/null; then
    names+=("plutil ($(command -v plutil))")
    small+=("plutil -convert xml1 -o $work/out.xml $work/Info.plist")
    textconv+=("plutil -convert xml1 -o -")
else missing+=("plutil"); fi
if command -v python3 >/dev/null; then
    # The interpreter itself, not a version manager's shim script in front of it.
    python=$(python3 -c 'import sys; print(sys.executable)')
    names+=("Python plistlib")
    small+=("$python $work/plistlib-xml.py $work/Info.plist $work/out.xml")
    textconv+=("$python $work/plistlib-xml.py")
else missing+=("python3"); fi

# Markdown rows from hyperfine's JSON: mean and min, and their ratios to plistconv's (the min is
# the steadier figure on a shared machine).
table() {
    python3 - "$1" "${names[@]}" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
mean, least = results[0]["mean"], results[0]["min"]
print("| command | mean | min | ratio to plistconv (mean) | ratio (min) |")
print("|---|---:|---:|---:|---:|")
for name, r in zip(sys.argv[2:], results):
    print(f"| {name} | {r['mean'] * 1e3:.2f} ms ± {r['stddev'] * 1e3:.2f} | {r['min'] * 1e3:.2f} ms "
          f"| {r['mean'] / mean:.2f} | {r['min'] / least:.2f} |")
EOF
}

echo "### A 2 KB binary file to XML, whole process (output on tmpfs)"
echo
hyperfine -N --warmup 20 --min-runs 200 --export-json "$work/small.json" "${small[@]}" >/dev/null 2>&1
table "$work/small.json"
echo

# A repository whose Info.plist (binary) changes in every commit: the sample with a growing list
# and a version number, written by plistlib, committed through fast-import.
python3 - "$work/repo" "$work/Info.plist" "$revisions" <<'EOF'
import plistlib, subprocess, sys
folder, sample, revisions = sys.argv[1], sys.argv[2], int(sys.argv[3])
subprocess.run(["git", "init", "-q", folder], check=True)
value = plistlib.load(open(sample, "rb"))
stream = bytearray()
for i in range(revisions):
    value["CFBundleVersion"] = str(i)
    value.setdefault("History", []).append({"build": i, "note": f"revision {i}"})
    data = plistlib.dumps(value, fmt=plistlib.FMT_BINARY)
    message = f"revision {i}\n".encode()
    stream += b"commit refs/heads/main\ncommitter A <a@example.com> %d +0000\n" % (1700000000 + i)
    stream += b"data %d\n%s" % (len(message), message)
    stream += b"M 100644 inline Info.plist\ndata %d\n%s\n" % (len(data), data)
subprocess.run(["git", "-C", folder, "fast-import", "--quiet"], input=bytes(stream), check=True)
subprocess.run(["git", "-C", folder, "symbolic-ref", "HEAD", "refs/heads/main"], check=True)
EOF
echo "Info.plist diff=plist" >"$work/repo/.git/info/attributes"
logs=()
for command in "${textconv[@]}"; do
    logs+=("git -C $work/repo -c diff.plist.textconv='$command' -c diff.plist.cachetextconv=false log -p --no-color")
done
echo "### \`git log -p\` over $revisions revisions of a binary Info.plist, each as git's textconv command"
echo
hyperfine --warmup 1 --runs 3 --export-json "$work/textconv.json" "${logs[@]}" >/dev/null 2>&1
table "$work/textconv.json"
echo
if [ ${#missing[@]} -gt 0 ]; then echo "Not installed, not measured: ${missing[*]}."; echo; fi

# The loader's own time (relocations and all), in processor cycles, for plistconv and the
# printing program: what start-up costs before main.
loader() {
    LD_DEBUG=statistics "$@" 2>&1 >/dev/null | sed -n 's/.*total startup time in dynamic loader: *\([0-9]*\) cycles.*/\1/p' | head -1
}
echo "Dynamic loader (\`LD_DEBUG=statistics\`, one run): plistconv $(loader "$work/plistconv" -f xml "$work/Info.plist" "$work/out.xml") cycles, the printing program $(loader "$work/hello") cycles."
