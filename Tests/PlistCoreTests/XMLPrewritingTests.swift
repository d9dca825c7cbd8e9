import Foundation
import OrderedCollections
import PropertyBased
import TestSupport
import Testing

@testable import PlistCore

/// Values of a `FlatPlist` written ahead as XML on another thread while it is built
/// (`XMLPrewriting`): the document is the one written without, byte for byte, and so are the errors.
@Suite struct XMLPrewritingTests {
    /// Limits that write ahead every container of `minNodes` nodes or more from the start, in
    /// batches of `batchNodes`.
    static func limits(minNodes: Int = 2, maxNodes: Int = 1 << 20, batchNodes: Int = 64) -> XMLPrewriting.Limits {
        XMLPrewriting.Limits(startNodes: 0, minNodes: minNodes, maxNodes: maxNodes, batchNodes: batchNodes)
    }

    private static let unsorted = PlistWriteOptions(sortsKeys: false)

    /// How many values `flat` has written ahead for a document written with `options`.
    static func prewrittenCount(_ flat: FlatPlist, options: PlistWriteOptions = .init()) -> Int {
        flat.prewriting?.waitForWriting()
        return flat.prewriting?.written(nodeCount: flat.nodes.count, options: options)?.values.count ?? 0
    }

    @Test(arguments: [1, 2, 3])
    func aLibraryWrittenAheadIsTheLibrary(threads: Int) throws {
        let value = XMLPartsTests.library(tracks: 2_000)
        for options in [PlistWriteOptions(), Self.unsorted] {
            let flat = try #require(FlatPlist(value, prewritingXML: options, limits: Self.limits(minNodes: 8)))
            #expect(Self.prewrittenCount(flat, options: options) > 1_500)
            #expect(try flat.xmlBytes(options: options, threads: threads) == value.xmlBytes(options: options))
        }
    }

    /// Text written ahead with other options (here, sorted keys) is not used.
    @Test func textWrittenWithOtherOptionsIsNotUsed() throws {
        let value = XMLPartsTests.library(tracks: 300)
        let flat = try #require(FlatPlist(value, prewritingXML: .init(), limits: Self.limits()))
        #expect(Self.prewrittenCount(flat) > 0)
        #expect(Self.prewrittenCount(flat, options: Self.unsorted) == 0)
        #expect(try flat.xmlBytes(options: Self.unsorted) == value.xmlBytes(options: Self.unsorted))
    }

    @Test(
        arguments: Corpus.entries.filter {
            !$0.file.hasPrefix("invalid/") && FileManager.default.fileExists(atPath: $0.expectedURL.path)
        })
    func corpusValuesWrittenAheadGiveTheTreeWritersBytes(entry: Corpus.Entry) throws {
        let value = try Corpus.expected(entry)
        guard let flat = FlatPlist(value, prewritingXML: .init(), limits: Self.limits()) else { return }
        flat.prewriting?.waitForWriting()
        #expect(try flat.xmlBytes(options: .init(), threads: 1) == value.xmlBytes(), "\(entry)")
        #expect(try flat.xmlBytes(options: .init(), threads: 2) == value.xmlBytes(), "\(entry)")
    }

    @Test func randomValuesWrittenAheadGiveTheTreeWritersBytes() async throws {
        await propertyCheck(count: 300, input: RoundTripPropertyTests.values) { value in
            try expectSameOutputWrittenAhead(value.replacingUIDsWithIntegers)
        }
    }

    /// Values of 2 to 40 nodes written ahead in batches of one value, and of 50 nodes or more.
    private func expectSameOutputWrittenAhead(_ value: Plist) throws {
        for batchNodes in [1, 50] {
            let limits = Self.limits(minNodes: 2, maxNodes: 40, batchNodes: batchNodes)
            guard let flat = FlatPlist(value, prewritingXML: .init(), limits: limits) else { return }
            flat.prewriting?.waitForWriting()
            #expect(try flat.xmlBytes(options: .init(), threads: 1) == value.xmlBytes())
        }
    }

    /// A container's children, read from the values written ahead where they can be, are its
    /// children: runs of values written ahead, values too small to be, and values written ahead
    /// that are not its children (inside a child that was not written ahead) in between.
    @Test func childrenAreReadFromTheValuesWrittenAhead() throws {
        let big: Plist = ["a": 1, "b": [1, 2, 3], "c": "x"]
        let holder: Plist = ["inner": big, "more": [1, 2, 3, 4, 5, 6, 7, 8, 9]]
        let children: [Plist] = [1, big, big, "small", big, holder, big, [1], big, big, holder, 2]
        for top in [
            Plist.array(children),
            .dictionary(.init(uniqueKeysWithValues: children.enumerated().map { ("k\($0.offset)", $0.element) })),
        ] {
            let flat = try #require(
                FlatPlist(
                    ["first": top, "second": .array(children)], prewritingXML: .init(),
                    limits: Self.limits(minNodes: 6, maxNodes: 12)))
            flat.prewriting?.waitForWriting()
            var writer = FlatXMLWriter(flat: flat, sortsKeys: true)
            writer.prewritten = flat.prewriting?.written(nodeCount: flat.nodes.count, options: .init())
            // Per list of children: the six `big`, and the two values in each `holder`.
            #expect(writer.prewritten?.values.count == 20)
            for node in flat.children(of: 0) {
                #expect(writer.children(of: node) == Array(flat.children(of: node)))
            }
            #expect(
                try flat.xmlBytes(options: .init(), threads: 2)
                    == (["first": top, "second": .array(children)] as Plist).xmlBytes())
        }
    }

    /// The keys are sorted ahead with the batches; keys numbered after the last batch (here, of
    /// values too small to write ahead) are put in their places.
    @Test func keysAfterTheLastBatchAreSortedIn() throws {
        var flat = FlatPlist()
        flat.prewriteXML(options: .init(), limits: Self.limits(minNodes: 2, batchNodes: 1))
        let top = flat.addContainer(.dictionary, to: -1, key: .none)
        var expected = OrderedDictionary<String, Plist>()
        for name in ["m", "c", "x", "é", "b"] {
            let list = flat.addContainer(.array, to: top, key: .name(name))
            try flat.add(.signed(1), to: list, key: .none)
            try flat.add(.signed(2), to: list, key: .none)
            flat.valueEnded(list, depth: 1, bytesFrom: flat.bytes.count)
            expected[name] = [1, 2]
        }
        for name in ["a", "n", "z", "d", "ö", "A"] {
            try flat.add(.bool(true), to: top, key: .name(name))
            expected[name] = true
        }
        flat.prewritingEnded()
        flat.prewriting?.waitForWriting()
        let prewritten = try #require(flat.prewriting?.written(nodeCount: flat.nodes.count, options: .init()))
        #expect(prewritten.sortedKeys(completing: flat.keys.names) == KeyOrder.sortedIndices(flat.keys.names))
        #expect(try flat.xmlBytes(options: .init()) == Plist.dictionary(expected).xmlBytes())
    }

    /// A value changed after its end (through a container kept past it) is written as it is
    /// at the end, not as it was written ahead.
    @Test func aValueChangedAfterItsEndIsWrittenAsItEnds() throws {
        for change in 0..<4 {
            var flat = FlatPlist()
            flat.prewriteXML(options: .init(), limits: Self.limits())
            let top = flat.addContainer(.array, to: -1, key: .none)
            let kept = flat.addContainer(.dictionary, to: top, key: .none)
            try flat.add(.string("a"), to: kept, key: .name("first"))
            let inner = flat.addContainer(.array, to: kept, key: .name("inner"))
            try flat.add(.signed(1), to: inner, key: .none)
            flat.valueEnded(inner, depth: 2, bytesFrom: 1)
            flat.valueEnded(kept, depth: 1, bytesFrom: 0)
            let later = flat.addContainer(.dictionary, to: top, key: .none)
            try flat.add(.bool(true), to: later, key: .name("b"))
            try flat.add(.bool(false), to: later, key: .name("c"))
            flat.valueEnded(later, depth: 1, bytesFrom: flat.bytes.count)
            var expected: Plist = [["first": "a", "inner": [1]], ["b": true, "c": false]]
            switch change {
            case 0:
                try flat.add(.signed(2), to: inner, key: .none)
                expected = [["first": "a", "inner": [1, 2]], ["b": true, "c": false]]
            case 1:
                try flat.set(inner, to: .string("replaced"))
                expected = [["first": "a", "inner": "replaced"], ["b": true, "c": false]]
            case 2:
                flat.setContainer(later, to: .array)
                expected = [["first": "a", "inner": [1]], []]
            default: break
            }
            flat.prewritingEnded()
            // `kept` holds `inner`, written ahead before it: it is not written ahead itself.
            #expect(Self.prewrittenCount(flat) == (change < 3 ? 0 : 2), "change \(change)")
            #expect(try flat.xmlBytes(options: .init()) == expected.xmlBytes(), "change \(change)")
        }
    }

    /// A value's text is the one it has at its depth: written ahead at another, it is written again.
    @Test func textIsUsedOnlyAtItsDepth() throws {
        var flat = FlatPlist()
        flat.prewriteXML(options: .init(), limits: Self.limits())
        let top = flat.addContainer(.array, to: -1, key: .none)
        let inner = flat.addContainer(.array, to: top, key: .none)
        try flat.add(.signed(1), to: inner, key: .none)
        try flat.add(.signed(2), to: inner, key: .none)
        flat.valueEnded(inner, depth: 3, bytesFrom: 0)
        flat.prewritingEnded()
        #expect(Self.prewrittenCount(flat) == 1)
        #expect(try flat.xmlBytes(options: .init()) == ([[1, 2]] as Plist).xmlBytes())
    }

    /// Nodes of another value added while a value was encoded lie among its nodes: its text
    /// is still its own, and changing them later counts as changing it.
    @Test func nodesOfAnotherValueAmongAValuesAreLeftOut() throws {
        for changesLater in [false, true] {
            var flat = FlatPlist()
            flat.prewriteXML(options: .init(), limits: Self.limits())
            let top = flat.addContainer(.dictionary, to: -1, key: .none)
            let first = flat.addContainer(.dictionary, to: top, key: .name("first"))
            let second = flat.addContainer(.array, to: top, key: .name("second"))
            try flat.add(.signed(1), to: first, key: .name("a"))
            try flat.add(.signed(2), to: second, key: .none)
            let other = flat.addContainer(.array, to: first, key: .name("b"))
            flat.valueEnded(second, depth: 1, bytesFrom: 0)
            var expected: Plist = ["first": ["a": 1, "b": []], "second": [2]]
            if changesLater {
                try flat.add(.signed(3), to: other, key: .none)
                expected = ["first": ["a": 1, "b": [3]], "second": [2]]
            }
            flat.prewritingEnded()
            #expect(Self.prewrittenCount(flat) == (changesLater ? 0 : 1))
            #expect(try flat.xmlBytes(options: .init()) == expected.xmlBytes(), "changes later: \(changesLater)")
        }
    }

    /// Too deep inside a value written ahead, or past the output limit: the error of the
    /// document written without.
    @Test func errorsAreThoseOfTheDocumentWrittenWithout() throws {
        var deep: Plist = 1
        for _ in 0..<20 { deep = [deep] }
        let value = XMLPartsTests.library(tracks: 400, nestedID: 1_200, nested: deep)
        let tooDeep = PlistWriteOptions(maxDepth: 12)
        let size = try value.xmlBytes().count
        let tooLarge = PlistWriteOptions(maxOutputBytes: size - 100)
        for options in [tooDeep, tooLarge] {
            let flat = try #require(FlatPlist(value, prewritingXML: options, limits: Self.limits(minNodes: 8)))
            #expect(Self.prewrittenCount(flat, options: options) > 300)
            let expected = #expect(throws: PlistError.self) { try value.xmlBytes(options: options) }
            for threads in [1, 2] {
                let error = #expect(throws: PlistError.self) { try flat.xmlBytes(options: options, threads: threads) }
                #expect(error?.kind == expected?.kind)
            }
        }
    }
}
