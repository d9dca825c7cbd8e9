#!/usr/bin/env python3
"""Writes large property lists for the large-file benchmarks (never commit what it writes).

    large-inputs.py binary OUT [--records N] [--blob BYTES] [--depth D]
    large-inputs.py xml OUT [--records N] [--blob BYTES] [--depth D]

Both hold one wide dictionary: "rec0" ... "rec<N-1>", each a record
{"name": "record I", "id": I, "blob": <BYTES bytes, unique>, "tags": ["a", "b"]},
then "deep": D nested arrays around the string "bottom". The defaults make a binary file of
about 1 GB (200,000 records of 5,000 bytes) and an XML file of about 3.7 GB (4,000,000 records
of 500 bytes). The file is written as it goes, in constant memory apart from the binary offset
table, to OUT.partial, then renamed to OUT.
"""
import argparse
import base64
import os
import struct


def blob(index, size):
    head = struct.pack(">Q", index)
    return (head * (size // 8 + 1))[:size]


def width(value):
    for size in (1, 2, 4, 8):
        if value < 1 << (8 * size):
            return size
    raise ValueError(value)


def header(marker, count):
    if count < 15:
        return bytes([marker | count])
    size = width(count)
    return bytes([marker | 0xF, 0x10 | {1: 0, 2: 1, 4: 2, 8: 3}[size]]) + count.to_bytes(size, "big")


def ascii_string(text):
    data = text.encode("ascii")
    return header(0x50, len(data)) + data


def integer(value):
    size = width(value) if value < 1 << 63 else 8
    return bytes([0x10 | {1: 0, 2: 1, 4: 2, 8: 3}[size]]) + value.to_bytes(size, "big")


def write_binary(out, records, blob_size, depth):
    # Object numbers: 0 the top dictionary; 1..records its keys "recI"; then "deep", the
    # record keys and "a", "b", "bottom"; then 5 objects per record; then the deep chain.
    deep_key = records + 1
    shared = {name: deep_key + 1 + i for i, name in enumerate(["name", "id", "blob", "tags", "a", "b", "bottom"])}
    first_record = shared["bottom"] + 1
    first_deep = first_record + 5 * records
    count = first_deep + depth
    ref = width(count)
    offsets = [0] * count
    position = 0

    def put(number, data):
        nonlocal position
        offsets[number] = position
        out.write(data)
        position += len(data)

    out.write(b"bplist00")
    position = 8
    refs = lambda numbers: b"".join(n.to_bytes(ref, "big") for n in numbers)
    keys = list(range(1, records + 1)) + [deep_key]
    values = [first_record + 5 * i for i in range(records)] + [first_deep]
    put(0, header(0xD0, records + 1) + refs(keys) + refs(values))
    for i in range(records):
        put(1 + i, ascii_string("rec%d" % i))
    put(deep_key, ascii_string("deep"))
    for name, number in shared.items():
        put(number, ascii_string(name))
    record_keys = refs([shared["name"], shared["id"], shared["blob"], shared["tags"]])
    tags = header(0xA0, 2) + refs([shared["a"], shared["b"]])
    for i in range(records):
        base = first_record + 5 * i
        put(base, header(0xD0, 4) + record_keys + refs([base + 1, base + 2, base + 3, base + 4]))
        put(base + 1, ascii_string("record %d" % i))
        put(base + 2, integer(i))
        data = blob(i, blob_size)
        put(base + 3, header(0x40, len(data)) + data)
        put(base + 4, tags)
    for level in range(depth):
        inner = first_deep + level + 1 if level + 1 < depth else shared["bottom"]
        put(first_deep + level, header(0xA0, 1) + refs([inner]))
    table = position
    size = width(table)
    for start in range(0, count, 65536):
        out.write(b"".join(o.to_bytes(size, "big") for o in offsets[start : start + 65536]))
    out.write(bytes(6) + bytes([size, ref]) + struct.pack(">QQQ", count, 0, table))


def write_xml(out, records, blob_size, depth):
    out.write(
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n'
        b'<plist version="1.0">\n<dict>\n'
    )
    for i in range(records):
        data = base64.b64encode(blob(i, blob_size))
        out.write(
            b"\t<key>rec%d</key>\n\t<dict>\n\t\t<key>name</key>\n\t\t<string>record %d</string>\n"
            b"\t\t<key>id</key>\n\t\t<integer>%d</integer>\n\t\t<key>blob</key>\n\t\t<data>%s</data>\n"
            b"\t\t<key>tags</key>\n\t\t<array>\n\t\t\t<string>a</string>\n\t\t\t<string>b</string>\n"
            b"\t\t</array>\n\t</dict>\n" % (i, i, i, data)
        )
    out.write(b"\t<key>deep</key>\n" + b"<array>" * depth + b"<string>bottom</string>" + b"</array>" * depth)
    out.write(b"\n</dict>\n</plist>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("format", choices=["binary", "xml"])
    parser.add_argument("out")
    parser.add_argument("--records", type=int)
    parser.add_argument("--blob", type=int)
    parser.add_argument("--depth", type=int, default=300)
    args = parser.parse_args()
    binary = args.format == "binary"
    records = args.records if args.records is not None else (200_000 if binary else 4_000_000)
    blob_size = args.blob if args.blob is not None else (5_000 if binary else 500)
    partial = args.out + ".partial"
    with open(partial, "wb", buffering=1 << 20) as out:
        (write_binary if binary else write_xml)(out, records, blob_size, args.depth)
    os.replace(partial, args.out)


if __name__ == "__main__":
    main()
