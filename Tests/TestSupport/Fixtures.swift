public import Foundation
public import PlistCore

/// The repository's own small fixture set, `Fixtures/valid/` and `Fixtures/invalid/`, made by
/// `Scripts/make-fixtures.py` (see `Fixtures/README.md`). Unlike the shared corpus it is always
/// there, so the tests that only need some file of a kind read these.
public enum Fixtures {
    /// One value written in several formats, all of which must read as `value`.
    public struct Valid: Sendable, CustomStringConvertible {
        /// The case's name, the start of each of its file names.
        public var name: String
        /// Its files in `Fixtures/valid/`, each with the format `Plist.read` must detect.
        public var files: [(name: String, format: PlistFormat)]
        /// What each file holds.
        public var value: Plist

        public var description: String { name }
        /// The path of the file `file` of this case.
        public func url(_ file: String) -> URL { Fixtures.url("valid/\(file)") }
    }

    /// A file every reader must reject, and the exact message it must give.
    public struct Invalid: Sendable, CustomStringConvertible {
        /// The file name in `Fixtures/invalid/`.
        public var file: String

        public var url: URL { Fixtures.url("invalid/\(file)") }
        /// The golden message: the `description` of the `PlistError` reading throws.
        public var errorURL: URL { Fixtures.url("invalid/\(file).error") }
        public var description: String { file }

        /// The contents of the `.error` file.
        public func expectedMessage() throws -> String {
            String(decoding: try Paths.bytes(errorURL), as: UTF8.self)
        }
    }

    /// The file at `relative` inside `Fixtures/`.
    public static func url(_ relative: String) -> URL { Paths.fixtures.appendingPathComponent(relative) }

    /// The date in the fixtures: 2024-02-29T12:34:56Z.
    public static let date = Date(timeIntervalSinceReferenceDate: 730_902_896)

    /// Every value type: non-ASCII and empty strings, integers at the ends of both 64-bit
    /// ranges, reals, booleans, a date, data, and empty and nested containers.
    public static let scalars: Plist = [
        "string": "plain ASCII",
        "non-ASCII": "h\u{E9}llo w\u{F6}rld \u{2713} \u{65E5}\u{672C}\u{8A9E} \u{1F600}",
        "empty string": "",
        "zero": 0,
        "negative": -42,
        "int64 min": .integer(PlistInteger(Int64.min)),
        "int64 max": .integer(PlistInteger(Int64.max)),
        "above int64 max": .integer(PlistInteger(UInt64(Int64.max) + 1)),
        "uint64 max": .integer(PlistInteger(UInt64.max)),
        "real": 1.5,
        "negative real": -0.25,
        "true": true,
        "false": false,
        "date": .date(date),
        "data": .data(Data([0, 1, 2, 3, 0x7F, 0x80, 0xFE, 0xFF])),
        "empty data": .data(Data()),
        "array": ["a", 1, [], .dictionary([:])],
        "empty array": [],
        "dictionary": ["nested": ["key": "value"]],
        "empty dictionary": .dictionary([:]),
    ]

    /// NaN, the infinities, negative zero, a subnormal and the largest magnitude.
    public static let reals: Plist = [
        .real(.nan), .real(.infinity), .real(-.infinity), .real(-0.0), 0.1, 1e300, .real(.leastNonzeroMagnitude),
        .real(-.greatestFiniteMagnitude),
    ]

    /// What plain OpenStep holds: strings, data, arrays and dictionaries.
    public static let openStep: Plist = [
        "name": "Fixture",
        "quoted": "two words; \"quotes\", a \\ backslash,\na new line and a tab\t.",
        "non-ASCII": "\u{65E5}\u{672C}\u{8A9E} \u{E9} \u{1F600}",
        "empty": "",
        "number": "42",
        "list": ["a", "b c", []],
        "data": .data(Data([0x0F, 0xBD, 0x00, 0xFF])),
        "nested": ["key": "value", "empty": .dictionary([:])],
    ]

    /// A `.strings` table.
    public static let localizable: Plist = [
        "greeting": "Bonjour",
        "farewell": "Au revoir, \u{E0} bient\u{F4}t",
        "quote \"\\": "line\nbreak",
        "\u{65E5}\u{672C}": "\u{8A9E} \u{1F600}",
        "empty": "",
    ]

    /// A keyed archive (NSKeyedArchiver's layout), which holds UIDs.
    public static let keyedArchive: Plist = [
        "$version": 100000,
        "$archiver": "NSKeyedArchiver",
        "$top": ["root": .uid(1)],
        "$objects": [
            "$null",
            ["$class": .uid(2), "NS.string": "h\u{E9}llo"],
            ["$classname": "NSString", "$classes": ["NSString", "NSObject"]],
        ],
    ]

    /// Every valid case, with its files.
    public static let valid: [Valid] = [
        Valid(
            name: "scalars",
            files: [
                ("scalars.binary.plist", .binary), ("scalars.xml.plist", .xml), ("scalars.gnustep.plist", .openStep),
                ("scalars.json", .json),
            ],
            value: scalars),
        Valid(
            name: "reals",
            files: [
                ("reals.binary.plist", .binary), ("reals.xml.plist", .xml), ("reals.gnustep.plist", .openStep),
                ("reals.json", .json),
            ],
            value: reals),
        Valid(
            name: "openstep",
            files: [
                ("openstep.openstep.plist", .openStep), ("openstep.binary.plist", .binary),
                ("openstep.xml.plist", .xml), ("openstep.json", .json),
            ],
            value: openStep),
        Valid(
            name: "localizable",
            files: [
                ("localizable.strings", .strings), ("localizable.binary.plist", .binary),
                ("localizable.xml.plist", .xml), ("localizable.json", .json),
            ],
            value: localizable),
        Valid(
            name: "keyed-archive",
            files: [
                ("keyed-archive.binary.plist", .binary), ("keyed-archive.xml.plist", .xml),
                ("keyed-archive.json", .json),
            ],
            value: keyedArchive),
    ]

    /// Every invalid file: one error of each kind, in each format.
    public static let invalid: [Invalid] = [
        "empty.plist", "unknown-format.plist",
        "truncated-trailer.binary.plist", "unsupported-version.binary.plist", "offset-out-of-range.binary.plist",
        "reference-out-of-range.binary.plist", "invalid-marker.binary.plist", "non-string-key.binary.plist",
        "cycle.binary.plist", "invalid-utf16.binary.plist", "integer-too-long.binary.plist",
        "malformed.xml.plist", "bad-integer.xml.plist", "unknown-element.xml.plist", "key-without-value.xml.plist",
        "two-values.xml.plist", "entity-declaration.xml.plist",
        "missing-semicolon.openstep.plist", "unterminated-string.openstep.plist", "bad-data.openstep.plist",
        "missing-equals.strings",
        "trailing-comma.json", "bad-date.json",
    ].map { Invalid(file: $0) }

    /// Every valid file, as a path inside `Fixtures/` (`valid/scalars.binary.plist`).
    public static let validFiles: [String] = valid.flatMap { $0.files.map { "valid/\($0.name)" } }
}
