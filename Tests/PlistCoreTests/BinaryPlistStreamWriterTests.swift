import Foundation
import PlistCore
import TestSupport
import Testing

/// `BinaryPlistStreamWriter` used call by call: what it writes reads back, repeated keys keep
/// their first place and take their last value, it hands over chunks as it goes, and calls
/// out of order throw `.writerMisuse` (and leave the writer refusing everything), never crash.
@Suite struct BinaryPlistStreamWriterTests {
    final class Sink {
        var bytes: [UInt8] = []
        var chunks = 0
    }

    static func writer(_ sink: Sink, options: PlistWriteOptions = .init()) -> BinaryPlistStreamWriter {
        BinaryPlistStreamWriter(options: options) { chunk in
            sink.bytes += chunk
            sink.chunks += 1
        }
    }

    @Test func writesContainersCallByCall() throws {
        let sink = Sink()
        var writer = Self.writer(sink)
        try writer.beginDictionary()
        try writer.key("list")
        try writer.beginArray()
        try writer.append(1)
        try writer.append("two")
        try writer.append(["three": 3.0])
        try writer.endArray()
        try writer.key("b")
        try writer.append(.uid(9))
        try writer.key("list")
        try writer.append(false)
        try writer.key("empty")
        try writer.beginDictionary()
        try writer.endDictionary()
        try writer.endDictionary()
        try writer.finish()
        let expected: Plist = ["list": false, "b": .uid(9), "empty": [:]]
        #expect(try Plist(binary: sink.bytes).isIdentical(to: expected))
    }

    @Test func handsOverChunksAsItGoes() throws {
        let sink = Sink()
        var writer = Self.writer(sink)
        try writer.beginArray()
        for index in 0..<300_000 { try writer.append(.string("item \(index)")) }
        #expect(sink.chunks >= 2, "chunks are written before the end")
        try writer.endArray()
        try writer.finish()
        let back = try Plist(binary: sink.bytes)
        #expect(back.array?.count == 300_000)
        #expect(back.array?.last == "item 299999")
    }

    @Test func limitsDepthAndOutput() throws {
        var writer = Self.writer(Sink(), options: PlistWriteOptions(maxDepth: 3))
        try writer.beginArray()
        try writer.beginArray()
        try writer.beginArray()
        let deep = try #require(throws: PlistError.self) { try writer.beginArray() }
        #expect(deep.code == .tooDeep)

        var small = Self.writer(Sink(), options: PlistWriteOptions(maxOutputBytes: 100))
        let large = try #require(throws: PlistError.self) {
            try small.append(.array((0..<100).map { .string("value \($0)") }))
            try small.finish()
        }
        #expect(large.code == .outputTooLarge)
    }

    /// Each misuse, after some valid calls, and the message it gives.
    @Test(arguments: [
        ("endArray", "endArray() with no container open"),
        ("endDictionary", "endDictionary() with no container open"),
        ("arrayEndsDictionary", "endDictionary() ends an array"),
        ("dictionaryEndsArray", "endArray() ends a dictionary"),
        ("finishOpen", "finish() with 2 containers still open"),
        ("finishEmpty", "finish() before any value"),
        ("keyInArray", "a key outside a dictionary"),
        ("keyAtTop", "a key outside a dictionary"),
        ("valueWithoutKey", "a value in a dictionary without a key"),
        ("twoKeys", "the key \"a\" has no value"),
        ("endWithKey", "the key \"a\" has no value"),
        ("twoTops", "more than one top-level value"),
        ("afterFinish", "the writer has finished"),
    ])
    func misuseThrows(name: String, message: String) throws {
        let sink = Sink()
        var writer = Self.writer(sink)
        let error = try #require(throws: PlistError.self) {
            switch name {
            case "endArray": try writer.endArray()
            case "endDictionary": try writer.endDictionary()
            case "arrayEndsDictionary":
                try writer.beginArray()
                try writer.endDictionary()
            case "dictionaryEndsArray":
                try writer.beginDictionary()
                try writer.endArray()
            case "finishOpen":
                try writer.beginArray()
                try writer.beginDictionary()
                try writer.finish()
            case "finishEmpty": try writer.finish()
            case "keyInArray":
                try writer.beginArray()
                try writer.key("a")
            case "keyAtTop": try writer.key("a")
            case "valueWithoutKey":
                try writer.beginDictionary()
                try writer.append(1)
            case "twoKeys":
                try writer.beginDictionary()
                try writer.key("a")
                try writer.key("b")
            case "endWithKey":
                try writer.beginDictionary()
                try writer.key("a")
                try writer.endDictionary()
            case "twoTops":
                try writer.append(1)
                try writer.append(2)
            default:
                try writer.append(1)
                try writer.finish()
                try writer.append(2)
            }
        }
        #expect(error.code == .writerMisuse)
        #expect(error.description == "streaming writer misused: \(message)")
        if name != "afterFinish" {
            let again = try #require(throws: PlistError.self) { try writer.finish() }
            #expect(again.description == "streaming writer misused: the writer has failed before")
        }
    }

    /// Repeated keys in wide and nested dictionaries, found from hashes: keys read back from the
    /// output (also from chunks already handed over) and keys kept by the writer give the same
    /// value as a dictionary filled by assignment (first place, last value).
    @Test(arguments: [false, true])
    func repeatedKeysInWideDictionaries(readingBack: Bool) throws {
        let sink = Sink()
        var writer =
            readingBack
            ? BinaryPlistStreamWriter(
                write: { chunk in
                    sink.bytes += chunk
                    sink.chunks += 1
                },
                reread: { offset, count in Array(sink.bytes[offset..<min(offset + count, sink.bytes.count)]) })
            : Self.writer(sink)
        var generator = SeededRandom(seed: readingBack ? 7 : 8)
        let names = (0..<3_000).map { index -> String in
            switch index % 4 {
            case 0: "k\(index)"
            case 1: "a longer key, past fifteen bytes, \(index)"
            case 2: "clé \(index) ✓"
            default: String(repeating: "x", count: index % 40) + "\(index)"
            }
        }
        var expected = PlistDictionary()
        try writer.beginDictionary()
        for step in 0..<12_000 {
            let name = names[Int(generator.next() % UInt64(step < 6_000 ? names.count : 40))]
            try writer.key(name)
            if step % 500 == 0 {
                let inner: Plist = ["k1": 1, "k1 ": 2, "k\(step)": .data(Data(repeating: 7, count: 3_000))]
                try writer.beginDictionary()
                for (key, value) in inner.dictionary! {
                    try writer.key(key)
                    try writer.append(value)
                }
                try writer.key("k1")
                try writer.append("again")
                try writer.endDictionary()
                var replaced = inner.dictionary!
                replaced["k1"] = "again"
                expected[name] = .dictionary(replaced)
            } else {
                let value: Plist =
                    step % 3 == 0 ? .data(Data(repeating: UInt8(step % 256), count: 600)) : .integer(PlistInteger(step))
                try writer.append(value)
                expected[name] = value
            }
        }
        try writer.endDictionary()
        try writer.finish()
        #expect(sink.chunks >= 3, "keys are read back from chunks handed over")
        #expect(try Plist(binary: sink.bytes).isIdentical(to: .dictionary(expected)))
        // The reader would hide a key written twice: the top dictionary's own count says none was.
        #expect(Self.topCount(sink.bytes) == expected.count)
    }

    /// The number of entries of the top container, from its header.
    static func topCount(_ bytes: [UInt8]) -> Int {
        let trailer = bytes.suffix(32).map(Int.init)
        let offsetSize = trailer[6]
        let top = trailer[16..<24].reduce(0) { $0 << 8 | $1 }
        let table = trailer[24..<32].reduce(0) { $0 << 8 | $1 }
        let entry = table + top * offsetSize
        let offset = bytes[entry..<entry + offsetSize].reduce(0) { $0 << 8 | Int($1) }
        guard bytes[offset] & 0x0F == 0x0F else { return Int(bytes[offset] & 0x0F) }
        let width = 1 << Int(bytes[offset + 1] & 0x0F)
        return bytes[offset + 2..<offset + 2 + width].reduce(0) { $0 << 8 | Int($1) }
    }

    /// A `write` that fails stops the writer with its error.
    @Test func writeErrorsStopTheWriter() throws {
        var writer = BinaryPlistStreamWriter { _ throws(PlistError) in
            throw PlistError(.io(reason: "disk full"), at: 0)
        }
        try writer.append("x")
        let error = try #require(throws: PlistError.self) { try writer.finish() }
        #expect(error.description == "disk full")
        #expect(throws: PlistError.self) { try writer.append(1) }
    }
}
