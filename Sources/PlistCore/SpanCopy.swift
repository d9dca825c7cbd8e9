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
