#!/usr/bin/env python3
"""make-fixtures.py - writes the small fixture set in Fixtures/valid and Fixtures/invalid.

Usage:
  Scripts/make-fixtures.py                 write every fixture (the .error files are left alone)
  Scripts/make-fixtures.py --check         write nothing; exit 1 if a fixture on disk differs
                                           from what this script makes, or is missing or extra
  Scripts/make-fixtures.py --write-errors  also write each invalid fixture's golden .error file:
                                           the message `plistconv lint` prints for it (run with
                                           `swift run plistconv`); review every one by eye

Binary and XML files are written by CPython's plistlib (an implementation independent of this
package), or built byte by byte here for invalid binary files. OpenStep, GNUstep, .strings and
JSON files are literal text in this script. Tests/PlistKitTests/FixtureTests.swift reads them all:
every format of a valid case must read as the value written out in Swift there, and every invalid
file must fail with the exact message in its .error file.
"""

import datetime
import os
import plistlib
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Fixtures")


def binary(value):
    return plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False)


def xml(value):
    return plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=False)


def text(string):
    return string.encode("utf-8")


# MARK: - Valid cases: one value, several formats

DATE = datetime.datetime(2024, 2, 29, 12, 34, 56)  # naive: plistlib takes it as UTC

SCALARS = {
    "string": "plain ASCII",
    "non-ASCII": "h\u00e9llo w\u00f6rld \u2713 \u65e5\u672c\u8a9e \U0001F600",
    "empty string": "",
    "zero": 0,
    "negative": -42,
    "int64 min": -(2**63),
    "int64 max": 2**63 - 1,
    "above int64 max": 2**63,
    "uint64 max": 2**64 - 1,
    "real": 1.5,
    "negative real": -0.25,
    "true": True,
    "false": False,
    "date": DATE,
    "data": bytes([0, 1, 2, 3, 0x7F, 0x80, 0xFE, 0xFF]),
    "empty data": b"",
    "array": ["a", 1, [], {}],
    "empty array": [],
    "dictionary": {"nested": {"key": "value"}},
    "empty dictionary": {},
}

SCALARS_GNUSTEP = """\
// Every value type GNUstep's typed values hold.
{
\tstring = "plain ASCII";
\t"non-ASCII" = "h\u00e9llo w\u00f6rld \u2713 \u65e5\u672c\u8a9e \U0001F600";
\t"empty string" = "";
\tzero = <*I0>;
\tnegative = <*I-42>;
\t"int64 min" = <*I-9223372036854775808>;
\t"int64 max" = <*I9223372036854775807>;
\t"above int64 max" = <*I9223372036854775808>;
\t"uint64 max" = <*I18446744073709551615>;
\treal = <*R1.5>;
\t"negative real" = <*R-0.25>;
\ttrue = <*BY>;
\tfalse = <*BN>;
\tdate = <*D2024-02-29 12:34:56 +0000>;
\tdata = <00010203 7f80feff>;
\t"empty data" = <>;
\tarray = (a, <*I1>, (), {});
\t"empty array" = ();
\tdictionary = { nested = { key = value; }; };
\t"empty dictionary" = {};
}
"""

SCALARS_JSON = """\
{
  "string": "plain ASCII",
  "non-ASCII": "h\u00e9llo w\\u00f6rld \u2713 \u65e5\u672c\u8a9e \\ud83d\\ude00",
  "empty string": "",
  "zero": 0,
  "negative": -42,
  "int64 min": -9223372036854775808,
  "int64 max": 9223372036854775807,
  "above int64 max": 9223372036854775808,
  "uint64 max": 18446744073709551615,
  "real": 1.5,
  "negative real": -0.25,
  "true": true,
  "false": false,
  "date": {"$date": "2024-02-29T12:34:56Z"},
  "data": {"$data": "AAECA3+A/v8="},
  "empty data": {"$data": ""},
  "array": ["a", 1, [], {}],
  "empty array": [],
  "dictionary": {"nested": {"key": "value"}},
  "empty dictionary": {}
}
"""

# Reals the binary, XML, GNUstep and JSON formats all hold, NaN and the infinities included.
REALS = [float("nan"), float("inf"), float("-inf"), -0.0, 0.1, 1e300, 5e-324, -1.7976931348623157e308]

REALS_GNUSTEP = """\
(<*Rnan>, <*Rinf>, <*R-inf>, <*R-0>, <*R0.1>, <*R1e+300>, <*R5e-324>, <*R-1.7976931348623157e+308>)
"""

REALS_JSON = """\
[{"$real": "nan"}, {"$real": "inf"}, {"$real": "-inf"}, -0.0, 0.1, 1e300, 5e-324, -1.7976931348623157e308]
"""

# Plain OpenStep holds only strings, data, arrays and dictionaries.
OPENSTEP = {
    "name": "Fixture",
    "quoted": 'two words; "quotes", a \\ backslash,\na new line and a tab\t.',
    "non-ASCII": "\u65e5\u672c\u8a9e \u00e9 \U0001F600",
    "empty": "",
    "number": "42",
    "list": ["a", "b c", []],
    "data": bytes([0x0F, 0xBD, 0x00, 0xFF]),
    "nested": {"key": "value", "empty": {}},
}

OPENSTEP_TEXT = """\
/* Plain OpenStep: strings, data, arrays and dictionaries. */
{
    name = Fixture; // a string needs no quotes when it is a plain word
    quoted = "two words; \\"quotes\\", a \\\\ backslash,\\na new line and a tab\\t.";
    "non-ASCII" = "\u65e5\u672c\u8a9e \u00e9 \U0001F600";
    empty = "";
    number = 42;
    list = (a, "b c", ());
    data = <0fbd 00ff>;
    nested = {key = value; empty = {}; };
}
"""

OPENSTEP_JSON = """\
{"name": "Fixture", "quoted": "two words; \\"quotes\\", a \\\\ backslash,\\na new line and a tab\\t.",
 "non-ASCII": "\u65e5\u672c\u8a9e \u00e9 \U0001F600", "empty": "", "number": "42", "list": ["a", "b c", []],
 "data": {"$data": "D70A/w=="}, "nested": {"key": "value", "empty": {}}}
"""

STRINGS = {
    "greeting": "Bonjour",
    "farewell": "Au revoir, \u00e0 bient\u00f4t",
    "quote \"\\": "line\nbreak",
    "\u65e5\u672c": "\u8a9e \U0001F600",
    "empty": "",
}

STRINGS_TEXT = """\
/* A .strings file: a dictionary of strings without its outer braces. */
"greeting" = "Bonjour";
"farewell" = "Au revoir, \u00e0 bient\u00f4t";
"quote \\"\\\\" = "line\\nbreak";
"\u65e5\u672c" = "\u8a9e \U0001F600";
// an empty value
"empty" = "";
"""

STRINGS_JSON = """\
{"greeting": "Bonjour", "farewell": "Au revoir, \u00e0 bient\u00f4t", "quote \\"\\\\": "line\\nbreak",
 "\u65e5\u672c": "\u8a9e \U0001F600", "empty": ""}
"""

# A keyed archive (NSKeyedArchiver's layout), the kind of file that holds UIDs.
ARCHIVE = {
    "$version": 100000,
    "$archiver": "NSKeyedArchiver",
    "$top": {"root": plistlib.UID(1)},
    "$objects": [
        "$null",
        {"$class": plistlib.UID(2), "NS.string": "h\u00e9llo"},
        {"$classname": "NSString", "$classes": ["NSString", "NSObject"]},
    ],
}

# XML has no UID: like CoreFoundation, a dictionary whose only key is CF$UID stands for one.
ARCHIVE_XML = {
    "$version": 100000,
    "$archiver": "NSKeyedArchiver",
    "$top": {"root": {"CF$UID": 1}},
    "$objects": [
        "$null",
        {"$class": {"CF$UID": 2}, "NS.string": "h\u00e9llo"},
        {"$classname": "NSString", "$classes": ["NSString", "NSObject"]},
    ],
}

ARCHIVE_JSON = """\
{"$version": 100000, "$archiver": "NSKeyedArchiver", "$top": {"root": {"$uid": 1}},
 "$objects": ["$null", {"$class": {"$uid": 2}, "NS.string": "h\u00e9llo"},
  {"$classname": "NSString", "$classes": ["NSString", "NSObject"]}]}
"""

VALID = {
    "scalars.binary.plist": binary(SCALARS),
    "scalars.xml.plist": xml(SCALARS),
    "scalars.gnustep.plist": text(SCALARS_GNUSTEP),
    "scalars.json": text(SCALARS_JSON),
    "reals.binary.plist": binary(REALS),
    "reals.xml.plist": xml(REALS),
    "reals.gnustep.plist": text(REALS_GNUSTEP),
    "reals.json": text(REALS_JSON),
    "openstep.openstep.plist": text(OPENSTEP_TEXT),
    "openstep.binary.plist": binary(OPENSTEP),
    "openstep.xml.plist": xml(OPENSTEP),
    "openstep.json": text(OPENSTEP_JSON),
    "localizable.strings": text(STRINGS_TEXT),
    "localizable.binary.plist": binary(STRINGS),
    "localizable.xml.plist": xml(STRINGS),
    "localizable.json": text(STRINGS_JSON),
    "keyed-archive.binary.plist": binary(ARCHIVE),
    "keyed-archive.xml.plist": xml(ARCHIVE_XML),
    "keyed-archive.json": text(ARCHIVE_JSON),
}

# MARK: - Invalid files: one error each


def bplist(objects, top=0, offsets=None, ref_size=1, offset_size=1, count=None, version=b"00"):
    """A binary property list of the encoded `objects`, laid out as CoreFoundation lays it out,
    with any field of the trailer or offset table overridable to make it wrong."""
    body = b"bplist" + version
    positions = []
    for encoded in objects:
        positions.append(len(body))
        body += encoded
    if offsets is not None:
        positions = offsets
    table_offset = len(body)
    for position in positions:
        body += position.to_bytes(offset_size, "big")
    count = len(positions) if count is None else count
    trailer = bytes(6) + bytes([offset_size, ref_size]) + struct.pack(">QQQ", count, top, table_offset)
    return body + trailer


def ascii_string(string):
    return bytes([0x50 | len(string)]) + string.encode("ascii")


INVALID = {
    "empty.plist": b"",
    "unknown-format.plist": bytes([0x00, 0x01, 0x02, 0x03]),
    # Binary: each a structural error the reader names with the byte it found it at.
    "truncated-trailer.binary.plist": b"bplist00\xd0\x08\x00\x00\x00",
    "unsupported-version.binary.plist": bplist([ascii_string("a")], version=b"15"),
    "offset-out-of-range.binary.plist": bplist([ascii_string("a")], offsets=[200]),
    "reference-out-of-range.binary.plist": bplist([bytes([0xA1, 0x05])]),
    "invalid-marker.binary.plist": bplist([bytes([0xA1, 0x01]), bytes([0xE0])]),
    "non-string-key.binary.plist": bplist([bytes([0xD1, 0x01, 0x02]), bytes([0x10, 0x07]), ascii_string("v")]),
    "cycle.binary.plist": bplist([bytes([0xA1, 0x01]), bytes([0xA1, 0x00])]),
    "invalid-utf16.binary.plist": bplist([bytes([0x61]) + "\ud800".encode("utf-16-be", "surrogatepass")]),
    "integer-too-long.binary.plist": bplist([bytes([0x15]) + bytes(32)]),
    # XML: errors named with line and column.
    "malformed.xml.plist": text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
        "\t<key>a</key>\n\t<string>b</string\n</dict>\n</plist>\n"),
    "bad-integer.xml.plist": text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n'
        "\t<integer>12x</integer>\n</array>\n</plist>\n"),
    "unknown-element.xml.plist": text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n'
        "\t<float>1.5</float>\n</array>\n</plist>\n"),
    "key-without-value.xml.plist": text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
        "\t<key>a</key>\n\t<string>b</string>\n\t<key>lonely</key>\n</dict>\n</plist>\n"),
    "two-values.xml.plist": text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n'
        "<string>one</string>\n<string>two</string>\n</plist>\n"),
    "entity-declaration.xml.plist": text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist [ <!ENTITY e "expanded"> ]>\n'
        '<plist version="1.0">\n<string>&e;</string>\n</plist>\n'),
    # OpenStep and .strings: errors named with line and column.
    "missing-semicolon.openstep.plist": text("{\n    a = b;\n    c = (1, 2)\n    d = e;\n}\n"),
    "unterminated-string.openstep.plist": text('{\n    a = "no end;\n}\n'),
    "bad-data.openstep.plist": text("{\n    a = <0fbd q1>;\n}\n"),
    "missing-equals.strings": text('"a" = "b";\n"c" "d";\n'),
    # JSON.
    "trailing-comma.json": text('{\n  "a": [1, 2,],\n  "b": true\n}\n'),
    "bad-date.json": text('{\n  "when": {"$date": "yesterday"}\n}\n'),
}


def expected_files():
    files = {os.path.join("valid", name): data for name, data in VALID.items()}
    files.update({os.path.join("invalid", name): data for name, data in INVALID.items()})
    return files


def check():
    """Compares the fixtures on disk with what this script makes."""
    problems = []
    files = expected_files()
    for relative, data in sorted(files.items()):
        path = os.path.join(FIXTURES, relative)
        if not os.path.exists(path):
            problems.append(f"missing: Fixtures/{relative}")
        elif open(path, "rb").read() != data:
            problems.append(f"differs: Fixtures/{relative}")
    for folder in ("valid", "invalid"):
        for name in sorted(os.listdir(os.path.join(FIXTURES, folder))):
            relative = os.path.join(folder, name)
            if relative not in files and not (folder == "invalid" and name[:-len(".error")] in INVALID
                                              and name.endswith(".error")):
                problems.append(f"extra: Fixtures/{relative}")
    for name in sorted(INVALID):
        if not os.path.exists(os.path.join(FIXTURES, "invalid", name + ".error")):
            problems.append(f"missing: Fixtures/invalid/{name}.error")
    for problem in problems:
        print(problem, file=sys.stderr)
    return not problems


def write():
    for folder in ("valid", "invalid"):
        os.makedirs(os.path.join(FIXTURES, folder), exist_ok=True)
    for relative, data in sorted(expected_files().items()):
        with open(os.path.join(FIXTURES, relative), "wb") as file:
            file.write(data)


def write_errors():
    """Writes each invalid file's .error: what `plistconv lint` says after `plistconv: <path>: `."""
    subprocess.run(["swift", "build", "--product", "plistconv"], cwd=ROOT, check=True)
    binary_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    for name in sorted(INVALID):
        path = os.path.join(FIXTURES, "invalid", name)
        run = subprocess.run([os.path.join(binary_path, "plistconv"), "lint", path], capture_output=True)
        prefix = f"plistconv: {path}: ".encode()
        if run.returncode != 1 or not run.stderr.startswith(prefix) or run.stderr.count(b"\n") != 1:
            sys.exit(f"make-fixtures: unexpected lint result for {name}: {run}")
        with open(path + ".error", "wb") as file:
            file.write(run.stderr[len(prefix):-1])
        print(f"{name}: {run.stderr[len(prefix):-1].decode()}")


def main(arguments):
    if arguments == ["--check"]:
        sys.exit(0 if check() else 1)
    if arguments not in ([], ["--write-errors"]):
        sys.exit(__doc__)
    write()
    if arguments == ["--write-errors"]:
        write_errors()


if __name__ == "__main__":
    main(sys.argv[1:])
