#!/usr/bin/env python3
"""Times whole-process conversions of the benchmark inputs with every converter installed and writes
REPORT.md and report.svg: the size of each format per input, the in-process table from ratios.sh,
the in-process table against libplist and rust plist with peak RSS (peers.py, from the peer harness's
output), and the throughput of each tool per conversion, then the README's performance table
(perf_table.py). Called by report.sh, which makes the inputs and runs the harnesses."""

import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

import peers
import perf_table

PLISTLIB = ("import plistlib, sys; plistlib.dump(plistlib.load(open(sys.argv[1], 'rb')), "
            "open(sys.argv[2], 'wb'), fmt=plistlib.FMT_{fmt})")
# (output format, input format): the conversions measured, each from the file in the input format.
CONVERSIONS = [("xml", "binary"), ("binary", "xml")]
FILES = ["itunes-library", "numbers", "strings-unicode", "blobs", "keyed-archive-like", "pbxproj-like"]


def tools(plistconv):
    """Each installed converter: name -> function(input, output, output format) -> argv."""
    found = {"plistconv": lambda i, o, f: [plistconv, "-f", f, i, o]}
    if shutil.which("plutil"):
        found["plutil (Swift toolchain)"] = lambda i, o, f: ["plutil", "-convert", f + "1", "-o", o, i]
    if shutil.which("plistutil"):
        found["plistutil (libplist)"] = lambda i, o, f: ["plistutil", "-i", i, "-o", o, "-f", "bin" if f == "binary" else f]
    found["plistlib (Python)"] = lambda i, o, f: [sys.executable, "-c", PLISTLIB.format(fmt=f.upper()), i, o]
    return found


def timed(argv, output, runs, timeout):
    """Median seconds of `runs` runs and no error, or None and why the tool failed to write `output`."""
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        try:
            done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {timeout} s"
        if done.returncode != 0 or not os.path.exists(output) or not os.path.getsize(output):
            return None, done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["failed"]
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), None


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            model = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} CPUs ({model}), {memory:.0f} GiB RAM, {platform.system()} {platform.release()}"


def bar_chart(title, groups, series, unit, x, y, width):
    """An SVG fragment: horizontal bars, one group per label, one bar per series."""
    colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    peak = max((v for _, values in groups for v in values if v), default=1)
    bar, gap, label_width = 12, 10, 220
    parts = [f'<text x="{x}" y="{y + 14}" font-weight="bold">{title}</text>']
    cy = y + 28
    for index, name in enumerate(series):
        parts.append(f'<rect x="{x + label_width + index * 190}" y="{cy - 9}" width="10" height="10" fill="{colors[index]}"/>'
                     f'<text x="{x + label_width + 14 + index * 190}" y="{cy}">{name}</text>')
    cy += 12
    for label, values in groups:
        parts.append(f'<text x="{x}" y="{cy + bar * len(series) / 2 + 4}">{label}</text>')
        for index, value in enumerate(values):
            length = (width - label_width - 90) * (value or 0) / peak
            text = f"{value:,.0f} {unit}" if value else "failed / not run"
            parts.append(f'<rect x="{x + label_width}" y="{cy}" width="{length:.1f}" height="{bar - 2}" fill="{colors[index]}"/>'
                         f'<text x="{x + label_width + length + 4:.1f}" y="{cy + bar - 3}" font-size="10">{text}</text>')
            cy += bar
        cy += gap
    return "\n".join(parts), cy


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plistconv", required=True)
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--ratios", required=True, help="the Markdown table ratios.sh printed")
    parser.add_argument("--command", required=True, help="the command that made the report, for the record")
    parser.add_argument("--peers", nargs=3, metavar=("OUT", "BUILD", "CORPUS"),
                        help="the peer harness's output, build and corpus folders (run.sh's OUT, BUILD, CORPUS)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=int, default=300)
    args = parser.parse_args()

    formats = sorted({name.rsplit(".", 2)[1] for name in os.listdir(args.inputs) if name.endswith(".plist")},
                     key=lambda f: ["binary", "xml", "openstep", "json"].index(f) if f in ["binary", "xml", "openstep", "json"] else 9)
    inputs = sorted({name.rsplit(".", 2)[0] for name in os.listdir(args.inputs) if name.endswith(".plist")})
    size = {(i, f): os.path.getsize(os.path.join(args.inputs, f"{i}.{f}.plist"))
            for i in inputs for f in formats if os.path.exists(os.path.join(args.inputs, f"{i}.{f}.plist"))}

    converters = tools(args.plistconv)
    results = {}  # (tool, conversion, file) -> MB/s or None
    notes = []
    for output_format, input_format in CONVERSIONS:
        for file in FILES:
            source = os.path.join(args.inputs, f"{file}.{input_format}.plist")
            if not os.path.exists(source):
                continue
            for tool, command in converters.items():
                output = os.path.join(args.work, f"out-{tool.split()[0]}.{output_format}")
                seconds, error = timed(command(source, output, output_format), output, args.runs, args.timeout)
                key = (tool, f"{input_format} → {output_format}", file)
                results[key] = size[file, input_format] / seconds / 1e6 if seconds else None
                if error:
                    notes.append(f"{tool}, {key[1]}, {file}: {' '.join(error) if isinstance(error, list) else error}")
                print(f"{key[1]:18} {file:20} {tool:28} "
                      f"{f'{results[key]:8.1f} MB/s' if results[key] else 'failed'}", file=sys.stderr)
                if os.path.exists(output):
                    os.remove(output)

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Benchmark report", "",
        f"Made {date} on {machine()} with `{args.command}`. Inputs are generated by "
        "`plist-bench-inputs` (deterministic, nothing large is committed); see `README.md` here.", "",
        "## Size of each format", "",
        "| input | " + " | ".join(formats) + " | XML / binary |",
        "| --- | " + " | ".join("---:" for _ in formats) + " | ---: |",
    ]
    for i in inputs:
        cells = [f"{size[i, f] / 1e6:,.2f} MB" if size.get((i, f), 0) >= 1e5 else
                 (f"{size[i, f] / 1e3:,.1f} KB" if (i, f) in size else "–") for f in formats]
        ratio = f"{size[i, 'xml'] / size[i, 'binary']:.1f}×" if (i, "xml") in size and (i, "binary") in size else "–"
        lines.append(f"| {i} | " + " | ".join(cells) + f" | {ratio} |")
    lines += ["", "## In process: this package against Foundation, same run (p50 of the short pass)", ""]
    with open(args.ratios) as table:
        lines += [line.rstrip("\n") for line in table if line.startswith("|")]
    if args.peers:
        lines += peers.section(*args.peers, args.work)
    lines += ["", "## Whole-process conversions (MB/s of input, median of "
              f"{args.runs} runs, including process start)", ""]
    tool_names = list(converters)
    lines += ["| conversion | input | " + " | ".join(tool_names) + " |",
              "| --- | --- | " + " | ".join("---:" for _ in tool_names) + " |"]
    for conversion in dict.fromkeys(k[1] for k in results):
        for file in FILES:
            if (tool_names[0], conversion, file) not in results:
                continue
            cells = [f"{results[t, conversion, file]:,.1f}" if results.get((t, conversion, file)) else "failed"
                     for t in tool_names]
            lines.append(f"| {conversion} | {file} | " + " | ".join(cells) + " |")
    if notes:
        lines += ["", "Failures:", ""] + [f"- {note}" for note in notes]
    lines += ["", "![sizes and throughput](report.svg)", ""]
    with open("REPORT.md", "w") as out:
        out.write("\n".join(lines))

    width = 900
    size_chart, y = bar_chart("Size per format (KB)", [(i, [size.get((i, f), 0) / 1e3 for f in formats]) for i in inputs],
                              formats, "KB", 10, 10, width)
    charts = [size_chart]
    for conversion in dict.fromkeys(k[1] for k in results):
        groups = [(f, [results.get((t, conversion, f)) for t in tool_names]) for f in FILES
                  if (tool_names[0], conversion, f) in results]
        chart, y = bar_chart(f"Whole-process {conversion} (MB/s of input, higher is better)", groups, tool_names,
                             "MB/s", 10, y + 20, width)
        charts.append(chart)
    with open("report.svg", "w") as out:
        out.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + 20}" '
                  f'font-family="sans-serif" font-size="12">\n<rect width="100%" height="100%" fill="white"/>\n'
                  + "\n".join(charts) + "\n</svg>\n")
    perf_table.update("REPORT.md", os.path.join("..", "README.md"))
    print(open("REPORT.md").read())


if __name__ == "__main__":
    main()
