import OrderedCollections

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Data {
    /// A copy of the bytes in `span`.
    init(copying span: Span<UInt8>) {
        // SAFETY: the buffer is valid for the duration of the closure, and Data copies it.
        self = unsafe span.withUnsafeBufferPointer { buffer in unsafe Data(buffer: buffer) }
    }
}

/// The identity of a container's storage: equal for copies of one array or dictionary (which
/// share storage until mutated), different for containers built separately. Only meaningful
/// while the containers are alive.
struct StorageIdentity: Hashable {
    private let isDictionary: Bool
    private let keys: UInt
    private let values: UInt

    init(_ elements: [Plist]) {
        isDictionary = false
        keys = 0
        values = Self.address(elements)
    }

    init(_ entries: OrderedDictionary<String, Plist>) {
        isDictionary = true
        keys = Self.address(entries.keys)
        values = Self.address(entries.values)
    }

    private static func address<C: Collection>(_ collection: C) -> UInt {
        // Only the address is kept, as a number; nothing is read or written through it.
        collection.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0
    }
}
