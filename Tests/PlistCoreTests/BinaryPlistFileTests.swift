import Foundation
import PlistCore
import PropertyBased
import TestSupport
import Testing

/// `BinaryPlistFile` (the lazy reader) against `Plist(binary:)` (the whole-file reader): the same
/// values, keys, counts and types at every path of random values; the same errors for broken
/// trailers and for broken objects it reads; and hostile files (offsets and references out of
/// range, cycles, deep nesting, shared-reference bombs, every truncation and corrupted byte)
/// refused without reading outside the bytes.
@Suite struct BinaryPlistFileTests {
    static let values = Generator { rng in PlistGenerator(maxNodes: 300).value(using: &rng) }

    @Test func randomValuesAgreeWithTheWholeFileReaderAtEveryPath() async throws {
        await propertyCheck(count: 60, input: Self.values) { value in
            let bytes = try value.binaryBytes()
            let file = try BinaryPlistFile(bytes: bytes)
            let whole = try Plist(binary: bytes)
            #expect(try file.value().isIdentical(to: whole))
            #expect(LazyAgreement.mismatches(file, whole) == [])
        }
    }

    @Test func pathsThatLeadNowhereFailAsOnTheTree() throws {
        let value: Plist = ["a": ["b": [1, 2]], "s": "text", "a.b": 3]
        let file = try BinaryPlistFile(bytes: try value.binaryBytes())
        for path: PlistKeyPath in ["x", "a.x", "a.b.2", "a.b.-1", "a.b.x", "s.t", "a.b.0.c", "a\\.b.c"] {
            let tree = try #require(throws: PlistError.self) { try value.value(at: path) }
            let lazy = try #require(throws: PlistError.self) { try file.value(at: path) }
            #expect(lazy == tree, "\(path)")
            #expect(lazy.byteOffset == nil)
        }
        #expect(try file.value(at: "a\\.b") == 3)
        #expect(try file.value(at: [.key("a.b")]) == 3)
        #expect(try file.value(at: "a.b.1") == 2)
        // Typed steps are not read as one another: a key is no index, an index no key.
        #expect(throws: PlistError(.noValueAtKeyPath("a.b.1"), at: 0)) {
            try file.value(at: [.key("a"), .key("b"), .key("1")])
        }
        #expect(throws: PlistError(.noValueAtKeyPath("0"), at: 0)) { try file.value(at: [.index(0)]) }
        #expect(try file.keys(at: "a") == ["b"])
        #expect(try #require(throws: PlistError.self) { try file.keys(at: "s") }.code == .unexpectedType)
        #expect(try #require(throws: PlistError.self) { try file.count(at: "s") }.code == .notAContainer)
        #expect(try file.type(at: "s") == .string)
    }

    /// Dictionaries large enough to be indexed, searched several times: repeated keys give their
    /// last value, keys that are not ASCII and keys equal only as `String`s (U+212A KELVIN SIGN
    /// and K) are found as the tree finds them, and indexes off or bounded change nothing.
    @Test(arguments: [0, 40, 1 << 22])
    func largeDictionariesAreSearchedAsTheTreeIs(maxIndexedEntries: Int) throws {
        for keys in [
            (0..<40).map { "key\($0)" } + ["key7", "key12"],
            (0..<40).map { "key\($0)" } + ["\u{E9}t\u{E9}", "K"],
            (0..<40).map { "k\($0)" } + ["\u{212A}"],
        ] {
            var builder = BinaryBuilder(objects: [], offsetSize: 2, referenceSize: 2)
            builder.objects = [[]]
            var references: [Int] = []
            for key in keys {
                references.append(builder.objects.count)
                builder.objects.append(Self.stringObject(key))
            }
            for index in keys.indices {
                references.append(builder.objects.count)
                builder.objects.append([0x10, UInt8(index)])
            }
            builder.objects[0] = builder.container(0xD0, references)
            let bytes = builder.bytes()
            let whole = try Plist(binary: bytes)
            let file = try BinaryPlistFile(bytes: Data(bytes), maxIndexedEntries: maxIndexedEntries)
            for _ in 0..<3 {
                for key in Set(keys + ["missing", "K", "\u{212A}", "e\u{301}t\u{E9}"]) {
                    #expect((try? file.value(at: [.key(key)])) == whole.dictionary?[key], "\(key)")
                }
            }
            #expect(try file.keys() == Array(try #require(whole.dictionary).keys))
            #expect(try file.count() == whole.count)
        }
    }

    /// An ASCII string object, or a UTF-16 one when `text` is not ASCII.
    static func stringObject(_ text: String) -> [UInt8] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return BinaryBuilder.ascii(text) }
        let units = Array(text.utf16)
        return [0x60 | UInt8(units.count)] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    @Test func brokenTrailersGiveTheWholeFileReadersErrors() throws {
        let bytes = BinaryHostileTests.small
        for length in 0..<bytes.count {
            let truncated = Array(bytes[0..<length])
            let whole = try #require(throws: PlistError.self) { try Plist(binary: truncated) }
            let file: BinaryPlistFile
            do throws(PlistError) {
                file = try BinaryPlistFile(bytes: truncated)
            } catch {
                #expect(error == whole, "\(length)")
                continue
            }
            // The trailer looked valid: the first object read fails instead.
            let lazy = try #require(throws: PlistError.self) { try file.value() }
            #expect(try #require(lazy.byteOffset) < length, "\(length): \(lazy)")
        }
    }

    /// Whatever a byte is changed to, the lazy reader reads what the whole-file reader reads,
    /// or fails with an error inside the file; it never traps reading outside it.
    @Test func everyCorruptedByteIsReadAsTheWholeFileIsOrRefused() throws {
        let small = BinaryHostileTests.small
        for position in small.indices {
            for byte: UInt8 in [0x00, 0x0F, 0x7F, 0x80, 0xFF] {
                var bytes = small
                bytes[position] = byte
                let whole = try? Plist(binary: bytes)
                do {
                    let file = try BinaryPlistFile(bytes: bytes)
                    let lazy = try file.value()
                    if let whole { #expect(lazy.isIdentical(to: whole), "\(position)=\(byte)") }
                    for path: PlistKeyPath in ["key", "key.1", "data", "key.3"] {
                        _ = try? file.value(at: path)
                        _ = try? file.keys(at: path)
                        _ = try? file.count(at: path)
                        _ = try? file.type(at: path)
                    }
                } catch {
                    #expect(whole == nil, "\(position)=\(byte): \(error)")
                    #expect(try #require(error.byteOffset) < bytes.count, "\(position)=\(byte): \(error)")
                }
            }
        }
    }

    /// The offset table is checked on opening, as every binary reader checks it: an offset out
    /// of range, even of an object nothing refers to, fails where it is in the table, with the
    /// whole-file reader's error, before any value is read.
    @Test func offsetsOutOfRangeFailOnOpening() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [
            builder.container(0xD0, [1, 2, 3, 4]), BinaryBuilder.ascii("good"), BinaryBuilder.ascii("bad"),
            [0x10, 7], [0x10, 8], [0x10, 9],
        ]
        let tableEntry = { (object: Int) in builder.bytes().count - 32 - 6 + object }
        for object in [4, 5] {
            let bytes = builder.bytes { offsets in offsets[object] = 200 }
            let whole = try #require(throws: PlistError.self) { try Plist(binary: bytes) }
            #expect(whole == PlistError(.objectOffsetOutOfRange(object: object, offset: 200), at: tableEntry(object)))
            #expect(try #require(throws: PlistError.self) { try BinaryPlistFile(bytes: bytes) } == whole)
        }
    }

    @Test func referencesOutOfRangeFailWhenUsed() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [builder.container(0xA0, [1, 9]), [0x10, 1]]
        let bytes = builder.bytes()
        let file = try BinaryPlistFile(bytes: bytes)
        #expect(try file.value(at: "0") == 1)
        #expect(try file.count() == 2)
        let error = try #require(throws: PlistError.self) { try file.value(at: "1") }
        #expect(error == PlistError(.referenceOutOfRange(9, objectCount: 2), at: 10))
        #expect(try #require(throws: PlistError.self) { try file.value() } == error)
        #expect(try #require(throws: PlistError.self) { try Plist(binary: bytes) } == error)
    }

    /// A container that holds itself is a cycle, whether the path goes round it or the value read does.
    @Test func cyclesAreErrors() throws {
        var builder = BinaryBuilder(objects: [])
        builder.objects = [builder.container(0xA0, [1]), builder.container(0xD0, [2, 0]), BinaryBuilder.ascii("up")]
        let bytes = builder.bytes()
        let file = try BinaryPlistFile(bytes: bytes)
        let whole = try #require(throws: PlistError.self) { try Plist(binary: bytes) }
        #expect(whole.code == .cycle)
        #expect(try #require(throws: PlistError.self) { try file.value() }.code == .cycle)
        #expect(try #require(throws: PlistError.self) { try file.value(at: "0") }.code == .cycle)
        #expect(try #require(throws: PlistError.self) { try file.value(at: "0.up.0.up") }.code == .cycle)
        #expect(try file.keys(at: "0") == ["up"])
    }

    /// Containers nested past `maxDepth` are refused, counted from the top of the file however
    /// deep the path starts; a path through them is refused as it enters one too deep.
    @Test func deepNestingIsRefusedAtTheSameDepth() throws {
        var builder = BinaryBuilder(objects: [], offsetSize: 2, referenceSize: 2)
        let depth = 1000
        builder.objects = (0..<depth).map { $0 == depth - 1 ? [0x10, 5] : builder.container(0xA0, [$0 + 1]) }
        let bytes = builder.bytes()
        let options = PlistReadOptions(maxDepth: 100)
        let file = try BinaryPlistFile(bytes: bytes, options: options)
        let whole = try #require(throws: PlistError.self) { try Plist(binary: bytes, options: options) }
        #expect(whole.code == .tooDeep)
        #expect(try #require(throws: PlistError.self) { try file.value() } == whole)
        let path = PlistKeyPath(components: Array(repeating: "0", count: 50))
        #expect(try #require(throws: PlistError.self) { try file.value(at: path) } == whole)
        let tooFar = PlistKeyPath(components: Array(repeating: "0", count: 200))
        #expect(try #require(throws: PlistError.self) { try file.value(at: tooFar) }.code == .tooDeep)
        #expect(try file.type(at: PlistKeyPath(components: Array(repeating: "0", count: 99))) == .array)
        let deep = try BinaryPlistFile(bytes: bytes, options: PlistReadOptions(maxDepth: 2000))
        #expect(try deep.value(at: PlistKeyPath(components: Array(repeating: "0", count: depth - 1))) == 5)
    }

    /// A 1 KB file whose shared references describe 2^64 values: reading it is refused as the
    /// whole-file reader refuses it, while its counts and a small part read.
    @Test func sharedReferencesCountAtEveryUse() throws {
        var builder = BinaryBuilder(objects: [[0x10, 1]])
        var previous = 0
        for _ in 0..<64 {
            builder.objects.append(builder.container(0xA0, [previous, previous]))
            previous = builder.objects.count - 1
        }
        builder.top = UInt64(previous)
        let bytes = builder.bytes()
        let file = try BinaryPlistFile(bytes: bytes)
        let whole = try #require(throws: PlistError.self) { try Plist(binary: bytes) }
        #expect(whole.code == .tooManyObjects)
        #expect(try #require(throws: PlistError.self) { try file.value() }.code == .tooManyObjects)
        #expect(try file.count(at: "1.0.1") == 2)
        #expect(try file.value(at: PlistKeyPath(components: Array(repeating: "1", count: 62))) == [[1, 1], [1, 1]])
    }
}
