import Foundation
import PlistKit

/// The encodings the suite measures, each read and written by this package and, where it can,
/// by Foundation in the same run.
///
/// OpenStep is measured on the inputs plain OpenStep holds (strings, data, arrays, dictionaries),
/// which Foundation can read; Foundation cannot write it. JSON is written lossy (dates as ISO
/// strings, data as base64), which `JSONSerialization` reads too, and Foundation's writer starts
/// from the object graph `JSONSerialization` reads from those bytes.
package enum BenchFormat: String, CaseIterable, Sendable {
    case binary, xml, openstep, json

    /// This package's encoding of `tree`.
    package func encode(_ tree: Plist) throws -> [UInt8] {
        switch self {
        case .binary: try tree.binaryBytes()
        case .xml: try tree.xmlBytes()
        case .openstep: try tree.openStepBytes(options: .init(sortsKeys: false))
        case .json: try tree.jsonBytes(options: .init(sortsKeys: false, jsonValues: .lossy))
        }
    }

    /// This package's reading of `bytes`.
    package func decode(_ bytes: [UInt8]) throws -> Plist {
        switch self {
        case .binary: try Plist(binary: bytes)
        case .xml: try Plist(xml: bytes)
        case .openstep: try Plist(openStep: bytes)
        case .json: try Plist(json: bytes)
        }
    }

    /// Whether this format can hold `input` (decided without building the input).
    package func holds(_ input: InputFile) -> Bool {
        switch self {
        case .binary, .xml, .json: true
        case .openstep: input == .pbxprojLike || input == .stringsUnicode || input == .blobs
        }
    }

    /// Foundation's reading of `data` into its object graph.
    package func foundationDecode(_ data: Data) throws -> Any {
        switch self {
        case .binary, .xml, .openstep: try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        case .json: try JSONSerialization.jsonObject(with: data)
        }
    }

    /// Whether Foundation writes this format.
    package var foundationWrites: Bool { self != .openstep }

    /// Foundation's writing of `object` (from `foundationWriteInput`).
    package func foundationEncode(_ object: Any) throws -> Data {
        switch self {
        case .binary: try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        case .xml: try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
        case .openstep: preconditionFailure("Foundation cannot write OpenStep")
        case .json: try JSONSerialization.data(withJSONObject: object)
        }
    }

    /// What Foundation's writer starts from for `fixture`.
    package func foundationWriteInput(_ fixture: Fixture) throws -> Any {
        switch self {
        case .json: try JSONSerialization.jsonObject(with: Data(fixture.encoded[.json]!))
        default: fixture.foundationObject
        }
    }
}
