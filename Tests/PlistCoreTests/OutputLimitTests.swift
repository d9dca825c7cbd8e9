import Foundation
import PlistCore
import Testing

/// `PlistWriteOptions.maxOutputBytes` in every text writer: a small binary file whose shared
/// references describe an enormous tree passes the read limits, and every writer refuses it at
/// once, with the default limits, instead of writing hundreds of megabytes.
/// Hostile inputs must fail at once, never hang: each test has a time limit (a hang guard, not
/// a speed measurement).
@Suite(.timeLimit(.minutes(10))) struct OutputLimitTests {
    /// `[[...[leaf, leaf]...], [...]]`: 22 levels over one 100-byte string, 4 Mi leaves in one
    /// small binary file. Reading it counts 8 Mi values and 400 MiB of strings (within the
    /// default read limits); any text form of it is larger than 256 MiB.
    static func sharedTree() throws -> (file: [UInt8], value: Plist) {
        var value: Plist = .string(String(repeating: "x", count: 100))
        for _ in 0..<22 { value = [value, value] }
        let file = try value.binaryBytes()
        return (file, try Plist(binary: file))
    }

    static let message = "the output would be larger than 268435456 bytes (raise maxOutputBytes to allow more)"

    /// Runs `write`, which must refuse with the default limit within a second.
    private func expectRefusedQuickly(
        _ write: () throws(PlistError) -> [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: PlistError.self, sourceLocation: sourceLocation) { try write() }
        #expect(error == PlistError(.outputTooLarge(limit: 1 << 28), at: 0), sourceLocation: sourceLocation)
        #expect(error?.description == Self.message, sourceLocation: sourceLocation)
    }

    @Test func everyTextWriterRefusesTheSharedTreeAtOnce() throws {
        let (file, value) = try Self.sharedTree()
        #expect(file.count < 512)
        expectRefusedQuickly { () throws(PlistError) in try value.xmlBytes() }
        expectRefusedQuickly { () throws(PlistError) in try value.jsonBytes() }
        expectRefusedQuickly { () throws(PlistError) in try value.jsonBytes(options: .init(indentsJSON: true)) }
        expectRefusedQuickly { () throws(PlistError) in try value.openStepBytes() }
        expectRefusedQuickly { () throws(PlistError) in try value.swiftSource(name: "x", fileName: "x.plist") }
        expectRefusedQuickly { () throws(PlistError) in try value.objcSource(name: "x", fileName: "x.plist") }
        let project: Plist = ["objects": ["A": ["isa": "PBXGroup", "children": value]]]
        expectRefusedQuickly { () throws(PlistError) in try project.pbxprojBytes(projectName: "x") }
        let buildFile: Plist = ["objects": ["A": ["isa": "PBXBuildFile", "settings": value]]]
        expectRefusedQuickly { () throws(PlistError) in try buildFile.pbxprojBytes(projectName: "x") }
    }

    /// 64 levels of two-element arrays over a small array of scalars, built in memory: 2^64
    /// leaves. Small containers of scalars are measured each time they are met, not looked up;
    /// every container holding containers must still be measured once, or this never ends.
    @Test func sharingSixtyFourLevelsDeepIsMeasuredOnce() {
        var value: Plist = [1, "two", 3.0]
        for _ in 0..<64 { value = [value, value] }
        expectRefusedQuickly { () throws(PlistError) in try value.xmlBytes() }
        expectRefusedQuickly { () throws(PlistError) in try value.jsonBytes() }
        let dictionaries = (0..<64).reduce(Plist.dictionary(["a": 1, "b": "two"])) { inner, _ in
            ["x": inner, "y": inner]
        }
        expectRefusedQuickly { () throws(PlistError) in try dictionaries.openStepBytes() }
    }

    /// A `.strings` file holds no containers, but its values can all be one shared string:
    /// 3,000 keys naming one 100 KB string are 300 MB of text in a 141 KB binary file.
    @Test func theStringsWriterRefusesASharedStringAtOnce() throws {
        let count = 3000
        var builder = BinaryBuilder(objects: [], offsetSize: 4, referenceSize: 2)
        var dictionary: [UInt8] = [0xDF, 0x11] + BinaryBuilder.bigEndian(UInt64(count), width: 2)
        dictionary += (0..<count).flatMap { BinaryBuilder.bigEndian(UInt64(2 + $0), width: 2) }
        dictionary += (0..<count).flatMap { _ in BinaryBuilder.bigEndian(1, width: 2) }
        let long =
            [0x5F, 0x12] + BinaryBuilder.bigEndian(100_000, width: 4)
            + Array(repeating: UInt8(ascii: "y"), count: 100_000)
        builder.objects = [dictionary, long] + (0..<count).map { BinaryBuilder.ascii("k\($0)") }
        let file = builder.bytes()
        #expect(file.count < 150_000)
        let value = try Plist(binary: file)
        #expect(value.dictionary?.count == count)
        expectRefusedQuickly { () throws(PlistError) in try value.stringsBytes() }
        expectRefusedQuickly { () throws(PlistError) in try value.openStepBytes() }
    }

    /// Deep nesting multiplies indentation: 500 levels of one-element arrays around 2^15
    /// shared leaves are 2^15 lines of 500 tabs or more in XML and OpenStep (8 MB), 4 bytes a
    /// level in Swift source; compact JSON has no indentation and fits.
    @Test func indentationCounts() throws {
        var value: Plist = "x"
        for _ in 0..<15 { value = [value, value] }
        for _ in 0..<485 { value = [value] }
        let options = PlistWriteOptions(maxOutputBytes: 8 << 20)
        let error = PlistError(.outputTooLarge(limit: 8 << 20), at: 0)
        #expect(throws: error) { try value.xmlBytes(options: options) }
        #expect(throws: error) { try value.openStepBytes(options: options) }
        #expect(throws: error) { try value.swiftSource(name: "x", fileName: "x", options: options) }
        #expect(throws: error) { try value.jsonBytes(options: .init(indentsJSON: true, maxOutputBytes: 8 << 20)) }
        #expect(try value.jsonBytes(options: options).count < 1 << 20)
    }

    /// Escapes make text larger than what is measured before writing (`\n` is two bytes in
    /// every format but XML, `<` four in XML): those writers stop while writing, one value past
    /// the limit at most; and a limit equal to the output's size lets it through.
    @Test func escapesAreCaughtWhileWriting() throws {
        let text = String(repeating: "\n\"\\<&", count: 200)
        let list = Plist.array(Array(repeating: .string(text), count: 20))
        let dictionary = Plist.dictionary(.init(uniqueKeysWithValues: (0..<20).map { ("k\($0)", Plist.string(text)) }))
        let project: Plist = ["objects": ["A": ["isa": "PBXGroup", "children": list]]]
        let writers: [(String, (PlistWriteOptions) throws(PlistError) -> [UInt8])] = [
            ("xml", { options throws(PlistError) in try list.xmlBytes(options: options) }),
            ("json", { options throws(PlistError) in try list.jsonBytes(options: options) }),
            ("openstep", { options throws(PlistError) in try list.openStepBytes(options: options) }),
            ("strings", { options throws(PlistError) in try dictionary.stringsBytes(options: options) }),
            (
                "swift",
                { options throws(PlistError) in try list.swiftSource(name: "x", fileName: "x", options: options) }
            ),
            ("objc", { options throws(PlistError) in try list.objcSource(name: "x", fileName: "x", options: options) }),
            (
                "pbxproj",
                { options throws(PlistError) in try project.pbxprojBytes(projectName: "x", options: options) }
            ),
        ]
        for (name, write) in writers {
            let full = try write(PlistWriteOptions())
            #expect(full.count > 32_000, "\(name)")
            // 20 values of 1,000 bytes measure about 20,000 bytes before any escape.
            let limit = 25_000
            #expect(throws: PlistError(.outputTooLarge(limit: limit), at: 0), "\(name)") {
                try write(PlistWriteOptions(maxOutputBytes: limit))
            }
            #expect(try write(PlistWriteOptions(maxOutputBytes: full.count)) == full, "\(name)")
        }
    }

    /// Measuring takes time in proportion to the value: 50,000 containers of their own (a
    /// measure that copied its table of sizes at each container took minutes).
    @Test func measuringManyContainersIsQuick() throws {
        let value = Plist.array((0..<50_000).map { ["k": [.integer(PlistInteger($0))]] })
        #expect(try value.jsonBytes().count > 500_000)
        #expect(try value.xmlBytes().count > 500_000)
    }

    /// Build files whose files are build files: their comments end instead of recursing.
    @Test func buildFilesNamingEachOtherEnd() throws {
        let project: Plist = [
            "objects": [
                "A": ["isa": "PBXBuildFile", "fileRef": "B"],
                "B": ["isa": "PBXBuildFile", "fileRef": "A"],
            ]
        ]
        let text = String(decoding: try project.pbxprojBytes(projectName: "x"), as: UTF8.self)
        #expect(text.contains("A /* (null) in (null) */ = {isa = PBXBuildFile; fileRef = B /* (null) in (null) */; };"))
    }
}
