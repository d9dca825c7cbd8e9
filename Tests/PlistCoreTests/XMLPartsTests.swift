import Foundation
import TestSupport
import Testing

@testable import PlistCore

/// A large `FlatPlist` written as XML by several threads (`XMLParts`, when
/// `PlistEncoder.parallelism` allows them): the bytes and the errors are those of one thread.
@Suite struct XMLPartsTests {
    /// A library like iTunes': a few keys, a dictionary of `tracks` tracks (most of the nodes)
    /// and playlists of them; the track with ID `nestedID` also holds `nested`.
    static func library(tracks: Int, nestedID: Int = -1, nested: Plist = []) -> Plist {
        var byID = PlistDictionary()
        for id in (0..<tracks).map({ ($0 * 7919) % tracks + 1000 }) {
            var track: PlistDictionary = [
                "Track ID": .integer(PlistInteger(id)),
                "Name": .string("Song \(id) <live> & more"),
                "Size": .integer(PlistInteger(id * 12_345)),
                "Rating": .real(Double(id % 100) / 20),
                "Date Added": .date(Date(timeIntervalSinceReferenceDate: Double(id) * 86_400.5)),
                "Compilation": .bool(id % 3 == 0),
                "Artwork": .data(Data((0..<id % 40).map { UInt8(truncatingIfNeeded: $0 &* id) })),
            ]
            if id == nestedID { track["Nested"] = nested }
            byID["\(id)"] = .dictionary(track)
        }
        let items = Plist.array((0..<tracks / 4).map { ["Track ID": .integer(PlistInteger($0 + 1000))] })
        return [
            "Application Version": "12.8", "Major Version": 1,
            "Playlists": [["Name": "Library", "Playlist Items": items], ["Name": "Empty", "Playlist Items": []]],
            "Tracks": .dictionary(byID),
        ]
    }

    private static let unsorted = PlistWriteOptions(sortsKeys: false)

    @Test(arguments: [2, 3, 8])
    func threadsWriteTheBytesOfOne(threads: Int) throws {
        let value = Self.library(tracks: 3_000)
        let flat = try #require(FlatPlist(value))
        #expect(try flat.xmlBytes(options: .init(), threads: threads) == value.xmlBytes())
        #expect(try flat.xmlBytes(options: Self.unsorted, threads: threads) == value.xmlBytes(options: Self.unsorted))
    }

    /// Threads write only when `parallelism` allows more than one, and the value is large
    /// enough (32,768 nodes a thread); the bytes are the same with any `parallelism`.
    @Test func parallelismChoosesTheThreads() throws {
        let processors = ProcessInfo.processInfo.activeProcessorCount
        #expect(XMLParts.threads(forNodes: 1 << 20, atMost: 1) == 1)
        #expect(XMLParts.threads(forNodes: 30_000, atMost: 8) == 1)
        #expect(XMLParts.threads(forNodes: 1 << 20, atMost: 2) == min(2, processors))
        #expect(XMLParts.threads(forNodes: 1 << 20, atMost: 64) == min(32, processors))

        let value = Self.library(tracks: 8_000)
        let flat = try #require(FlatPlist(value))
        #expect(flat.nodes.count >= 2 << 15)
        let expected = try value.xmlBytes()
        #expect(try flat.xmlBytes(options: .init()) == expected)
        for parallelism in [0, 2, 8] {
            #expect(try flat.xmlBytes(options: PlistWriteOptions(), parallelism: parallelism) == expected)
        }
        #expect(try flat.xmlBytes(options: Self.unsorted, parallelism: 2) == value.xmlBytes(options: Self.unsorted))
    }

    /// The entries shared are those of the container holding most of the nodes, however deep.
    @Test func theSharedEntriesAreThoseOfTheLargestContainer() throws {
        let value = Self.library(tracks: 500)
        let flat = try #require(FlatPlist(value))
        var writer = FlatXMLWriter(flat: flat, sortsKeys: true)
        let found = writer.parts(maxDepth: 512)
        let parts = try #require(found)
        let tracks = try #require(
            flat.children(of: 0).first { flat.keys.names[Int(flat.nodes[Int($0)].key)] == "Tracks" })
        #expect(parts.container == tracks && parts.depth == 1)

        let nested: Plist = [1, [2, [.array((0..<1_000).map { .integer(PlistInteger($0)) }), "x"]], "y"]
        let nestedFlat = try #require(FlatPlist(nested))
        var nestedWriter = FlatXMLWriter(flat: nestedFlat, sortsKeys: true)
        let nestedParts = nestedWriter.parts(maxDepth: 512)
        #expect(nestedParts?.depth == 3)
        for threads in [2, 4] {
            #expect(try nestedFlat.xmlBytes(options: .init(), threads: threads) == nested.xmlBytes())
        }

        for small: Plist in ["scalar", ["one"], [[:]]] {
            let smallFlat = try #require(FlatPlist(small))
            var smallWriter = FlatXMLWriter(flat: smallFlat, sortsKeys: true)
            let smallParts = smallWriter.parts(maxDepth: 512)
            #expect(smallParts == nil, "\(small)")
            #expect(try smallFlat.xmlBytes(options: .init(), threads: 2) == small.xmlBytes())
        }
    }

    /// Containers filled after their later siblings (whose nodes then lie apart) and keys added
    /// again (one of them holding the largest container) are written as by one thread.
    @Test func containersFilledLateAreWrittenInTheirPlace() throws {
        var flat = FlatPlist()
        let top = flat.addContainer(.dictionary, to: -1, key: .none)
        let late = (0..<200).map { flat.addContainer(.array, to: top, key: .name("k\($0)")) }
        for (index, container) in late.enumerated().reversed() {
            for element in 0..<index { try flat.add(.signed(Int64(element)), to: container, key: .none) }
        }
        try flat.add(.string("again"), to: top, key: .name("k7"))
        // The largest container, left out: its key is added again.
        let dropped = flat.addContainer(.array, to: top, key: .name("dropped"))
        for element in 0..<30_000 { try flat.add(.signed(Int64(element)), to: dropped, key: .none) }
        try flat.add(.bool(true), to: top, key: .name("dropped"))
        let expected = try flat.xmlBytes(options: .init(), threads: 1)
        #expect(expected == (try flat.plist(at: 0).xmlBytes()))
        for threads in [2, 3, 5] { #expect(try flat.xmlBytes(options: .init(), threads: threads) == expected) }
    }

    /// A value too deep in a chunk, or text that passes the limit only with every thread's
    /// part, gives the error one thread gives.
    @Test func errorsAreThoseOfOneThread() throws {
        var tooDeep: Plist = "deep"
        for _ in 0..<10 { tooDeep = [tooDeep] }
        let value = Self.library(tracks: 2_000, nestedID: 2_500, nested: tooDeep)
        let flat = try #require(FlatPlist(value))
        let shallow = PlistWriteOptions(maxDepth: 8)
        #expect(throws: PlistError(.tooDeep(limit: 8), at: 0)) { try flat.xmlBytes(options: shallow, threads: 2) }

        let whole = try flat.xmlBytes(options: .init(), threads: 1).count
        let limit = PlistWriteOptions(maxOutputBytes: whole - 100)
        #expect(throws: PlistError(.outputTooLarge(limit: whole - 100), at: 0)) {
            try flat.xmlBytes(options: limit, threads: 2)
        }
        #expect(try flat.xmlBytes(options: PlistWriteOptions(maxOutputBytes: whole), threads: 3).count == whole)
    }

    /// Other threads' text goes in its place, in order, and within the limit.
    @Test func partsAreInsertedInOrderWithinTheLimit() throws {
        let options = PlistWriteOptions(maxOutputBytes: 60)
        var text = XMLOutput(options: options, capacity: 0, isPart: true)
        try text.string(Array("abc".utf8).span, depth: 0)
        let offset = text.count
        text.close("dict", depth: 0)
        try text.insert([Array("1\n".utf8)[...], Array("22\n".utf8)[...]], at: offset)
        #expect(String(decoding: text.part, as: UTF8.self) == "<string>abc</string>\n1\n22\n</dict>\n")
        #expect(throws: PlistError(.outputTooLarge(limit: 60), at: 0)) {
            try text.insert([Array(repeating: 0x20, count: 60 - text.count + 1)[...]], at: offset)
        }
        try text.insert([Array(repeating: 0x20, count: 60 - text.count)[...]], at: 0)
        #expect(text.count == 60)
    }
}
