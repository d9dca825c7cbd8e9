import OrderedCollections
import Testing

@testable import PlistCore

/// `PlistDictionary`: keys are told apart by their exact spelling (their Unicode scalars), as
/// CoreFoundation, libplist and plistlib tell them apart, although Swift's `String` calls
/// canonically equivalent spellings equal; and the collection API users reach for. The table
/// behind dictionaries of more than 16 keys is checked against a plain list of byte strings.
@Suite struct PlistDictionaryTests {
    /// Pairs of spellings that Swift's `String` calls equal and property lists keep apart.
    static let canonicalPairs: [(String, String)] = [
        ("e\u{301}", "\u{E9}"),  // e and a combining acute accent; é
        ("\u{212B}", "\u{C5}"),  // ANGSTROM SIGN; Å
        ("\u{1100}\u{1161}", "\u{AC00}"),  // Hangul jamo; the syllable
        ("\u{212A}", "K"),  // KELVIN SIGN; an ASCII K
        ("\u{37E}", ";"),  // GREEK QUESTION MARK; an ASCII semicolon
    ]

    @Test(arguments: canonicalPairs)
    func canonicallyEquivalentKeysAreTwoKeys(_ first: String, _ second: String) {
        #expect(first == second, "the pair is canonically equivalent, as Swift compares strings")
        var entries: PlistDictionary = [first: 1, "x": 3]
        entries[second] = 2
        #expect(entries.count == 3)
        #expect(entries[first] == 1 && entries[second] == 2)
        #expect(entries.keys.elements == [first, "x", second])
        #expect(entries.keys.contains(second) && entries.keys.firstIndex(of: second) == 2)
        #expect(entries.index(forKey: first) == 0 && entries.index(forKey: second) == 2)
        entries[first] = nil
        #expect(entries.count == 2 && entries[first] == nil && entries[second] == 2)
        #expect(!entries.keys.contains(first))
        // Literals hold both without trapping; values differ by their keys' spelling.
        let a: PlistDictionary = [first: 1]
        let b: PlistDictionary = [second: 1]
        #expect(a != b)
        #expect(Plist.dictionary(a) != .dictionary(b))
        #expect(Set([Plist.dictionary(a), .dictionary(b)]).count == 2)
        #expect(Plist.string(first) != .string(second))
        #expect(Set([Plist.string(first), .string(second)]).count == 2)
    }

    @Test(arguments: canonicalPairs)
    func largeDictionariesKeepBothSpellings(_ first: String, _ second: String) {
        var entries = PlistDictionary()
        for index in 0..<40 { entries["k\(index)"] = .integer(PlistInteger(index)) }
        entries[first] = "first"
        entries[second] = "second"
        #expect(entries.count == 42)
        #expect(entries[first] == "first" && entries[second] == "second")
        entries.removeValue(forKey: "k0")
        #expect(entries[first] == "first" && entries[second] == "second" && entries.count == 41)
        #expect(entries.index(forKey: second) == 40)
    }

    @Test func aKeyKeepsItsPlaceWhenItsValueChanges() {
        var entries: PlistDictionary = ["b": 1, "a": 2, "c": 3]
        entries["a"] = "two"
        #expect(entries.keys.elements == ["b", "a", "c"] && entries["a"] == "two")
        #expect(entries.updateValue(4, forKey: "c") == 3)
        #expect(entries.updateValue(5, forKey: "d") == nil)
        #expect(entries.keys.elements == ["b", "a", "c", "d"])
        #expect(entries.removeValue(forKey: "b") == 1 && entries.removeValue(forKey: "b") == nil)
        let removed = entries.remove(at: 0)
        #expect(removed.key == "a" && removed.value == "two")
        #expect(entries["missing", default: "fallback"] == "fallback")
        entries["new", default: 0] = 9
        #expect(entries.keys.elements == ["c", "d", "new"] && entries["new"] == 9)
        entries.removeAll()
        #expect(entries.isEmpty && entries == [:])
    }

    @Test func iteratesInOrderAsACollection() {
        let entries: PlistDictionary = ["one": 1, "two": 2, "three": 3]
        #expect(entries.map(\.key) == ["one", "two", "three"])
        #expect(Array(entries.values) == [1, 2, 3])
        #expect(entries[1].key == "two" && entries[1].value == 2)
        #expect(entries.first?.key == "one" && entries.indices == 0..<3)
        var keys: [String] = []
        for (key, _) in entries { keys.append(key) }
        #expect(keys == ["one", "two", "three"])
    }

    @Test func valuesChangeInPlace() {
        var entries: PlistDictionary = ["a": 1, "b": 2]
        entries.values[1] = "two"
        for index in entries.values.indices { entries.values[index] = .array([entries.values[index]]) }
        #expect(entries == ["a": [1], "b": ["two"]])
    }

    @Test func equalityIgnoresOrderAndHashAgrees() {
        let a: PlistDictionary = ["x": 1, "y": [2], "z": ["k": true]]
        let b: PlistDictionary = ["z": ["k": true], "x": 1, "y": [2]]
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(Plist.dictionary(a).hashValue == Plist.dictionary(b).hashValue)
        #expect(a != ["x": 1, "y": [2]] && a != ["x": 1, "y": [2], "z": ["k": false]])
        #expect(a != ["x": 1, "y": [2], "w": ["k": true]])
    }

    @Test func transformsKeepOrder() throws {
        let entries: PlistDictionary = ["a": 1, "b": "text", "c": 3]
        let doubled = entries.mapValues { $0.int.map { Plist($0 * 2) } ?? $0 }
        #expect(doubled == ["a": 2, "b": "text", "c": 6])
        #expect(doubled.keyStorage === entries.keyStorage, "mapValues shares the keys")
        #expect(entries.compactMapValues { $0.int.map(Plist.init) }.keys.elements == ["a", "c"])
        let numbers = entries.filter { $0.value.int != nil }
        #expect(numbers.keys.elements == ["a", "c"])
        let merged = entries.merging(["c": 30, "d": 4] as PlistDictionary) { old, new in .array([old, new]) }
        #expect(merged.keys.elements == ["a", "b", "c", "d"] && merged["c"] == [3, 30])
        var combined = entries
        combined.merge([("a", 10), ("e", 5)]) { _, new in new }
        #expect(combined.keys.elements == ["a", "b", "c", "e"] && combined["a"] == 10)
        struct Stop: Error {}
        #expect(throws: Stop.self) { try entries.mapValues { _ -> Plist in throw Stop() } }
        #expect(PlistDictionary([("k", 1), ("k", 2)], uniquingKeysWith: { first, _ in first }) == ["k": 1])
    }

    @Test func sortsInCoreFoundationOrderOrByAClosure() {
        var entries: PlistDictionary = [
            "\u{E9}": 1, "z": 2, "e\u{301}": 3, "Z": 4, "a": 5, "\u{1F600}": 6, "\u{FF71}": 7,
        ]
        entries.sort()
        // UTF-16 code units, not normalized: "e\u{301}" sorts with "e", "\u{E9}" after "z",
        // and U+FF71 above the astral emoji (whose UTF-16 starts with a surrogate).
        #expect(entries.keys.elements == ["Z", "a", "e\u{301}", "z", "\u{E9}", "\u{1F600}", "\u{FF71}"])
        #expect(entries["z"] == 2 && entries["\u{E9}"] == 1)
        entries.sort { $0.value.int! > $1.value.int! }
        #expect(entries.map { $0.value.int! } == [7, 6, 5, 4, 3, 2, 1])
        var ties: PlistDictionary = ["b": 1, "a": 1, "c": 0]
        ties.sort { $0.value.int! < $1.value.int! }
        #expect(ties.keys.elements == ["c", "b", "a"], "a stable sort")
    }

    @Test func copiesDoNotShareChanges() {
        var large = PlistDictionary()
        for index in 0..<30 { large["key \(index)"] = .integer(PlistInteger(index)) }
        let sharing = large.mapValues { _ in Plist.bool(true) }
        var changed = sharing
        changed["key 3"] = nil
        changed["another"] = 1
        #expect(sharing.count == 30 && sharing["key 3"] == true && sharing["another"] == nil)
        #expect(large.count == 30 && large["key 3"] == 3 && large["another"] == nil)
        #expect(changed.count == 30 && changed["another"] == 1 && changed["key 4"] == true)
        var sorted = sharing
        sorted.sort { $0.key > $1.key }
        #expect(sharing.keys.first == "key 0" && sorted.keys.first == "key 9")
    }

    /// Swift's dictionaries merge canonically equivalent keys: the first spelling, the last value.
    @Test func convertsToAndFromSwiftAndOrderedDictionaries() {
        let entries: PlistDictionary = ["e\u{301}": 1, "x": 2, "\u{E9}": 3]
        let swift = [String: Plist](entries)
        #expect(swift.count == 2 && swift["\u{E9}"] == 3 && swift["x"] == 2)
        #expect(swift.keys.contains { $0.unicodeScalars.elementsEqual("e\u{301}".unicodeScalars) })
        let ordered = OrderedDictionary(entries, uniquingKeysWith: { _, last in last })
        #expect(ordered.count == 2 && ordered.keys.first?.unicodeScalars.count == 2 && ordered["e\u{301}"] == 3)
        let fromOrdered = PlistDictionary(uniqueKeysWithValues: ordered)
        #expect(fromOrdered.keys.elements == ["e\u{301}", "x"])
        let fromSwift = PlistDictionary(uniqueKeysWithValues: ["b": Plist(1), "a": Plist(2)])
        var sorted = fromSwift
        sorted.sort()
        #expect(fromSwift == ["a": 2, "b": 1] && sorted.keys.elements == ["a", "b"])
    }

    /// Random keys (many of them canonically equivalent spellings, many sharing a prefix) added
    /// and removed, in dictionaries small and large, against a list of byte strings.
    @Test func findsKeysAsAListOfTheirBytesWould() {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["e\u{301}", "\u{E9}", "\u{212B}", "\u{C5}", "A\u{30A}", "K", "\u{212A}", "a", "ab", "key-"]
        for round in 0..<60 {
            var entries = PlistDictionary()
            var model: [(key: [UInt8], value: Plist)] = []
            let size = round % 3 == 0 ? 8 : 80
            for step in 0..<400 {
                var key = ""
                for _ in 0..<Int.random(in: 1...3, using: &rng) { key += pieces.randomElement(using: &rng)! }
                if Int.random(in: 0..<size, using: &rng) < model.count / 2 + 1, Bool.random(using: &rng) {
                    key = String(decoding: model.randomElement(using: &rng)?.key ?? Array(key.utf8), as: UTF8.self)
                }
                let bytes = Array(key.utf8)
                let place = model.firstIndex { $0.key == bytes }
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    entries[key] = nil
                    if let place { model.remove(at: place) }
                case 1 where model.count > size:
                    let index = Int.random(in: 0..<model.count, using: &rng)
                    _ = entries.remove(at: index)
                    model.remove(at: index)
                default:
                    let value = Plist.integer(PlistInteger(step))
                    entries[key] = value
                    if let place { model[place].value = value } else { model.append((bytes, value)) }
                }
                #expect(entries[key] == model.first { $0.key == bytes }?.value)
            }
            #expect(entries.count == model.count)
            #expect(entries.keys.map { Array($0.utf8) } == model.map(\.key))
            for (key, value) in model {
                #expect(entries[String(decoding: key, as: UTF8.self)] == value)
            }
            let rebuilt = PlistDictionary(
                uniqueKeysWithValues: model.map { (String(decoding: $0.key, as: UTF8.self), $0.value) })
            #expect(rebuilt == entries)
        }
    }

    /// Readers build dictionaries with CoreFoundation's rule: a repeated key (the same scalars)
    /// keeps its first place and its last value; canonically equivalent keys stay apart.
    @Test func readersKeepTheFirstPlaceAndTheLastValue() {
        for count in [3, 40] {
            var keys = (0..<count - 3).map { "k\($0)" }
            keys += ["e\u{301}", "\u{E9}", "e\u{301}"]
            let values = keys.indices.map { Plist.integer(PlistInteger($0)) }
            let entries = PlistDictionary(readingKeys: keys, values: values)
            #expect(entries.count == count - 1)
            #expect(entries.keys.suffix(2).elementsEqual(["e\u{301}", "\u{E9}"]))
            #expect(entries["e\u{301}"] == .integer(PlistInteger(count - 1)))
            #expect(entries["\u{E9}"] == .integer(PlistInteger(count - 2)))
        }
    }
}
