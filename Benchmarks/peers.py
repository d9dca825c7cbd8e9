#!/usr/bin/env python3
"""The in-process table against libplist (C) and rust `plist`, with peak RSS, for REPORT.md.

report.sh runs the peer harness (`../shared/peers/run.sh`, steps build, corpus and inproc, with
PROJECT_DIR set to this checkout and PEERS="swift-plist libplist rust-plist"), which times each
runner in its own process: decode and encode, best of REPS. This module reads those times, then
measures the peak RSS of each runner converting each corpus file (convert mode, one child per
measurement, peak RSS from GNU time), less that of the same runner converting the 2 KB
`small-info`, and returns the Markdown section. report.py calls `section`.

    python3 Benchmarks/peers.py PEERS_OUT PEERS_BUILD PEERS_CORPUS   # print the section alone
"""

import glob
import json
import os
import subprocess
import sys

# column -> (name in the runners' output, runner below the build folder)
PEERS = {
    "this package": ("swift-plist", "swift-plist-peer"),
    "libplist": ("libplist", "libplist-peer"),
    "rust plist": ("rust-plist", "rust-plist/target/release/rust-plist-peer"),
}
FILES = ["itunes-library", "strings-unicode", "blobs", "numbers", "keyed-archive-like", "small-info", "deep"]
# (label, format, op in the runners' output): binary read and XML write come from the runner reading
# the binary file, XML read and binary write from the one reading the XML file.
OPS = [("binary read", "binary", "decode"), ("binary write", "binary", "encode"),
       ("XML read", "xml", "decode"), ("XML write", "xml", "encode")]
BASELINE = "small-info"


def show(seconds):
    if seconds >= 0.1:
        return f"{seconds:.3f}"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def times(out_dir):
    """(peer, format, op, file) -> best seconds (the best of the rounds) or a failure status."""
    found = {}
    for path in sorted(glob.glob(os.path.join(out_dir, "raw", "inproc-r*.txt"))):
        with open(path) as lines:
            for line in lines:
                parts = line.split()
                if len(parts) != 6:
                    continue
                peer, fmt, op, file, _, value = parts
                key = (peer, fmt, op, file)
                try:
                    seconds = float(value)
                except ValueError:
                    found.setdefault(key, value)
                    continue
                if not isinstance(found.get(key), float) or seconds < found[key]:
                    found[key] = seconds
    return found


def peak_rss(argv, scratch, timeout=900):
    """Peak RSS in bytes of one child running argv, or why it failed. GNU time reports it: a process
    spawned straight from Python would start from Python's own high-water mark (Linux keeps the
    largest RSS across exec), which is larger than a small runner's."""
    report = os.path.join(scratch, "rss.txt")
    done = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", report, "timeout", str(timeout)] + argv,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if done.returncode != 0:
        return f"timed out ({timeout} s)" if done.returncode == 124 else f"exit {done.returncode}"
    with open(report) as lines:
        return int(lines.read().split()[-1]) * 1024


def memory(build_dir, corpus, scratch, files):
    """(column, input format, file) -> peak RSS bytes of converting the file to the other format."""
    found = {}
    for column, (_, runner) in PEERS.items():
        path = os.path.join(build_dir, runner)
        if not os.access(path, os.X_OK):
            continue
        for fmt in ("binary", "xml"):
            for file in [BASELINE] + [f for f in files if f != BASELINE]:
                source = os.path.join(corpus, f"{file}.{fmt}.plist")
                output = os.path.join(scratch, f"rss-out.{fmt}")
                if os.path.exists(source):
                    other = "xml" if fmt == "binary" else "binary"
                    found[column, fmt, file] = peak_rss([path, "-f", other, source, output], scratch)
                if os.path.exists(output):
                    os.remove(output)
    return found


def megabytes(n):
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.1f} KB"


def section(out_dir, build_dir, corpus, scratch):
    """The Markdown lines of the peer section (a note instead when the harness did not run)."""
    lines = ["", "## In process: this package against libplist (C) and rust `plist`, same run", ""]
    manifest_path = os.path.join(corpus, "MANIFEST.json")
    found = times(out_dir)
    if not found or not os.path.exists(manifest_path):
        return lines + ["The peer harness did not run (see report.sh's output): no peer table.", ""]
    manifest = json.load(open(manifest_path))["files"]
    files = [f for f in FILES if f in manifest]
    missing = [f"{column} (runner not built; see {out_dir}/logs/)" for column, (_, runner) in PEERS.items()
               if not os.access(os.path.join(build_dir, runner), os.X_OK)]
    settings = ""
    versions = os.path.join(out_dir, "versions.txt")
    if os.path.exists(versions):
        wanted = ("libplist:", "rustc:", "settings:")
        settings = "; ".join(line.strip() for line in open(versions) if line.startswith(wanted))
    lines += [
        "Runners and inputs of the peer harness (`../shared/peers/run.sh`, inputs from its "
        "`gen_corpus.py`), each peer in its own process per input and format: seconds, best of the "
        "runs (tiny inputs looped, per call). Binary read and XML write come from the process "
        "reading the binary file, XML read and binary write from the one reading the XML file. "
        "Ratio = this package / the fastest peer: at most 1.00 means at or below it.",
        "",
    ] + ([f"Settings: {settings}", ""] if settings else [])
    if missing:
        lines += ["Not measured: " + ", ".join(missing) + ".", ""]
    columns = list(PEERS)
    lines += ["| input | operation | " + " | ".join(columns) + " | fastest peer | ratio |",
              "| --- | --- | " + " | ".join("---:" for _ in columns) + " | --- | ---: |"]
    at_or_below, cells = 0, 0
    for file in files:
        for label, fmt, op in OPS:
            values = {column: found.get((name, fmt, op, file)) for column, (name, _) in PEERS.items()}
            texts = [show(v) if isinstance(v, float) else (v or "–") for v in values.values()]
            peers = {c: v for c, v in values.items() if c != columns[0] and isinstance(v, float)}
            ours = values[columns[0]]
            fastest = min(peers, key=peers.get) if peers else None
            ratio = "–"
            if fastest and isinstance(ours, float):
                cells += 1
                at_or_below += ours <= peers[fastest]
                ratio = f"{ours / peers[fastest]:.2f}" + ("" if ours <= peers[fastest] else " ▲")
            elif fastest:
                cells += 1
                ratio = "fails"
            lines.append(f"| {file} | {label} | " + " | ".join(texts) + f" | {fastest or '–'} | {ratio} |")
    lines += ["", f"At or below the fastest peer: {at_or_below} of {cells} cells (▲: above).", ""]

    rss = memory(build_dir, corpus, scratch, files)
    lines += [
        "### Peak RSS of one conversion",
        "",
        "Each runner converting each input to the other format in its own process (read the file, "
        "decode, encode, write; peak RSS from GNU `time`), less the peak of the same runner converting "
        f"`{BASELINE}` ({megabytes(manifest[BASELINE]['binary'])} binary, "
        f"{megabytes(manifest[BASELINE]['xml'])} XML), and that difference as a multiple of the input "
        "size. The baseline row shows the baseline itself.",
        "",
        "| input | conversion | input size | " + " | ".join(columns) + " |",
        "| --- | --- | ---: | " + " | ".join("---:" for _ in columns) + " |",
    ]
    for file in files:
        for fmt in ("binary", "xml"):
            size = manifest[file][fmt]
            cells = []
            for column in columns:
                peak, base = rss.get((column, fmt, file)), rss.get((column, fmt, BASELINE))
                if (column, fmt, file) not in rss:
                    cells.append("–")
                elif not isinstance(peak, int) or not isinstance(base, int):
                    cells.append(peak if isinstance(peak, str) else "fails")
                elif file == BASELINE:
                    cells.append(f"{peak / 2**20:.1f} MiB (baseline)")
                else:
                    over = max(peak - base, 0)
                    cells.append(f"{over / 2**20:.1f} MiB, {over / size:.1f}×")
            conversion = "binary → XML" if fmt == "binary" else "XML → binary"
            lines.append(f"| {file} | {conversion} | {megabytes(size)} | " + " | ".join(cells) + " |")
    return lines + [""]


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    out_dir, build_dir, corpus = argv
    print("\n".join(section(out_dir, build_dir, corpus, out_dir)))


if __name__ == "__main__":
    main(sys.argv[1:])
