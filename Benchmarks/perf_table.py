#!/usr/bin/env python3
"""Writes the README's performance table from the in-process table of a benchmark report.

Reads the rows `| input | operation | PlistCore p50 | Foundation p50 | ratio | ...` that ratios.sh
prints (and REPORT.md holds), and replaces the lines of README.md between
`<!-- perf-table:begin -->` and `<!-- perf-table:end -->` with one compact table: Foundation's time
divided by this package's, for the headline operations on itunes-library and small-info.

    python3 Benchmarks/perf_table.py [--report Benchmarks/REPORT.md] [--readme README.md]

report.py calls `update` after each report, so the README shows the numbers of the latest one.
"""

import argparse
import os
import sys

BEGIN = "<!-- perf-table:begin -->"
END = "<!-- perf-table:end -->"
FILES = ["itunes-library", "small-info"]
# (operation in the report, label in the README)
ROWS = [
    ("read codable", "`PlistDecoder`, binary"),
    ("read codable_xml", "`PlistDecoder`, XML"),
    ("write codable", "`PlistEncoder`, binary"),
    ("write codable_xml", "`PlistEncoder`, XML"),
    ("read binary", "read binary into `Plist`"),
    ("read xml", "read XML into `Plist`"),
    ("write binary", "write binary from `Plist`"),
    ("write xml", "write XML from `Plist`"),
]


def ratios(lines):
    """(input, operation) -> Foundation / PlistCore, from the rows of an in-process table."""
    found, inside = {}, False
    for line in lines:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "input":  # only the table whose third column is PlistCore's, not the peer table
            inside = len(cells) > 2 and cells[2].startswith("PlistCore")
        if not inside or len(cells) < 5 or cells[0] in ("input", "---"):
            continue
        try:
            found[cells[0], cells[1]] = float(cells[4])
        except ValueError:
            pass
    return found


def table(found):
    """The Markdown block that goes between the markers."""
    lines = [
        BEGIN,
        "| operation | " + " | ".join(FILES) + " |",
        "| --- | " + " | ".join("---:" for _ in FILES) + " |",
    ]
    for operation, label in ROWS:
        cells = [f"{found[file, operation]:.2f}×" if (file, operation) in found else "–" for file in FILES]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append(END)
    return lines


def update(report, readme):
    """Rewrites the block in `readme` from the in-process table in `report`."""
    with open(report) as source:
        found = ratios(source)
    if not found:
        sys.exit(f"{report}: no in-process table found")
    with open(readme) as source:
        text = source.read().split("\n")
    try:
        start, end = text.index(BEGIN), text.index(END)
    except ValueError:
        sys.exit(f"{readme}: the markers {BEGIN} and {END} are missing")
    text[start:end + 1] = table(found)
    with open(readme, "w") as out:
        out.write("\n".join(text))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report", default=os.path.join(here, "REPORT.md"))
    parser.add_argument("--readme", default=os.path.join(here, "..", "README.md"))
    args = parser.parse_args()
    update(args.report, args.readme)


if __name__ == "__main__":
    main()
