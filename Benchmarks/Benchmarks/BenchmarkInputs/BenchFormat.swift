import Foundation
import PlistKit

/// The encodings the suite measures, each read and written by this package and, where it can,
/// by Foundation in the same run.
package enum BenchFormat: String, CaseIterable, Sendable {
    case binary, xml

    /// This package's encoding of `tree`.
    package func encode(_ tree: Plist) throws -> [UInt8] {
        switch self {
        case .binary: try tree.binaryBytes()
        case .xml: try tree.xmlBytes()
        }
    }

    /// This package's reading of `bytes`.
    package func decode(_ bytes: [UInt8]) throws -> Plist {
        switch self {
        case .binary: try Plist(binary: bytes)
        case .xml: try Plist(xml: bytes)
        }
    }

    /// Foundation's reading of `data` (an object graph), or nil when Foundation cannot read this format.
    package var foundationDecode: (@Sendable (Data) throws -> Any)? {
        { try PropertyListSerialization.propertyList(from: $0, options: [], format: nil) }
    }

    /// Foundation's writing of the object graph, or nil when Foundation cannot write this format.
    package var foundationEncode: (@Sendable (NSObject) throws -> Data)? {
        switch self {
        case .binary: { try PropertyListSerialization.data(fromPropertyList: $0, format: .binary, options: 0) }
        case .xml: { try PropertyListSerialization.data(fromPropertyList: $0, format: .xml, options: 0) }
        }
    }

    /// Whether this format can hold `input` without loss (decided without building the input).
    package func holds(_ input: InputFile) -> Bool { true }
}
