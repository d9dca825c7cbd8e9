#!/usr/bin/env python3
"""plist_oracle.py - the project's reference reader: a property list as typed JSON.

Usage: plist_oracle.py [--format auto|binary|xml|openstep|gnustep] [-o OUT.json] FILE

Prints the typed JSON of FILE and exits 0, or prints "plist_oracle: error: ..." and exits 1
when FILE is not a valid property list. Scripts/fetch-corpus derives the corpus's expected
values with it and installs it as the shared folder's tools/plist_oracle.py, which the tests
run. It shares no code with this package: CPython's plistlib reads binary and XML, the
openstep_plist package (pip install openstep-plist) reads OpenStep and .strings text, and this
script adds the checks CoreFoundation makes that those readers skip, and GNUstep's typed values.

Typed JSON, one object per value (dictionary keys in file order; the order is not significant):
  {"dict": {...}}  {"array": [...]}  {"string": "..."}  {"int": "-12"}  {"real": "1.5"}
  {"bool": true}  {"data": "<base64>"}  {"uid": 5}  {"null": true}
  {"date": "2001-01-01T00:00:00.000000Z", "abs": "0.0"}   (abs: seconds since 2001, as Python's
  repr; date is null when the seconds are not finite or fall outside the years 1 to 9999)
"""

import argparse
import base64
import codecs
import datetime
import io
import json
import re
import struct
import sys
import threading

import plistlib

EPOCH = datetime.datetime(2001, 1, 1)


class Invalid(Exception):
    """The input is not a property list."""


class Seconds:
    """A binary date: its exact seconds since 2001."""

    def __init__(self, value):
        self.value = value


NULL = object()

# ------------------------------------------------------------------------------------- binary


class BinaryReader(plistlib._BinaryPlistParser):
    """plistlib's reader with CoreFoundation's trailer, offset and object checks."""

    def parse(self, fp):
        data = fp.read()
        if len(data) < 8 or not data.startswith(b"bplist0"):
            raise Invalid("no bplist0 header")
        if len(data) < 41:
            raise Invalid("too short for a trailer")
        offset_size, ref_size, count, top, table = struct.unpack(">6xBBQQQ", data[-32:])
        if not (1 <= offset_size <= 8 and 1 <= ref_size <= 8):
            raise Invalid("trailer: integer sizes %d and %d" % (offset_size, ref_size))
        if count < 1 or top >= count or table < 9:
            raise Invalid("trailer: %d objects, top %d, table at %d" % (count, top, table))
        if table + count * offset_size + 32 != len(data):
            raise Invalid("trailer: the offset table does not end at the trailer")
        if ref_size < 8 and count >= 1 << (8 * ref_size):
            raise Invalid("trailer: references too small for %d objects" % count)
        if offset_size < 8 and table >= 1 << (8 * offset_size):
            raise Invalid("trailer: offsets too small for the table's offset")
        self._fp = io.BytesIO(data)
        self._fp.seek(table)
        self._table_offset = table
        self._ref_size = ref_size
        self._object_offsets = self._read_ints(count, offset_size)
        if max(self._object_offsets) >= table:
            raise Invalid("an offset points past the objects")
        self._objects = [plistlib._undefined] * count
        try:
            return self._read_object(top)
        except (OSError, IndexError, struct.error, OverflowError, ValueError, TypeError) as error:
            raise Invalid("%s: %s" % (type(error).__name__, error))

    def _read_object(self, ref):
        if self._objects[ref] is not plistlib._undefined:
            return self._objects[ref]
        offset = self._object_offsets[ref]
        if not 8 <= offset < self._table_offset:
            raise Invalid("object %d at %d, outside the objects" % (ref, offset))
        self._fp.seek(offset)
        marker = self._fp.read(1)[0]
        high, low = marker >> 4, marker & 0x0F

        def take(n, what):
            raw = self._fp.read(n)
            if len(raw) != n or offset + 1 + n > self._table_offset:
                raise Invalid("truncated %s" % what)
            return raw

        if marker == 0x00:
            value = NULL
        elif marker == 0x0F:
            raise Invalid("a fill byte as an object")
        elif marker == 0x33:
            value = Seconds(struct.unpack(">d", take(8, "date"))[0])
        elif high == 0x1:
            if low > 4:
                raise Invalid("an integer of more than 16 bytes")
            value = int.from_bytes(take(1 << low, "integer"), "big", signed=low >= 3)
        elif high == 0x8:
            value = plistlib.UID(int.from_bytes(take(low + 1, "UID"), "big"))
        else:
            return super()._read_object(ref)
        self._objects[ref] = value
        return value


def read_binary(data):
    try:
        return BinaryReader(dict_type=dict).parse(io.BytesIO(data))
    except plistlib.InvalidFileException as error:
        raise Invalid("binary: %s" % error)
    except UnicodeDecodeError as error:
        raise Invalid("binary string: %s" % error)

# ---------------------------------------------------------------------------------------- XML


LEAVES = {"key", "string", "integer", "real", "date", "data", "true", "false"}
TAGS = LEAVES | {"plist", "dict", "array"}
INTEGER = re.compile(r"[ \t\r\n]*([+-]?)[ \t\r\n]*(?:0[xX]([0-9a-fA-F]+)|([0-9]+))")
REAL = re.compile(r"[ \t\r\n]*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
REAL_WORDS = {"nan": float("nan"), "inf": float("inf"), "+inf": float("inf"), "-inf": float("-inf"),
              "infinity": float("inf"), "+infinity": float("inf"), "-infinity": float("-inf")}


class XMLReader(plistlib._PlistParser):
    """plistlib's reader with CoreFoundation's grammar for each element."""

    def parse(self, fileobj):
        self.open_tags, self.has_root = [], False
        value = super().parse(fileobj)
        if not self.has_root:
            raise Invalid("no value inside <plist>")
        return value

    def fail(self, message):
        raise Invalid("%s at line %d" % (message, self.parser.CurrentLineNumber))

    def no_text(self):
        if "".join(getattr(self, "data", [])).strip(" \t\r\n"):
            self.fail("text between elements")
        self.data = []

    def handle_begin_element(self, element, attrs):
        if element not in TAGS:
            self.fail("unknown element <%s>" % element)
        if self.open_tags and self.open_tags[-1] in LEAVES:
            self.fail("<%s> inside <%s>" % (element, self.open_tags[-1]))
        if element == "plist" and self.open_tags:
            self.fail("<plist> inside another element")
        self.no_text()
        self.open_tags.append(element)
        super().handle_begin_element(element, attrs)

    def handle_end_element(self, element):
        if element not in LEAVES:
            self.no_text()
        self.open_tags.pop()
        if element in ("dict", "key") and self.current_key is not None:
            self.fail("a key without a value")
        super().handle_end_element(element)

    def add_object(self, value):
        if not self.stack and self.current_key is None:
            if self.has_root:
                self.fail("a second value inside <plist>")
            self.has_root = True
        super().add_object(value)

    def end_integer(self):
        text = self.get_data()
        match = INTEGER.fullmatch(text)
        if not match:
            self.fail("bad <integer> %r" % text[:40])
        value = int(match.group(2), 16) if match.group(2) else int(match.group(3))
        value = -value if match.group(1) == "-" else value
        if not -(1 << 63) <= value < 1 << 64:
            self.fail("<integer> out of range")
        self.add_object(value)

    def end_real(self):
        text = self.get_data()
        if text.lower() in REAL_WORDS:
            self.add_object(REAL_WORDS[text.lower()])
        elif REAL.fullmatch(text):
            self.add_object(float(text))
        else:
            self.fail("bad <real> %r" % text[:40])

    def end_true(self):
        self.empty("true")
        self.add_object(True)

    def end_false(self):
        self.empty("false")
        self.add_object(False)

    def empty(self, tag):
        if self.get_data().strip(" \t\r\n"):
            self.fail("text inside <%s/>" % tag)

    def end_date(self):
        text = self.get_data()
        if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", text):
            self.fail("bad <date> %r" % text)
        self.add_object(plistlib._date_from_string(text))


def sniff(data):
    """The text encoding from a BOM or from NUL bytes at the start, and the BOM's length."""
    for bom, name in ((codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF32_LE, "utf-32-le"),
                      (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_BE, "utf-16-be"),
                      (codecs.BOM_UTF16_LE, "utf-16-le")):
        if data.startswith(bom):
            return name, len(bom)
    head = data[:4]
    if len(head) == 4 and head[:3] == b"\0\0\0" and head[3]:
        return "utf-32-be", 0
    if len(head) == 4 and head[0] and head[1:] == b"\0\0\0":
        return "utf-32-le", 0
    if len(head) >= 2 and not head[0] and head[1]:
        return "utf-16-be", 0
    if len(head) >= 2 and head[0] and not head[1]:
        return "utf-16-le", 0
    return None, 0


def read_xml(data):
    encoding, bom = sniff(data)
    if encoding and encoding != "utf-8":
        # expat reads neither UTF-32 nor UTF-16 without a BOM: give it UTF-8.
        try:
            text = data[bom:].decode(encoding)
        except UnicodeDecodeError as error:
            raise Invalid("%s: %s" % (encoding, error))
        text = re.sub(r'^(<\?xml[^>]*?encoding\s*=\s*)(["\'])[^"\']*\2', r"\1\2UTF-8\2", text, count=1)
        data = text.encode("utf-8")
    try:
        return uids(XMLReader(dict_type=dict).parse(io.BytesIO(data)))
    except Invalid:
        raise
    except Exception as error:  # expat's and plistlib's errors
        raise Invalid("XML: %s: %s" % (type(error).__name__, error))


def uids(value):
    """CoreFoundation reads a dictionary whose one key is CF$UID, with a number, as a UID."""
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(value.get("CF$UID"), (int, float)) \
                and not isinstance(value["CF$UID"], bool):
            return plistlib.UID(int(value["CF$UID"]) & 0xFFFFFFFF)
        return {key: uids(item) for key, item in value.items()}
    if isinstance(value, list):
        return [uids(item) for item in value]
    return value

# ----------------------------------------------------------------------------------- OpenStep


GNUSTEP = re.compile(r"<\*([IRBD])([^>]*)>|<\[([^\]]*)\]>")
PLACEHOLDER = "\uE000gnustep%d\uE000"


def read_openstep(data, gnustep=False):
    try:
        import openstep_plist
    except ImportError:
        raise Invalid("the openstep_plist package is missing (pip install openstep-plist)")
    encoding, bom = sniff(data)
    try:
        text = data[bom:].decode(encoding or "utf-8")
    except UnicodeDecodeError as error:
        raise Invalid("text: %s" % error)
    # openstep_plist reads a one-digit octal escape wrongly; CoreFoundation reads up to three.
    text = re.sub(r"\\([0-7]{1,3}|.)", lambda m: "\\00" + m.group(1) if len(m.group(1)) == 1
                  and m.group(1) in "01234567" else m.group(0), text, flags=re.S)
    typed = []
    if gnustep or GNUSTEP.search(text):
        # GNUstep's typed values, as quoted placeholders that openstep_plist reads as strings.
        def hold(match):
            typed.append(match)
            return '"%s"' % (PLACEHOLDER % (len(typed) - 1))
        text = GNUSTEP.sub(hold, text)

    def loads(source):
        return openstep_plist.loads(source, dict_type=dict, use_numbers=False)

    try:
        value = loads(text)
    except Exception as error:
        raise Invalid("OpenStep: %s: %s" % (type(error).__name__, error))
    if not value:
        value = empty_first_value(text, value, loads)
    return gnustep_values(value, typed)


def empty_first_value(text, value, loads):
    """openstep_plist skips two checks when the first value is empty: text after it, and a
    .strings file whose first value is a string."""
    try:
        alone = loads("(" + text + "\n)")
    except Exception:
        alone = None
    if alone is not None and len(alone) == 1:
        return value
    if value == {} and only_blanks(text):
        return value
    if isinstance(value, str):
        try:
            return loads("{" + text + "\n}")
        except Exception as error:
            raise Invalid(".strings: %s: %s" % (type(error).__name__, error))
    raise Invalid("text after the value")


def only_blanks(text):
    """Whether the text holds only white space and comments (CoreFoundation: an empty table)."""
    text = re.sub(r"/\*.*?(\*/|$)", "", text, flags=re.S)
    text = re.sub(r"//[^\n\r\u2028\u2029]*", "", text)
    return not text.strip("\t\n\v\f\r \u2028\u2029")


def gnustep_values(value, typed):
    if isinstance(value, dict):
        return {gnustep_values(key, typed): gnustep_values(item, typed) for key, item in value.items()}
    if isinstance(value, list):
        return [gnustep_values(item, typed) for item in value]
    match = re.fullmatch(PLACEHOLDER.replace("%d", r"(\d+)"), value) if isinstance(value, str) else None
    if not match:
        return value
    found = typed[int(match.group(1))]
    kind, body = found.group(1), found.group(2)
    try:
        if found.group(3) is not None:
            return base64.b64decode(re.sub(r"\s", "", found.group(3)), validate=True)
        if kind == "I":
            return int(body.strip())
        if kind == "R":
            return float(body.strip())
        if kind == "B" and body.strip() in ("Y", "N"):
            return body.strip() == "Y"
        if kind == "D":
            stamp = datetime.datetime.strptime(body.strip(), "%Y-%m-%d %H:%M:%S %z")
            return stamp.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    except ValueError:
        pass
    raise Invalid("bad GNUstep value %r" % found.group(0))

# --------------------------------------------------------------------------------------- JSON


def typed_json(value, path=()):
    if isinstance(value, (dict, list)):
        if any(value is outer for outer in path):
            raise Invalid("a container that holds itself")
        inner = path + (value,)
        if isinstance(value, list):
            return {"array": [typed_json(item, inner) for item in value]}
        if not all(isinstance(key, str) for key in value):
            raise Invalid("a dictionary key that is not a string")
        return {"dict": {key: typed_json(item, inner) for key, item in value.items()}}
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": str(value)}
    if isinstance(value, float):
        return {"real": repr(value)}
    if isinstance(value, str):
        return {"string": value}
    if isinstance(value, (bytes, bytearray)):
        return {"data": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, Seconds):
        return date_json(value.value)
    if isinstance(value, datetime.datetime):
        delta = value - EPOCH
        return date_json(delta.days * 86400.0 + delta.seconds + delta.microseconds / 1e6)
    if isinstance(value, plistlib.UID):
        return {"uid": value.data}
    if value is NULL:
        return {"null": True}
    raise Invalid("a value of type %s" % type(value).__name__)


def date_json(seconds):
    try:
        stamp = (EPOCH + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%S.%f")
        text = stamp.rjust(26, "0") + "Z"
    except (OverflowError, ValueError):
        text = None
    return {"date": text, "abs": repr(float(seconds))}


def detect(data):
    if data.startswith(b"bplist"):
        return "binary"
    encoding, bom = sniff(data)
    head = data[bom:].decode(encoding or "utf-8", errors="replace").lstrip(" \t\r\n")
    return "xml" if head.startswith(("<?xml", "<!DOCTYPE", "<!doctype", "<plist", "<!--")) else "openstep"


def dump(data, form="auto"):
    """The typed JSON text of `data`; raises Invalid."""
    if not data:
        raise Invalid("no bytes")
    form = detect(data) if form == "auto" else form
    readers = {"binary": read_binary, "xml": read_xml, "openstep": read_openstep,
               "gnustep": lambda d: read_openstep(d, gnustep=True)}
    tree = typed_json(readers[form](data))
    return json.dumps(tree, ensure_ascii=True, indent=1 if depth(tree) <= 100 else None) + "\n"


def depth(tree):
    deepest, stack = 0, [(tree, 0)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, level + 1) for child in children)
    return deepest


def dump_deep(data, form="auto"):
    """`dump` on a thread with a large stack, for deeply nested input: (text, error)."""
    result = {}

    def work():
        try:
            result["text"] = dump(data, form)
        except Invalid as error:
            result["error"] = str(error)
        except RecursionError:
            result["error"] = "nested too deeply"

    sys.setrecursionlimit(200000)
    threading.stack_size(512 * 1024 * 1024)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    return result.get("text"), result.get("error")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Print a property list as typed JSON.")
    parser.add_argument("file")
    parser.add_argument("--format", default="auto", choices=["auto", "binary", "xml", "openstep", "gnustep"])
    parser.add_argument("-o", "--output")
    args = parser.parse_args(argv)
    with open(args.file, "rb") as f:
        text, error = dump_deep(f.read(), args.format)
    if text is None:
        print("plist_oracle: error: %s" % error, file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "w", encoding="ascii") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
