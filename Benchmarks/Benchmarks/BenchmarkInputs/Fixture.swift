import Foundation
import PlistKit

/// One input file in the forms the benchmarks use, built once on first use.
package final class Fixture: @unchecked Sendable {
    // Invariant: nothing changes after `init`, so sharing the Foundation graph between threads is safe.
    package let tree: Plist
    /// The same content as Foundation objects.
    package let foundationObject: NSObject
    /// `tree` written by PlistCore in each format that can hold it.
    package let encoded: [BenchFormat: [UInt8]]
    /// `tree` written by PlistCore in binary.
    package var bytes: [UInt8] { encoded[.binary]! }

    package init(_ tree: Plist, _ input: InputFile) {
        self.tree = tree
        foundationObject = tree.foundationObject
        encoded = Dictionary(
            uniqueKeysWithValues: BenchFormat.allCases.filter { $0.holds(input) }.map { ($0, try! $0.encode(tree)) })
        precondition(try! Plist(binary: bytes) == tree, "PlistCore did not read back what it wrote")
    }

    /// `foundationObject` written by Foundation, checked to hold the same content as `tree`.
    ///
    /// Built on demand: Foundation on Linux takes seconds to write the larger inputs.
    package func foundationBytes() throws -> Data {
        let data = try PropertyListSerialization.data(fromPropertyList: foundationObject, format: .binary, options: 0)
        let readBack = try Plist(binary: data)
        precondition(readBack == tree.replacingUIDs, "Foundation wrote other content")
        return data
    }
}
