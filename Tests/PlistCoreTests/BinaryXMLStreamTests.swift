import Foundation
import PlistCore
import PropertyBased
import TestSupport
import Testing

/// `BinaryPlistFile.writeXML` (XML written while the binary file is walked) against
/// `xmlBytes` of the value `Plist(binary:)` reads: the same bytes, for random values, their
/// subtrees and both key orders; hostile files refused as they are read.
@Suite struct BinaryXMLStreamTests {
    static let values = Generator { rng in PlistGenerator(maxNodes: 300).value(using: &rng) }

    static func streamed(
        _ file: BinaryPlistFile, at path: PlistKeyPath = PlistKeyPath(components: []),
        options: PlistWriteOptions = .init()
    ) throws(PlistError) -> [UInt8] {
        var out: [UInt8] = []
        try file.writeXML(at: path, options: options) { chunk throws(PlistError) in out += chunk }
        return out
    }

    @Test func randomValuesStreamToTheInMemoryWritersBytes() async throws {
        await propertyCheck(count: 60, input: Self.values) { value in
            let bytes = try value.binaryBytes()
            let file = try BinaryPlistFile(bytes: bytes)
            let whole = try Plist(binary: bytes)
            #expect(try Self.streamed(file) == whole.xmlBytes())
            let unsorted = PlistWriteOptions(sortsKeys: false)
            #expect(try Self.streamed(file, options: unsorted) == whole.xmlBytes(options: unsorted))
            for steps in LazyAgreement.paths(in: whole, limit: 20) {
                let path = LazyAgreement.keyPath(steps)
                #expect(try Self.streamed(file, at: path) == whole.value(at: path).xmlBytes(), "\(path)")
            }
        }
    }

    /// Repeated keys keep their first place and their last value; keys are sorted as Foundation
    /// sorts them; chunks of 1 MiB are handed over as the text grows.
    @Test func repeatedKeysAndLargeValues() throws {
        var builder = BinaryBuilder(objects: [], offsetSize: 4, referenceSize: 2)
        let blob = [UInt8](repeating: 0x41, count: 3_000_000)
        builder.objects = [
            [], BinaryBuilder.ascii("b"), BinaryBuilder.ascii("a"), [0x10, 1], [0x10, 2], [0x10, 3],
            [0x4F, 0x12] + BinaryBuilder.bigEndian(UInt64(blob.count), width: 4) + blob,
        ]
        builder.objects[0] = builder.container(0xD0, [1, 2, 1, 2, 3, 4, 5, 6])
        let bytes = builder.bytes()
        let whole = try Plist(binary: bytes)
        #expect(whole.dictionary?.keys.elements == ["b", "a"])
        var chunks: [Int] = []
        var out: [UInt8] = []
        try BinaryPlistFile(bytes: bytes).writeXML { chunk throws(PlistError) in
            chunks.append(chunk.count)
            out += chunk
        }
        #expect(out == (try whole.xmlBytes()))
        #expect(chunks.count >= 2, "\(chunks)")
    }

    @Test func hostileFilesAreRefusedAsTheyAreRead() throws {
        // A cycle.
        var cycle = BinaryBuilder(objects: [])
        cycle.objects = [cycle.container(0xA0, [1]), cycle.container(0xA0, [0])]
        let file = try BinaryPlistFile(bytes: cycle.bytes())
        #expect(try #require(throws: PlistError.self) { try Self.streamed(file) }.code == .cycle)

        // 2^64 leaves in a kilobyte: refused by the value limit before anything is written (even
        // without limits: the count passes Int.max), as the whole-file reader refuses it.
        var bomb = BinaryBuilder(objects: [[0x10, 1]])
        for _ in 0..<64 { bomb.objects.append(bomb.container(0xA0, [bomb.objects.count - 1, bomb.objects.count - 1])) }
        bomb.top = 64
        let bombFile = try BinaryPlistFile(bytes: bomb.bytes(), options: PlistReadOptions(maxObjects: 10_000))
        let tooMany = try #require(throws: PlistError.self) { try Self.streamed(bombFile) }
        #expect(tooMany.code == .tooManyObjects && tooMany.byteOffset != nil, "\(tooMany)")
        let unlimited = try BinaryPlistFile(
            bytes: bomb.bytes(), options: PlistReadOptions(maxObjects: .max, maxContentBytes: .max))
        let limited = PlistWriteOptions(maxOutputBytes: 100_000)
        var chunks = 0
        let overflow = try #require(throws: PlistError.self) {
            try unlimited.writeXML(options: limited) { _ throws(PlistError) in chunks += 1 }
        }
        #expect(chunks == 0)
        #expect(
            overflow
                == (try #require(throws: PlistError.self) {
                    try Plist(binary: bomb.bytes(), options: PlistReadOptions(maxObjects: .max, maxContentBytes: .max))
                }))
        #expect(overflow.code == .tooManyObjects)

        // Too deep, for the reader and for the writer.
        var deep = BinaryBuilder(objects: [], offsetSize: 2, referenceSize: 2)
        deep.objects = (0..<600).map { $0 == 599 ? [0x10, 5] : deep.container(0xA0, [$0 + 1]) }
        let deepFile = try BinaryPlistFile(bytes: deep.bytes())
        #expect(try #require(throws: PlistError.self) { try Self.streamed(deepFile) }.code == .tooDeep)

        // Every corrupted byte of a small file: the in-memory bytes, or an error inside the file.
        for position in BinaryHostileTests.small.indices {
            var bytes = BinaryHostileTests.small
            bytes[position] ^= 0xFF
            guard let file = try? BinaryPlistFile(bytes: bytes) else { continue }
            do {
                let out = try Self.streamed(file)
                #expect(out == (try Plist(binary: bytes).xmlBytes()), "\(position)")
            } catch {
                #expect(try #require(error.byteOffset) < bytes.count, "\(position): \(error)")
            }
        }
    }

    /// `check()` accepts what `Plist(binary:)` reads and refuses what it refuses: random values,
    /// every truncation and corrupted byte of a small file, cycles and bombs.
    @Test func checkAgreesWithTheWholeFileReader() async throws {
        await propertyCheck(count: 30, input: Self.values) { value in
            try BinaryPlistFile(bytes: try value.binaryBytes()).check()
        }
        let small = BinaryHostileTests.small
        var cases = (41..<small.count).map { Array(small[0..<$0]) }
        for position in small.indices {
            for byte: UInt8 in [0x00, 0x0F, 0x7F, 0x80, 0xFF] {
                var bytes = small
                bytes[position] = byte
                cases.append(bytes)
            }
        }
        var bomb = BinaryBuilder(objects: [[0x10, 1]])
        for _ in 0..<64 { bomb.objects.append(bomb.container(0xA0, [bomb.objects.count - 1, bomb.objects.count - 1])) }
        bomb.top = 64
        cases.append(bomb.bytes())
        var refused = 0
        for bytes in cases {
            guard let file = try? BinaryPlistFile(bytes: bytes) else { continue }
            let whole = Result { () throws(PlistError) in try Plist(binary: bytes) }
            let checked = Result { () throws(PlistError) in try file.check() }
            switch (whole, checked) {
            case (.success, .success): break
            case (.failure, .failure(let error)):
                refused += 1
                #expect(try #require(error.byteOffset) < bytes.count, "\(error)")
            default: Issue.record("\(bytes): whole \(whole), check \(checked)")
            }
        }
        #expect(refused > 100)
    }
}
