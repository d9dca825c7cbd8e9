import Foundation
import PlistKit

/// One input file in the forms the benchmarks use, built once on first use.
final class Fixture: @unchecked Sendable {
    // Invariant: nothing changes after `init`, so sharing the Foundation graph between threads is safe.
    let tree: Plist
    /// The same content as Foundation objects.
    let foundationObject: NSObject
    /// `tree` written by PlistCore.
    let bytes: [UInt8]
    /// `tree` written by PlistCore as XML (byte for byte what Foundation writes).
    let xmlBytes: [UInt8]

    init(_ tree: Plist) {
        self.tree = tree
        foundationObject = tree.foundationObject
        bytes = try! tree.binaryBytes()
        precondition(try! Plist(binary: bytes) == tree, "PlistCore did not read back what it wrote")
        xmlBytes = try! tree.xmlBytes()
    }

    /// `foundationObject` written by Foundation, checked to hold the same content as `tree`.
    ///
    /// Built on demand: Foundation on Linux takes seconds to write the larger inputs.
    func foundationBytes() throws -> Data {
        let data = try PropertyListSerialization.data(fromPropertyList: foundationObject, format: .binary, options: 0)
        let readBack = try Plist(binary: data)
        precondition(readBack == tree.replacingUIDs, "Foundation wrote other content")
        return data
    }
}
