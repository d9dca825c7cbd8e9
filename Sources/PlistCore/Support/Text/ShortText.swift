/// Up to 48 bytes of text made without allocating: a number or date being formatted, which
/// the writers then copy into their output.
struct ShortText {
    static let capacity = 48
    // Invariant: bytes[0..<count] is the text.
    private var bytes = InlineArray<48, UInt8>(repeating: 0)
    private(set) var count = 0

    /// Appends `byte`; more than `capacity` bytes is a programming error and traps.
    mutating func append(_ byte: UInt8) {
        bytes[count] = byte
        count += 1
    }

    mutating func append(contentsOf text: some Sequence<UInt8>) {
        for byte in text { append(byte) }
    }

    /// The decimal digits of `magnitude`, after a minus sign when `negative` (then `magnitude`
    /// holds the two's complement bits).
    mutating func appendDecimal(_ magnitude: UInt64, negative: Bool) {
        var rest = magnitude
        if negative {
            append(UInt8(ascii: "-"))
            rest = 0 &- magnitude
        }
        let start = count
        repeat {
            append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        reverse(from: start)
    }

    /// Removes the last byte.
    mutating func removeLast() {
        precondition(count > 0, "no byte to remove")
        count -= 1
    }

    /// The text's bytes.
    var array: [UInt8] { (0..<count).map { bytes[$0] } }

    /// Reverses the bytes from `start` to the end.
    mutating func reverse(from start: Int) {
        var (low, high) = (start, count - 1)
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    /// Appends the text to `span`, which must have room for it.
    func write(to span: inout OutputSpan<UInt8>) {
        for index in 0..<count { span.append(bytes[index]) }
    }
}
