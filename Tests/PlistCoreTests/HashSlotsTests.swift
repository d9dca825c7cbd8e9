import TestSupport
import Testing

@testable import PlistCore

/// The one core of the package's hash tables, and the one comparison and sort of bytes, against
/// plain references: a set, lexicographic comparison, a full sort.
@Suite struct HashSlotsTests {
    /// A table that grows finds every key filled and no other, stays at most half full and keeps
    /// a power of two of slots, whatever the hash's collisions (here, few distinct hashes).
    @Test(arguments: [0, 3, 1_000])
    func growingTableFindsWhatWasFilled(capacity: Int) {
        var rng = SeededRandom(seed: 38)
        var table = HashSlots<UInt64>(capacity: capacity)
        var reference = Set<UInt64>()
        // Keys hashed by their low 6 bits only: long probe runs and growth through them.
        func hash(_ key: UInt64) -> Int { Int(key & 63) }
        for _ in 0..<3_000 {
            let key = rng.next() % 5_000 + 1
            let place = table.place(of: hash(key)) { $0 == key }
            #expect(table[place].isEmpty == !reference.contains(key))
            if table[place].isEmpty {
                table.fill(place, with: key) { hash($0) }
                reference.insert(key)
            }
            #expect(2 * table.count <= table.slotCount)
            #expect(table.slotCount & (table.slotCount - 1) == 0)
        }
        #expect(table.count == reference.count)
        for key in UInt64(1)...5_000 {
            #expect(table[table.place(of: hash(key)) { $0 == key }].isEmpty == !reference.contains(key))
        }
        table.removeAll()
        #expect(table.count == 0 && table[table.place(of: 1) { $0 == 1 }].isEmpty)
    }

    /// `firstDifference`, `hasSameBytes` and `byteOrder` agree with comparing arrays, on byte
    /// strings that share long prefixes and differ at every offset of an 8-byte word.
    @Test func spanComparisonAgreesWithLexicographicOrder() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<5_000 {
            let shared = (0..<Int(rng.next() % 20)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 3) }
            let a = shared + (0..<Int(rng.next() % 12)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 3) }
            let b = shared + (0..<Int(rng.next() % 12)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 3) }
            let expected = a.lexicographicallyPrecedes(b) ? -1 : a == b ? 0 : 1
            #expect(a.span.byteOrder(b.span).signum() == expected, "\(a) \(b)")
            #expect(a.span.byteOrder(b.span, from: shared.count).signum() == expected, "\(a) \(b)")
            #expect(a.span.hasSameBytes(as: b.span) == (a == b))
            let difference = (0..<min(a.count, b.count)).first { a[$0] != b[$0] }
            #expect(a.span.firstDifference(from: b.span) == difference)
        }
    }

    /// `sortByPrefix` sorts as a full comparison does, with items tied on their prefix, and says
    /// whether two items compare equal.
    @Test func prefixSortAgreesWithAFullSort() {
        var rng = SeededRandom(seed: 12)
        for _ in 0..<200 {
            let count = Int(rng.next() % 40) + 1
            // Values 0..<64: the prefix (value / 8) ties groups of 8, broken by the full value.
            let values = (0..<count).map { _ in Int(rng.next() % 64) }
            var items = values.indices.map { UInt128(values[$0] / 8) << 32 | UInt128($0) }
            let distinct = items.sortByPrefix { values[$0] - values[$1] }
            #expect(distinct == (Set(values).count == values.count))
            #expect(items.map { values[[UInt128].index($0)] } == values.sorted())
        }
    }

    /// The binary reader's key sets: the first set of each hash is kept and found, whatever
    /// the collisions of their places, and growth keeps them all.
    @Test func keySetsKeepTheFirstSetOfEachHash() {
        var sets = KeySets()
        #expect(sets[7] == nil)
        let hashes = (0..<300).map { $0 % 3 == 0 ? $0 << 20 : $0 }
        for (start, hash) in hashes.enumerated() {
            sets.keepFirst(KeySet(hash: hash, start: start, keys: DictionaryKeys()))
            sets.keepFirst(KeySet(hash: hash, start: -1, keys: DictionaryKeys()))
        }
        let found = hashes.enumerated().allSatisfy { start, hash in sets[hash]?.start == start }
        #expect(found)
        #expect(sets[1 << 40] == nil)
    }
}
