/// diff3's cut of three versions of a sequence (base, ours, theirs) into chunks: stable runs,
/// where all three hold the same elements, and between them the runs where one side or both
/// changed something. The three-way merge resolves the changed runs; the stable ones are kept.
enum ThreeWay {
    /// Where one chunk lies in each version.
    struct Chunk: Equatable {
        /// All three hold the same elements here.
        var isStable: Bool
        var base: Range<Int>
        var ours: Range<Int>
        var theirs: Range<Int>
    }

    /// The chunks of `base`, `ours` and `theirs`, in order; together they cover each version.
    /// A stable chunk is where a base element stays, at the next position, on both sides.
    static func chunks<Element: Hashable>(base: [Element], ours: [Element], theirs: [Element]) -> [Chunk] {
        var inOurs = [Int?](repeating: nil, count: base.count)
        var inTheirs = [Int?](repeating: nil, count: base.count)
        for match in SequenceAlignment.matches(base, ours) { inOurs[match.old] = match.new }
        for match in SequenceAlignment.matches(base, theirs) { inTheirs[match.old] = match.new }
        var chunks: [Chunk] = []
        var (b, o, t) = (0, 0, 0)
        while b < base.count || o < ours.count || t < theirs.count {
            var length = 0
            while b + length < base.count, inOurs[b + length] == o + length, inTheirs[b + length] == t + length {
                length += 1
            }
            if length > 0 {
                chunks.append(Chunk(isStable: true, base: b..<b + length, ours: o..<o + length, theirs: t..<t + length))
                (b, o, t) = (b + length, o + length, t + length)
                continue
            }
            // The next base element both sides kept ends the changed run. (Matches increase, so
            // it is at or after o and t.) Invariant: the run is never empty in all three, since
            // an element kept at o and t would have started a stable run.
            var next = b
            while next < base.count, inOurs[next] == nil || inTheirs[next] == nil { next += 1 }
            let oursEnd = next < base.count ? inOurs[next]! : ours.count
            let theirsEnd = next < base.count ? inTheirs[next]! : theirs.count
            chunks.append(Chunk(isStable: false, base: b..<next, ours: o..<oursEnd, theirs: t..<theirsEnd))
            (b, o, t) = (next, oursEnd, theirsEnd)
        }
        return chunks
    }
}
