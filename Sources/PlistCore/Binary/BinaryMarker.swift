/// The marker bytes of `bplist00` objects: every object starts with one, its kind in the high
/// nibble and, for most kinds, a size or count in the low one. Every marker byte the readers and
/// writers test or write is named here.
package enum BinaryMarker {
    /// `false`, a whole marker of kind `simple`.
    static let `false`: UInt8 = 0x08
    /// `true`, a whole marker of kind `simple`.
    static let `true`: UInt8 = 0x09
    /// An integer of 8 bytes (its low nibble is log2 of its width), read as signed.
    static let int64: UInt8 = 0x13
    /// An integer of 16 bytes: CoreFoundation writes integers above `Int64.max` so.
    static let int128: UInt8 = 0x14
    /// A real of 4 bytes.
    static let real32: UInt8 = 0x22
    /// A real of 8 bytes.
    static let real64: UInt8 = 0x23
    /// A date: 8 bytes, a real of seconds since 2001-01-01.
    static let date: UInt8 = 0x33
    /// In the low nibble of a data, string, array, set or dictionary marker: the count is not
    /// there, but in the integer object that follows the marker.
    static let countFollows: UInt8 = 0x0F

    /// The magic every binary property list starts with, before its two-character version.
    static let magic: [UInt8] = Array("bplist".utf8)
    /// The header this package writes: the magic and version `00`.
    static let header: [UInt8] = Array("bplist00".utf8)
    /// The first character of every version this package reads (`0x`), after the magic.
    static let readableVersionMajor = UInt8(ascii: "0")

    /// Whether `bytes` start with a whole header of a version this package reads, so that a
    /// reader of a large file can refuse any other from its first bytes, before mapping it.
    package static func startsReadableHeader(_ bytes: [UInt8]) -> Bool {
        bytes.count >= header.count && bytes.starts(with: magic) && bytes[magic.count] == readableVersionMajor
    }

    /// A marker's low nibble: a count, a size, or log2 of an integer's width.
    @inline(__always)
    static func low(_ marker: UInt8) -> UInt8 { marker & 0x0F }

    /// The width (1, 2, 4 or 8 bytes) of an integer or UID that holds `value`: the widths whose
    /// log2 fits an integer marker's low nibble.
    @inline(__always)
    static func powerOfTwoWidth(holding value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    /// The kind of an object, a marker's high nibble.
    struct Kind: Equatable {
        let nibble: UInt8

        /// The kind of `marker`.
        @inline(__always)
        init(_ marker: UInt8) { nibble = marker >> 4 }

        private init(nibble: UInt8) { self.nibble = nibble }

        /// `false`, `true` (and the null and fill markers, which no reader accepts).
        static let simple = Kind(nibble: 0x0)
        static let integer = Kind(nibble: 0x1)
        static let real = Kind(nibble: 0x2)
        static let date = Kind(nibble: 0x3)
        static let data = Kind(nibble: 0x4)
        static let asciiString = Kind(nibble: 0x5)
        static let utf16String = Kind(nibble: 0x6)
        static let uid = Kind(nibble: 0x8)
        static let array = Kind(nibble: 0xA)
        static let set = Kind(nibble: 0xC)
        static let dictionary = Kind(nibble: 0xD)

        /// The marker of this kind with `low` in its low nibble.
        @inline(__always)
        func marker(low: UInt8 = 0) -> UInt8 { nibble << 4 | low }
    }
}
