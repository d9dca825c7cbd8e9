#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading single objects of a `bplist00` file, checked against the layout the trailer gives:
/// shared by every binary reader.
extension BinaryLayout {
    /// The scalar object whose marker is at `offset`, and how many bytes of string or data it
    /// holds. Containers (`0xA`, `0xC`, `0xD`) are not scalars: the caller handles them first.
    /// `scratch` is reused between UTF-16 strings.
    func scalar(
        _ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int, scratch: inout [UInt8]
    ) throws(PlistError) -> (value: Plist, contentBytes: Int) {
        switch BinaryMarker.Kind(marker) {
        case .simple:
            switch marker {
            case BinaryMarker.false: return (.bool(false), 0)
            case BinaryMarker.true: return (.bool(true), 0)
            default: throw PlistError(.invalidMarker(marker), at: offset)
            }
        case .integer:
            return (.integer(try integer(bytes, marker, at: offset)), 0)
        case .real:
            return (.real(try real(bytes, marker, at: offset)), 0)
        case .date:
            return (.date(Date(timeIntervalSinceReferenceDate: try date(bytes, marker, at: offset))), 0)
        case .data:
            let (count, start) = try length(bytes, marker, at: offset, unit: 1)
            return (.data(Data(copying: bytes.extracting(start..<start + count))), count)
        case .asciiString:
            let (count, start) = try length(bytes, marker, at: offset, unit: 1)
            return (.string(try asciiString(bytes, start, count)), count)
        case .utf16String:
            let (count, start) = try length(bytes, marker, at: offset, unit: 2)
            let string = try UnicodeText.string(
                utf16: bytes, from: start, to: start + 2 * count, bigEndian: true, scratch: &scratch)
            return (.string(string), 2 * count)
        case .uid:
            let width = Int(BinaryMarker.low(marker)) + 1
            guard width <= 8 else { throw PlistError(.invalidMarker(marker), at: offset) }
            _ = try end(of: width, after: offset, what: "a UID")
            return (.uid(readUInt(bytes, at: offset + 1, width: width)), 0)
        default:
            throw PlistError(.invalidMarker(marker), at: offset)
        }
    }

    /// The key of entry `index` of a dictionary whose key references start at `start`, where
    /// its object is, and how many bytes of text it holds.
    /// - Throws: `.nonStringKey` at the key's object when it is not a string, or its errors.
    func key(
        _ bytes: Span<UInt8>, entry index: Int, start: Int, scratch: inout [UInt8]
    ) throws(PlistError) -> (key: String, offset: Int, contentBytes: Int) {
        let keyRef = try reference(bytes, at: start + index * referenceSize)
        let keyOffset = offset(of: keyRef, in: bytes)
        let keyMarker = bytes[keyOffset]
        guard BinaryMarker.Kind(keyMarker) == .asciiString || BinaryMarker.Kind(keyMarker) == .utf16String,
            case (.string(let key), let contentBytes) = try scalar(bytes, keyMarker, at: keyOffset, scratch: &scratch)
        else { throw PlistError(.nonStringKey(marker: keyMarker), at: keyOffset) }
        return (key, keyOffset, contentBytes)
    }

    /// Checks the scalar object whose marker is at `offset` as `scalar(_:_:at:scratch:)` reads
    /// it (the same lengths, text and numbers), without building its value; returns how many
    /// bytes of string or data it holds. `scratch` is reused for UTF-16 text.
    func checkScalar(
        _ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int, scratch: inout [UInt8]
    ) throws(PlistError) -> Int {
        switch BinaryMarker.Kind(marker) {
        case .data:
            return try length(bytes, marker, at: offset, unit: 1).count
        case .asciiString:
            let (count, start) = try length(bytes, marker, at: offset, unit: 1)
            try checkASCII(bytes, start, count)
            return count
        case .utf16String:
            let (count, start) = try length(bytes, marker, at: offset, unit: 2)
            scratch.removeAll(keepingCapacity: true)
            try UnicodeText.appendUTF16(bytes, from: start, to: start + 2 * count, bigEndian: true, to: &scratch)
            return 2 * count
        default:
            // Booleans, numbers, dates and UIDs are built without allocating.
            return try scalar(bytes, marker, at: offset, scratch: &scratch).contentBytes
        }
    }

    /// How many bytes of string or data the scalar whose marker is at `offset` holds, by its
    /// length alone (0 for other scalars); its text and the other scalars are not checked.
    /// - Throws: the length's errors.
    func scalarContentBytes(_ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int) throws(PlistError) -> Int {
        switch BinaryMarker.Kind(marker) {
        case .data, .asciiString: try length(bytes, marker, at: offset, unit: 1).count
        case .utf16String: 2 * (try length(bytes, marker, at: offset, unit: 2).count)
        default: 0
        }
    }

    /// The UTF-8 bytes of the string object `ref` (a dictionary key): its own bytes for an
    /// ASCII string, else its text transcoded into `scratch`. Two keys are the same key exactly
    /// when these bytes are (the key identity of `PlistDictionary`).
    /// - Throws: `.nonStringKey` at the object when it is not a string, or the string's errors.
    func keyBytes(
        _ bytes: Span<UInt8>, _ ref: Int, scratch: inout [UInt8]
    ) throws(PlistError) -> KeyBytes {
        let offset = offset(of: ref, in: bytes)
        let marker = bytes[offset]
        switch BinaryMarker.Kind(marker) {
        case .asciiString:
            let (count, start) = try length(bytes, marker, at: offset, unit: 1)
            try checkASCII(bytes, start, count)
            return .inFile(start..<start + count)
        case .utf16String:
            let (count, start) = try length(bytes, marker, at: offset, unit: 2)
            scratch.removeAll(keepingCapacity: true)
            try UnicodeText.appendUTF16(bytes, from: start, to: start + 2 * count, bigEndian: true, to: &scratch)
            return .inScratch
        default:
            throw PlistError(.nonStringKey(marker: marker), at: offset)
        }
    }

    /// The end of an object of `size` bytes after the marker at `offset`, if it ends inside
    /// the object area.
    @inline(__always)
    func end(of size: Int, after offset: Int, what: @autoclosure () -> String) throws(PlistError) -> Int {
        guard size < tableOffset - offset else { throw PlistError(.truncated(what: what()), at: offset) }
        return offset + 1 + size
    }

    /// The integer object (marker `0x1n`) at `offset`.
    func integer(_ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int) throws(PlistError) -> PlistInteger {
        let exponent = BinaryMarker.low(marker)
        guard exponent <= 4 else { throw PlistError(.invalidMarker(marker), at: offset) }
        let width = 1 << Int(exponent)
        _ = try end(of: width, after: offset, what: "an integer")
        switch width {
        case 1, 2, 4:
            return PlistInteger(readUInt(bytes, at: offset + 1, width: width))
        case 8:
            return PlistInteger(Int64(bitPattern: readUInt(bytes, at: offset + 1, width: 8)))
        default:
            // 128-bit two's complement: representable when it is a UInt64 or a negative Int64.
            let high = readUInt(bytes, at: offset + 1, width: 8)
            let low = readUInt(bytes, at: offset + 9, width: 8)
            if high == 0 { return PlistInteger(low) }
            if high == .max, low >= 1 << 63 { return PlistInteger(Int64(bitPattern: low)) }
            throw PlistError(.numberOutOfRange, at: offset)
        }
    }

    /// The real object (marker `0x22` or `0x23`) at `offset`.
    func real(_ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int) throws(PlistError) -> Double {
        let end = try end(of: marker == BinaryMarker.real32 ? 4 : 8, after: offset, what: "a real")
        switch marker {
        case BinaryMarker.real32:
            let bits = UInt32(truncatingIfNeeded: readUInt(bytes, at: offset + 1, width: 4))
            return Double(Float(bitPattern: bits))
        case BinaryMarker.real64:
            return Double(bitPattern: readUInt(bytes, at: end - 8, width: 8))
        default:
            throw PlistError(.invalidMarker(marker), at: offset)
        }
    }

    /// The seconds since 2001 of the date object (marker `0x33`) at `offset`.
    func date(_ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int) throws(PlistError) -> Double {
        guard marker == BinaryMarker.date else { throw PlistError(.invalidMarker(marker), at: offset) }
        _ = try end(of: 8, after: offset, what: "a date")
        return Double(bitPattern: readUInt(bytes, at: offset + 1, width: 8))
    }

    /// The count in `marker` (or in the integer object after it) and where the contents start,
    /// after checking that `count` items of `unit` bytes fit in the object area.
    func length(
        _ bytes: Span<UInt8>, _ marker: UInt8, at offset: Int, unit: Int
    ) throws(PlistError) -> (count: Int, start: Int) {
        var count = UInt64(BinaryMarker.low(marker))
        var start = offset + 1
        if count == BinaryMarker.countFollows {
            _ = try end(of: 1, after: offset, what: "a length")
            let lengthMarker = bytes[offset + 1]
            guard BinaryMarker.Kind(lengthMarker) == .integer, BinaryMarker.low(lengthMarker) <= 3 else {
                throw PlistError(.invalidLength, at: offset + 1)
            }
            let width = 1 << Int(BinaryMarker.low(lengthMarker))
            start = try end(of: width, after: offset + 1, what: "a length")
            count = readUInt(bytes, at: offset + 2, width: width)
        }
        let (size, overflow) = count.multipliedReportingOverflow(by: UInt64(unit))
        guard !overflow, size <= UInt64(tableOffset - start) else {
            throw PlistError(.lengthPastEnd(count: count, unit: unit), at: offset)
        }
        return (Int(count), start)
    }

    /// The ASCII string of `count` bytes at `start`.
    func asciiString(_ bytes: Span<UInt8>, _ start: Int, _ count: Int) throws(PlistError) -> String {
        let span = bytes.extracting(start..<start + count)
        guard span.isASCII else { throw nonASCII(span, at: start) }
        return String(checkedASCII: span)
    }

    /// Checks that the `count` bytes at `start` are ASCII, as `asciiString` does.
    func checkASCII(_ bytes: Span<UInt8>, _ start: Int, _ count: Int) throws(PlistError) {
        let span = bytes.extracting(start..<start + count)
        guard !span.isASCII else { return }
        throw nonASCII(span, at: start)
    }

    /// The error for `span`, which holds a byte above 0x7F, at `start`.
    private func nonASCII(_ span: Span<UInt8>, at start: Int) -> PlistError {
        var index = 0
        while span[index] < 0x80 { index += 1 }
        return PlistError(.nonASCIIString, at: start + index)
    }

    /// Reads the object reference at `position` and checks it names an existing object.
    @inline(__always)
    func reference(_ bytes: Span<UInt8>, at position: Int) throws(PlistError) -> Int {
        let ref = readUIntInWord(bytes, at: position, width: referenceSize)
        guard ref < UInt64(objectCount) else {
            throw PlistError(.referenceOutOfRange(ref, objectCount: objectCount), at: position)
        }
        return Int(ref)
    }

    /// A hash of the `count` object references at `start` (a dictionary's keys, to find another
    /// dictionary with the same ones).
    func referencesHash(_ bytes: Span<UInt8>, start: Int, count: Int) -> Int {
        Int(truncatingIfNeeded: SeededHash.bytes(bytes.extracting(start..<start + count * referenceSize)))
    }

    /// Whether the `count` references at `first` and at `second` are the same.
    func sameReferences(_ bytes: Span<UInt8>, _ first: Int, _ second: Int, count: Int) -> Bool {
        let length = count * referenceSize
        return bytes.extracting(first..<first + length).hasSameBytes(as: bytes.extracting(second..<second + length))
    }
}

/// Where the UTF-8 bytes of a dictionary key are (`BinaryLayout.keyBytes`).
enum KeyBytes {
    /// In the file: an ASCII string object's own bytes.
    case inFile(Range<Int>)
    /// In the scratch buffer given: a UTF-16 string transcoded.
    case inScratch
}
