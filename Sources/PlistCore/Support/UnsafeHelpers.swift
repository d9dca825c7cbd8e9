#if os(Linux)
import Glibc
#endif

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

extension Data {
    /// The bytes of `array` without copying them: the `Data` keeps the array's storage alive
    /// and uses it in place. Only for an array nothing else holds (a writer's fresh output),
    /// since a `Data` that is mutated writes into that storage.
    package init(adopting array: consuming [UInt8]) {
        guard !array.isEmpty else {
            self = Data()
            return
        }
        let owner = array
        // SAFETY: an array's storage stays where it is while it is alive and not mutated; the
        // deallocator keeps `owner` alive (and unmutated) as long as the `Data` uses the storage.
        let base = unsafe owner.withUnsafeBytes { unsafe UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
        self = unsafe Data(bytesNoCopy: base, count: owner.count, deallocator: .custom { _, _ in _ = owner })
    }

    /// A copy of the bytes in `span`.
    package init(copying span: Span<UInt8>) {
        // SAFETY: the buffer is valid for the duration of the closure, and Data copies it.
        self = unsafe span.withUnsafeBufferPointer { buffer in unsafe Data(buffer: buffer) }
    }
}

extension Array where Element == UInt8 {
    /// A copy of the bytes in `span`.
    package init(copying span: Span<UInt8>) {
        // SAFETY: the buffer is valid for the duration of the closure, and the array copies it.
        self = unsafe span.withUnsafeBufferPointer { buffer in unsafe Array(buffer) }
    }
}

extension Array where Element: BitwiseCopyable {
    /// An empty array with room for at least `capacity` elements, for a buffer of megabytes
    /// filled once (a writer's output, a reader's table). On Linux the kernel is asked to back
    /// it with 2 MB pages where it can (transparent huge pages, `madvise` mode): every fresh
    /// page costs a fault and zeroing, and one fault per 2 MB instead of per 4 KB makes filling
    /// such a buffer measurably cheaper (docs/PERFORMANCE.md). Small buffers (under 4 MB) are
    /// left as they are.
    package init(largeCapacity capacity: Int) {
        self.init()
        reserveCapacity(capacity)
        #if os(Linux)
        let size = capacity * MemoryLayout<Element>.stride
        guard size >= Self.largeSize else { return }
        // SAFETY: only the address of the storage is taken, to advise the kernel about the
        // whole 2 MB pages inside the `size` bytes reserved; nothing is read or written.
        let base = unsafe withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let start = (base + Self.hugePage - 1) & ~(Self.hugePage - 1)
        let end = (base + UInt(size)) & ~(Self.hugePage - 1)
        guard end > start, let address = unsafe UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = unsafe madvise(address, Int(end - start), MADV_HUGEPAGE)
        #endif
    }

    /// `count` copies of `value`, in storage as `init(largeCapacity:)` makes.
    package init(largeRepeating value: Element, count: Int) {
        self.init(largeCapacity: count)
        append(contentsOf: repeatElement(value, count: count))
    }

    /// Makes room for `extra` more elements when there is none, into storage as
    /// `init(largeCapacity:)` makes: doubling the capacity as `append` would, and from 4 MB to
    /// 64 MB growing it eightfold. Room never written costs nothing (its pages are never
    /// faulted in), but each growth copies the elements into fresh pages, which the kernel
    /// zeroes: growing eightfold means fewer copies and fewer fresh pages for buffers that grow
    /// to many megabytes. Beyond 64 MB, doubling keeps the address space reserved at most 512 MB
    /// past what is used.
    @inline(__always)
    package mutating func reserveLarge(adding extra: Int) {
        if count + extra > capacity { growLarge(adding: extra) }
    }

    private mutating func growLarge(adding extra: Int) {
        let size = capacity * MemoryLayout<Element>.stride
        let factor = size >= Self.largeSize && size < Self.eightfoldLimit ? 8 : 2
        var grown = Self(largeCapacity: Swift.max(factor * capacity, count + extra))
        grown.append(contentsOf: self)
        self = grown
    }

    private static var largeSize: Int { 4 << 20 }
    private static var eightfoldLimit: Int { 64 << 20 }
    private static var hugePage: UInt { 2 << 20 }
}

/// The identity of a container's storage: equal for copies of one array or dictionary (which
/// share storage until mutated), different for containers built separately. Only meaningful
/// while the containers are alive; `nil` when the storage's address is not available.
struct StorageIdentity: Equatable {
    private enum Kind: UInt8 {
        case array, dictionary, keys
    }

    private let kind: Kind
    /// The storage of the elements, of the dictionary's values, or of the keys alone.
    let address: UInt
    /// A dictionary's keys' storage (zero for the others).
    private let keys: UInt

    init?(_ elements: [Plist]) {
        guard let address = Self.address(elements) else { return nil }
        kind = .array
        self.address = address
        keys = 0
    }

    init?(_ entries: PlistDictionary) {
        kind = .dictionary
        guard !entries.isEmpty else {
            // Every empty dictionary is one container, as every empty array's storage is one.
            address = 0
            keys = 0
            return
        }
        guard let values = Self.address(entries.valueStorage) else { return nil }
        address = values
        keys = Self.address(entries.keyStorage)
    }

    /// The identity of a dictionary's keys alone, which dictionaries read with the same keys
    /// share (`DictionaryKeys`).
    init(keysOf entries: PlistDictionary) {
        kind = .keys
        address = Self.address(entries.keyStorage)
        keys = 0
    }

    private static func address(_ object: AnyObject) -> UInt {
        UInt(bitPattern: ObjectIdentifier(object))
    }

    private static func address<C: Collection>(_ collection: C) -> UInt? {
        // Only the address is kept, as a number; nothing is read or written through it.
        collection.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) }
    }
}

extension OutputSpan<UInt8> {
    /// Appends `bytes` with one copy; the span must have room for them (else it traps).
    mutating func append(copying bytes: Span<UInt8>) {
        precondition(bytes.count <= freeCapacity, "OutputSpan capacity overflow")
        // SAFETY: the destination is the span's free capacity, checked above to hold `bytes`;
        // the source is valid for the duration of the inner closure.
        unsafe withUnsafeMutableBufferPointer { buffer, initializedCount in
            unsafe bytes.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                unsafe (buffer.baseAddress! + initializedCount).initialize(from: base, count: source.count)
            }
            initializedCount += bytes.count
        }
    }

    /// Appends the UTF-8 bytes of a literal with one copy (a few moves once inlined, the count
    /// being known); the span must have room for them (else it traps).
    @inline(__always)
    mutating func append(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount <= freeCapacity, "OutputSpan capacity overflow")
        // SAFETY: the destination is the span's free capacity, checked above to hold the
        // literal's bytes; the source is the literal's static storage, read during the call only.
        unsafe withUnsafeMutableBufferPointer { buffer, initializedCount in
            text.withUTF8Buffer { source in
                guard let base = source.baseAddress else { return }
                unsafe (buffer.baseAddress! + initializedCount).initialize(from: base, count: source.count)
            }
            initializedCount += text.utf8CodeUnitCount
        }
    }
}

extension String {
    /// The string of `bytes`, which the caller found to be all ASCII (`Span.isASCII`): ASCII is
    /// valid UTF-8, so it is not validated again, and the string knows it is ASCII.
    init(checkedASCII bytes: Span<UInt8>) {
        // SAFETY: every byte is below 0x80 (the caller's check), which is valid UTF-8.
        self = unsafe String(copying: UTF8Span(unchecked: bytes, isKnownASCII: true))
    }
}

extension Span<UInt8> {
    /// The 8 bytes at `offset` as one little-endian word (the first byte lowest); they must be
    /// inside the span (else it traps).
    @inlinable @inline(__always)
    package func word(at offset: Int) -> UInt64 {
        // SAFETY: every bit pattern is a valid `UInt64`; `unsafeLoadUnaligned` checks the bounds.
        unsafe bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
    }

    /// The 16 bytes at `offset` as two little-endian words, as `word(at:)` reads 8; they must
    /// be inside the span (else it traps). For tests on every byte, two words per instruction.
    @inline(__always)
    func twoWords(at offset: Int) -> SIMD2<UInt64> {
        // SAFETY: every bit pattern is a valid `SIMD2<UInt64>`; `unsafeLoadUnaligned` checks the bounds.
        let words = unsafe bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: SIMD2<UInt64>.self)
        return SIMD2(words[0].littleEndian, words[1].littleEndian)
    }

    /// The 4 bytes at `offset`, little-endian, as `word(at:)` reads 8.
    @inline(__always)
    func halfWord(at offset: Int) -> UInt32 {
        // SAFETY: every bit pattern is a valid `UInt32`; `unsafeLoadUnaligned` checks the bounds.
        unsafe bytes.unsafeLoadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
    }

    /// The offset of the first byte, from `start` on, where these bytes and `other` differ, up
    /// to the end of the shorter; nil when they agree that far. Compared eight at a time: the
    /// one comparison of bytes that the others (`hasSameBytes`, `byteOrder`, the writers' key
    /// order) are made of.
    @inline(__always)
    package func firstDifference(from other: Span<UInt8>, after start: Int = 0) -> Int? {
        let end = Swift.min(count, other.count)
        var index = start
        while index + 8 <= end {
            let difference = word(at: index) ^ other.word(at: index)
            if difference != 0 { return index + difference.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end {
            if self[index] != other[index] { return index }
            index += 1
        }
        return nil
    }

    /// Whether `other` holds exactly these bytes.
    @inline(__always)
    package func hasSameBytes(as other: Span<UInt8>) -> Bool {
        count == other.count && firstDifference(from: other) == nil
    }

    /// The byte order of these bytes and `other`, whose first `start` bytes are known to agree
    /// (as far as both go): negative, zero or positive; a prefix comes first.
    package func byteOrder(_ other: Span<UInt8>, from start: Int = 0) -> Int {
        guard let index = firstDifference(from: other, after: start) else { return count - other.count }
        return Int(self[index]) - Int(other[index])
    }

    /// Whether every byte is ASCII, tested eight at a time; the last bytes (fewer than eight)
    /// as one or two overlapping loads, as `SeededHash` reads them.
    var isASCII: Bool {
        var bits: UInt64 = 0
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                bits |= word(at: index)
                index += 8
            }
            bits |= word(at: count - 8)
        } else if count >= 4 {
            bits = UInt64(halfWord(at: 0) | halfWord(at: count - 4))
        } else {
            for index in 0..<count { bits |= UInt64(self[index]) }
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }
}
