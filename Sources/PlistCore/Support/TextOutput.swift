/// The text a writer of JSON, OpenStep, `.strings`, an Xcode project or source code has
/// written so far, with `PlistWriteOptions.maxOutputBytes` and `maxDepth` applied the same way
/// by all of them (see `OutputLimit`).
struct TextOutput {
    /// The UTF-8 bytes written.
    private(set) var bytes: [UInt8] = []
    private let limit: OutputLimit

    /// Output for `value`, refused at once when the value is sure to pass the output limit in a
    /// layout that indents each level by `indentation` bytes.
    init(for value: Plist, indentation: Int, options: PlistWriteOptions) throws(PlistError) {
        limit = OutputLimit(options)
        try limit.checkLeastSize(of: value, indentation: indentation)
        bytes.reserveCapacity(4096)
    }

    /// Throws `.outputTooLarge` unless `count` more bytes fit in `maxOutputBytes`.
    func reserve(_ count: Int) throws(PlistError) {
        try limit.check(written: bytes.count, adding: count)
    }

    /// Throws `.tooDeep` for a container with `depth` containers around it, past `maxDepth`.
    func enter(depth: Int) throws(PlistError) {
        guard depth < limit.maxDepth else { throw PlistError(.tooDeep(limit: limit.maxDepth), at: 0) }
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ byte: UInt8, count: Int) {
        for _ in 0..<count { bytes.append(byte) }
    }

    /// Two lowercase hexadecimal digits.
    mutating func appendHex(_ byte: UInt8) {
        bytes.append(Self.hexDigit(byte >> 4))
        bytes.append(Self.hexDigit(byte & 0xF))
    }

    /// `string` in double quotes, with `"`, `\` and control characters escaped as `style` says.
    mutating func appendQuoted(_ string: String, _ style: QuoteStyle) {
        bytes.append(0x22)
        for byte in string.utf8 {
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x07 where style == .openStep: append("\\a")
            case 0x0B where style == .openStep: append("\\v")
            case 0x00..<0x20:
                append(style == .json ? "\\u00" : "\\U00")
                appendHex(byte)
            case 0x7F where style == .openStep:
                append("\\U00")
                appendHex(byte)
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    /// How `appendQuoted` escapes: both use C's escapes for `\n`, `\r`, `\t`, `\b` and `\f`.
    enum QuoteStyle {
        /// Other control characters as `\u00XX`.
        case json
        /// Also `\a` and `\v`; other control characters and DEL as `\U00XX`, as CoreFoundation reads them.
        case openStep
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x57 + value }

    static func += (output: inout TextOutput, text: String) {
        output.append(text)
    }
}
