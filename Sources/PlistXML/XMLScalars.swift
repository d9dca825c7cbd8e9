import ExtrasBase64
import PlistCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The text grammars of XML property-list leaves, as CoreFoundation reads them: shared by the
/// libxml2 reader and the XML scanner, so that both give the same values.
enum XMLScalars {
    /// `S* [+-]? S* (0x hex | decimal)`, in `Int64.min...UInt64.max` (leading white space only).
    static func integer(_ text: Span<UInt8>) throws(Rejection) -> PlistInteger {
        var index = 0
        index = TextCursor.endOfSpace(in: text, from: index)
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        index = TextCursor.endOfSpace(in: text, from: index)
        var radix: UInt64 = 10
        if index + 1 < text.count, text[index] == UInt8(ascii: "0"), text[index + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 2
        }
        guard index < text.count else { throw invalidInteger(text) }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < text.count {
            guard let digit = digitValue(text[index], radix: radix) else { throw invalidInteger(text) }
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = shifted.addingReportingOverflow(digit)
            overflow = overflow || overflow1 || overflow2
            magnitude = sum
            index += 1
        }
        if overflow { throw Rejection(.numberOutOfRange) }
        if !negative { return PlistInteger(magnitude) }
        if magnitude == 0 { return PlistInteger(Int64(0)) }
        guard magnitude <= UInt64(Int64.max) + 1 else { throw Rejection(.numberOutOfRange) }
        return PlistInteger(Int64(bitPattern: 0 &- magnitude))
    }

    /// `nan`, `inf`, `infinity` with an optional sign (any case), or `S* [+-]? digits [. digits]
    /// [e [+-] digits]`.
    static func real(_ text: Span<UInt8>) throws(Rejection) -> Double {
        if let value = shortDecimal(text) { return value }
        let string = string(text)
        switch string.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        var index = 0
        index = TextCursor.endOfSpace(in: text, from: index)
        let start = index
        if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
        let integerDigits = skipDigits(text, &index)
        var fractionDigits = 0
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = skipDigits(text, &index)
        }
        var valid = integerDigits + fractionDigits > 0
        if valid, index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "+") || text[index] == UInt8(ascii: "-") { index += 1 }
            valid = skipDigits(text, &index) > 0
        }
        guard valid, index == text.count, let value = Double(Self.string(text.extracting(start...))) else {
            throw Rejection(.invalidValue(element: "real", text: string))
        }
        return value
    }

    /// The value of `[+-]? digits [. digits] [e [+-] digits]` (no white space) when it has at
    /// most 19 digits forming a mantissa below 2^53 and a decimal exponent within ±22: then the
    /// mantissa and the power of ten are exact doubles, and one multiplication or division rounds
    /// correctly (Clinger's fast path), giving `Double(String)`'s value without making a string.
    /// `nil` for anything else, which `real` reads the long way.
    static func shortDecimal(_ text: Span<UInt8>) -> Double? {
        var index = 0
        let negative = index < text.count && text[index] == UInt8(ascii: "-")
        if index < text.count, negative || text[index] == UInt8(ascii: "+") { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        var seenDigit = false
        while index < text.count {
            let byte = text[index]
            if byte &- 0x30 < 10 {
                seenDigit = true
                guard digits < 19 else { return nil }
                mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                if mantissa != 0 { digits += 1 }
                if seenPoint { scale -= 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        // At least one digit before the exponent: "." and "-." are not numbers.
        guard seenDigit else { return nil }
        if index < text.count {
            guard text[index] | 0x20 == UInt8(ascii: "e") else { return nil }
            index += 1
            let negativeExponent = index < text.count && text[index] == UInt8(ascii: "-")
            if index < text.count, negativeExponent || text[index] == UInt8(ascii: "+") { index += 1 }
            var exponent = 0
            let start = index
            while index < text.count, text[index] &- 0x30 < 10, index - start < 4 {
                exponent = exponent * 10 + Int(text[index] &- 0x30)
                index += 1
            }
            guard index > start, index == text.count else { return nil }
            scale += negativeExponent ? -exponent : exponent
        }
        guard mantissa < 1 << 53, (-22...22).contains(scale) else { return nil }
        let magnitude =
            scale < 0 ? Double(mantissa) / Self.powersOfTen[-scale] : Double(mantissa) * Self.powersOfTen[scale]
        return negative ? -magnitude : magnitude
    }

    /// 10^0 ... 10^22, each exact in a `Double`.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// `-? digits* - DD - DD T DD : DD : DDZ` (two digits each, nothing before or after), as
    /// CoreFoundation and Foundation's coders both read it; `rules` say which date the fields
    /// stand for. A field past its range is not refused: both carry it into the next
    /// (`2024-01-32` is February 1; older Foundation encoders wrote such dates).
    static func date(_ text: Span<UInt8>, rules: FoundationRules) throws(Rejection) -> Date {
        var fields = DateFields()
        var index = 0
        if index < text.count, text[index] == UInt8(ascii: "-") {
            fields.isNegative = true
            index += 1
        }
        while index < text.count, text[index] &- 0x30 < 10 {
            fields.appendYearDigit(text[index] &- 0x30)
            index += 1
        }
        guard let month = pair(text, &index, after: UInt8(ascii: "-")),
            let day = pair(text, &index, after: UInt8(ascii: "-")),
            let hour = pair(text, &index, after: UInt8(ascii: "T")),
            let minute = pair(text, &index, after: UInt8(ascii: ":")),
            let second = pair(text, &index, after: UInt8(ascii: ":")), index + 1 == text.count,
            text[index] == UInt8(ascii: "Z")
        else { throw Rejection(.invalidValue(element: "date", text: string(text))) }
        (fields.month, fields.day, fields.hour, fields.minute, fields.second) = (month, day, hour, minute, second)
        // Foundation's decoder refuses a year past 64 bits.
        guard let seconds = rules.seconds(of: fields) else {
            throw Rejection(.invalidValue(element: "date", text: string(text)))
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// `separator` then two digits at `index` (then moved past them), as a number.
    private static func pair(_ text: Span<UInt8>, _ index: inout Int, after separator: UInt8) -> Int64? {
        guard index + 3 <= text.count, text[index] == separator, text[index + 1] &- 0x30 < 10,
            text[index + 2] &- 0x30 < 10
        else { return nil }
        defer { index += 3 }
        return Int64(text[index + 1] &- 0x30) * 10 + Int64(text[index + 2] &- 0x30)
    }

    /// Base64 read leniently, as CoreFoundation does: characters outside the alphabet are
    /// skipped, decoding stops at the first `=`, and a final incomplete group gives the whole
    /// bytes it holds.
    ///
    /// Writers put base64 in lines of whole groups between white space, and such a line decodes
    /// alike strictly and leniently. So each line that is whole groups goes to
    /// swift-extras-base64's strict decoder; from the first line that is not (or that it refuses),
    /// the rest is read by ``lenientBase64(_:into:)``, the reference. Writers also give every
    /// line but the last the same length, so a line is first taken to be as long as the one
    /// before it: the strict decoder refuses white space, which catches a wrong guess.
    static func base64(_ text: Span<UInt8>) -> Data {
        // Every 4 characters give at most 3 bytes; 2 or 3 left over give 1 or 2 more.
        let bytes = [UInt8](capacity: text.count / 4 * 3 + 2) { output in
            var index = 0
            var lineLength = 0
            while true {
                index = TextCursor.endOfSpace(in: text, from: index)
                guard index < text.count else { return }
                var end = index + lineLength
                var count: Int
                if lineLength > 0, end <= text.count, end == text.count || TextCursor.isSpace(text[end]),
                    let strict = strictBase64(text.extracting(index..<end), into: &output)
                {
                    count = strict
                } else {
                    end = index
                    while end < text.count, !TextCursor.isSpace(text[end]) { end += 1 }
                    guard let strict = strictBase64(text.extracting(index..<end), into: &output) else {
                        return lenientBase64(text.extracting(index...), into: &output)
                    }
                    count = strict
                    lineLength = end - index
                }
                // Padding ends the data, as it does for the lenient reader.
                if count < (end - index) / 4 * 3 { return }
                index = end
            }
        }
        return Data(bytes)
    }

    /// The bytes `line` decodes to, appended to `output`, if it is whole groups that the strict
    /// decoder takes as the lenient reader would; otherwise nil, and nothing appended.
    private static func strictBase64(_ line: Span<UInt8>, into output: inout OutputSpan<UInt8>) -> Int? {
        guard line.count % 4 == 0, endsInWholePadding(line) else { return nil }
        return try? Base64.decode(bytes: line, into: &output)
    }

    /// Whether the last group of `line` (whole groups) is padded as the strict decoder and the
    /// lenient reader agree on: `=` only as its last character or its last two. (The strict
    /// decoder takes `QQ=Q` as two bytes; the lenient reader stops at the `=`.)
    private static func endsInWholePadding(_ line: Span<UInt8>) -> Bool {
        let end = line.count
        let equals = UInt8(ascii: "=")
        return end == 0
            || line[end - 4] != equals && line[end - 3] != equals
                && (line[end - 2] != equals || line[end - 1] == equals)
    }

    /// Base64 read leniently, one character at a time: the reference for ``base64(_:)``.
    static func lenientBase64(_ text: Span<UInt8>, into output: inout OutputSpan<UInt8>) {
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<text.count {
            let character = text[index]
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): return
            default: continue
            }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
    }

    private static func invalidInteger(_ text: Span<UInt8>) -> Rejection {
        Rejection(.invalidValue(element: "integer", text: string(text)))
    }

    /// The text, for messages (invalid UTF-8 repaired).
    static func string(_ text: Span<UInt8>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        for index in 0..<text.count { bytes.append(text[index]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func skipDigits(_ text: Span<UInt8>, _ index: inout Int) -> Int {
        let start = index
        while index < text.count, (0x30...0x39).contains(text[index]) { index += 1 }
        return index - start
    }

    private static func digitValue(_ byte: UInt8, radix: UInt64) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: UInt64(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: UInt64(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}

/// Why a reader refused its input; the reader adds where it happened.
struct Rejection: Error {
    var kind: PlistError.Kind

    init(_ kind: PlistError.Kind) { self.kind = kind }
}
