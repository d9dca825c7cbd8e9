import PlistKit
import Testing

@testable import PlistRepository
@testable import plistconv

/// The alignment `diff` and `merge` build on, and the differences `diff` reports, in process:
/// matches are equal elements in increasing order, as many as the longest common subsequence
/// where Myers' algorithm runs; an insertion in a long array is one added element.
@Suite struct PlistDiffTests {
    /// The length of the longest common subsequence, by dynamic programming (the reference).
    private static func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var row = [Int](repeating: 0, count: b.count + 1)
        for x in a {
            var previous = 0
            for (j, y) in b.enumerated() {
                let saved = row[j + 1]
                row[j + 1] = x == y ? previous + 1 : max(row[j + 1], row[j])
                previous = saved
            }
        }
        return row[b.count]
    }

    @Test func matchesAreEqualIncreasingAndAsManyAsTheLongestCommonSubsequence() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let a = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0...5, using: &generator)
            }
            let b = (0..<Int.random(in: 0...40, using: &generator)).map { _ in Int.random(in: 0...5, using: &generator)
            }
            let matches = SequenceAlignment.matches(a, b)
            #expect(matches.allSatisfy { a[$0.old] == b[$0.new] }, "\(a) \(b)")
            #expect(zip(matches, matches.dropFirst()).allSatisfy { $0.old < $1.old && $0.new < $1.new }, "\(a) \(b)")
            #expect(matches.count == Self.lcsLength(a, b), "\(a) \(b)")
        }
    }

    /// Past Myers' limit the middle is cut at elements that occur once on each side.
    @Test func longArraysAreAlignedAtUniqueElements() {
        let old = (0..<5000).map { "element \($0)" }
        var new = old
        new[4000] = "changed"
        new.remove(at: 2500)
        new.insert("inserted", at: 10)
        let matches = SequenceAlignment.matches(old, new)
        #expect(matches.count == old.count - 2)
        let changes = PlistDiff(from: .array(old.map(Plist.string)), to: .array(new.map(Plist.string)))
        #expect(
            changes.map(\.line) == [
                #"added    10: "inserted""#, #"removed  2500: "element 2500""#,
                #"changed  4000: "element 4000" → "changed""#,
            ])
    }

    @Test func dictionariesArraysAndTypes() {
        let old: Plist = [
            "CFBundleVersion": "41", "list": ["a", "b", "c"], "types": [["schemes": ["x"]]], "flag": true, "gone": 1,
            "dotted.key": ["inner": 1],
        ]
        let new: Plist = [
            "CFBundleVersion": "42", "list": ["z", "a", "c"], "types": [["schemes": ["x", "y"]]], "flag": "YES",
            "dotted.key": ["inner": 2], "new": ["k": [1, 2]],
        ]
        #expect(
            PlistDiff(from: old, to: new).map(\.line) == [
                #"changed  CFBundleVersion: "41" → "42""#,
                #"added    list.0: "z""#,
                #"removed  list.1: "b""#,
                #"added    types.0.schemes.1: "y""#,
                #"retyped  flag: bool true → string "YES""#,
                #"removed  gone: 1"#,
                #"changed  dotted\.key.inner: 1 → 2"#,
                #"added    new: {"k" => [1, 2]}"#,
            ])
        #expect(PlistDiff(from: old, to: old).isEmpty)
        #expect(PlistDiff(from: 1, to: "1").map(\.line) == [#"retyped  (top level): integer 1 → string "1""#])
    }

    /// A run of replaced elements is compared pair by pair, the rest removed or added.
    @Test func replacedElementsArePairedInOrder() {
        let changes = PlistDiff(from: ["a", ["k": 1], "c"], to: ["x", ["k": 2], "y", "z"])
        #expect(
            changes.map(\.line) == [
                #"changed  0: "a" → "x""#, #"changed  1.k: 1 → 2"#, #"changed  2: "c" → "y""#, #"added    3: "z""#,
            ])
    }

    @Test func threeWayChunksCoverEachVersion() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let base = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                Int.random(in: 0...4, using: &generator)
            }
            let ours = base.filter { _ in Bool.random(using: &generator) } + [Int.random(in: 0...6, using: &generator)]
            let theirs =
                [Int.random(in: 0...6, using: &generator)] + base.filter { _ in Bool.random(using: &generator) }
            let chunks = ThreeWay.chunks(base: base, ours: ours, theirs: theirs)
            #expect(chunks.flatMap { Array(base[$0.base]) } == base)
            #expect(chunks.flatMap { Array(ours[$0.ours]) } == ours)
            #expect(chunks.flatMap { Array(theirs[$0.theirs]) } == theirs)
            for chunk in chunks where chunk.isStable {
                #expect(base[chunk.base] == ours[chunk.ours] && base[chunk.base] == theirs[chunk.theirs])
            }
        }
    }
}
