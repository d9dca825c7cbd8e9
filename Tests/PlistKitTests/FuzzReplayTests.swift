import Foundation
import PlistKit
import TestSupport
import Testing

/// Every input the fuzzers found a problem with (`Fixtures/fuzz/<target>/`), replayed: it is
/// either refused with a `PlistError` or read, and then binary gives back exactly the value and
/// XML settles after one trip.
@Suite struct FuzzReplayTests {
    struct Input: CustomTestStringConvertible, Sendable {
        var target: String
        var url: URL
        var testDescription: String { target + "/" + url.lastPathComponent }
    }

    static let inputs: [Input] = {
        let folder = Paths.fixtures.appendingPathComponent("fuzz")
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return targets.sorted().flatMap { target in
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? []
            return files.sorted().map {
                Input(target: target, url: folder.appendingPathComponent(target).appendingPathComponent($0))
            }
        }
    }()

    @Test func everyTargetHasInputs() {
        #expect(Set(Self.inputs.map(\.target)).isSuperset(of: ["FuzzBinary", "FuzzXML"]))
    }

    /// The reader each target fuzzes (FuzzCodable's reads any format before it decodes).
    static let readers: [String: @Sendable ([UInt8]) throws(PlistError) -> Plist] = [
        "FuzzBinary": { bytes throws(PlistError) in try Plist(binary: bytes) },
        "FuzzXML": { bytes throws(PlistError) in try Plist(xml: bytes) },
        "FuzzOpenStep": { bytes throws(PlistError) in try Plist(openStep: bytes) },
        "FuzzJSON": { bytes throws(PlistError) in try Plist(json: bytes) },
        "FuzzCodable": { bytes throws(PlistError) in try Plist(bytes: bytes) },
    ]

    @Test(arguments: inputs)
    func replays(input: Input) throws {
        let read = try #require(Self.readers[input.target], "no reader for Fixtures/fuzz/\(input.target)")
        let value: Plist
        do { value = try read(try Paths.bytes(input.url)) } catch let error as PlistError {
            #expect(!error.description.isEmpty)
            return
        }
        #expect(try Plist(binary: try value.binaryBytes()) == value)
        // XML refuses only what would not read back, naming where it is.
        let xml: [UInt8]
        do { xml = try value.xmlBytes() } catch {
            #expect(error.code == .unrepresentable && error.keyPath != nil, "\(error)")
            return
        }
        // XML may round a date or a NaN once; after one trip it writes and reads back the same.
        let once = try Plist(xml: xml)
        #expect(try Plist(xml: try once.xmlBytes()) == once)
    }
}
