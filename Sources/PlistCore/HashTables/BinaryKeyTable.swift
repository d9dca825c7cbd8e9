/// A dictionary's keys in a `BinaryPlistFile`, found by their bytes: a `HashSlots` table whose
/// slots hold an entry index plus one; only for dictionaries whose keys are all valid ASCII
/// string objects, so that equal keys are exactly equal bytes. A repeated key keeps its last
/// entry, whose value counts.
struct BinaryKeyTable: Sendable {
    private var slots: HashSlots<UInt32>

    /// The table of `count` keys whose references start at `start`, or nil when a key is not a
    /// valid ASCII string (or does not read: the search reports that when it meets it).
    init?(_ span: Span<UInt8>, _ layout: BinaryLayout, count: Int, start: Int) {
        guard count < Int(UInt32.max) else { return nil }
        slots = HashSlots(capacity: count, minimumCount: 64)
        for index in 0..<count {
            guard let key = Self.key(span, layout, start: start, index: index),
                case let bytes = span.extracting(key), bytes.isASCII
            else { return nil }
            let place = slots.place(of: Self.hash(bytes)) { slot in
                guard let other = Self.key(span, layout, start: start, index: Int(slot) - 1) else { return false }
                return span.extracting(other).hasSameBytes(as: bytes)
            }
            if slots[place].isEmpty {
                slots.fill(place, with: UInt32(index + 1))
            } else {
                slots.replace(place, with: UInt32(index + 1))
            }
        }
    }

    /// The entry index of the key whose bytes are `wanted`, or nil.
    func find(_ wanted: Span<UInt8>, _ span: Span<UInt8>, _ layout: BinaryLayout, start: Int) -> Int? {
        let place = slots.place(of: Self.hash(wanted)) { slot in
            guard let key = Self.key(span, layout, start: start, index: Int(slot) - 1) else { return false }
            return span.extracting(key).hasSameBytes(as: wanted)
        }
        return slots[place].isEmpty ? nil : Int(slots[place]) - 1
    }

    private static func hash(_ bytes: Span<UInt8>) -> Int {
        Int(truncatingIfNeeded: SeededHash.bytes(bytes))
    }

    /// Where the bytes of key `index` are, when it is an ASCII string object (marker `0x5n`)
    /// that reads.
    private static func key(_ span: Span<UInt8>, _ layout: BinaryLayout, start: Int, index: Int) -> Range<Int>? {
        guard let ref = try? layout.reference(span, at: start + index * layout.referenceSize),
            case let offset = layout.offset(of: ref, in: span), BinaryMarker.Kind(span[offset]) == .asciiString,
            let (length, keyStart) = try? layout.length(span, span[offset], at: offset, unit: 1)
        else { return nil }
        return keyStart..<keyStart + length
    }
}
