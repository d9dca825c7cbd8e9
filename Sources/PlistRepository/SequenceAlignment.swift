/// Which elements of two sequences stay when one becomes the other: the pairs of positions of
/// equal elements, increasing in both, that `diff` and the three-way merge build on.
///
/// Elements are first numbered by value (equal elements, one number), so comparisons cost one
/// integer however large the values. Then, as `diff --patience` does:
/// - the common start and end are matched;
/// - what is left is matched by Myers' algorithm (the standard library's `difference(from:)`)
///   when it is small, whose memory grows with the square of the differences;
/// - a larger middle is cut at the elements that occur exactly once on each side, kept in order
///   (the longest increasing run), and each piece between two of them is matched the same way;
///   a large piece with no such element is left unmatched (everything in it removed and added).
///
/// Invariant: the pairs are strictly increasing in both positions and pair equal elements; time
/// and memory are bounded for any input (no quadratic case past `myersLimit` elements).
package enum SequenceAlignment {
    /// The most elements (both sides together) that Myers' algorithm is given: its memory is at
    /// most about the square of this, in integers (512 KB).
    static let myersLimit = 1024

    /// How deep the cutting at unique elements may nest before a piece is left unmatched.
    static let maxDepth = 32

    /// A matched pair: a position in the old sequence and one in the new.
    package struct Match: Equatable {
        package var old: Int
        package var new: Int

        package init(old: Int, new: Int) { (self.old, self.new) = (old, new) }
    }

    /// The positions of equal elements that stay, in increasing order on both sides.
    package static func matches<Element: Hashable>(_ old: [Element], _ new: [Element]) -> [Match] {
        var numbers: [Element: Int] = [:]
        func number(_ element: Element) -> Int {
            if let known = numbers[element] { return known }
            let next = numbers.count
            numbers[element] = next
            return next
        }
        let oldNumbers = old.map(number)
        let newNumbers = new.map(number)
        var result: [Match] = []
        align(oldNumbers, 0..<oldNumbers.count, newNumbers, 0..<newNumbers.count, depth: 0, into: &result)
        return result
    }

    private static func align(
        _ old: [Int], _ oldRange: Range<Int>, _ new: [Int], _ newRange: Range<Int>, depth: Int,
        into result: inout [Match]
    ) {
        var oldStart = oldRange.lowerBound
        var newStart = newRange.lowerBound
        var oldEnd = oldRange.upperBound
        var newEnd = newRange.upperBound
        while oldStart < oldEnd, newStart < newEnd, old[oldStart] == new[newStart] {
            result.append(Match(old: oldStart, new: newStart))
            oldStart += 1
            newStart += 1
        }
        var suffix: [Match] = []
        while oldStart < oldEnd, newStart < newEnd, old[oldEnd - 1] == new[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
            suffix.append(Match(old: oldEnd, new: newEnd))
        }
        defer { result.append(contentsOf: suffix.reversed()) }
        guard oldStart < oldEnd, newStart < newEnd else { return }
        if (oldEnd - oldStart) + (newEnd - newStart) <= myersLimit {
            myers(old, oldStart..<oldEnd, new, newStart..<newEnd, into: &result)
            return
        }
        guard depth < maxDepth else { return }
        let anchors = uniqueAnchors(old, oldStart..<oldEnd, new, newStart..<newEnd)
        var previous = Match(old: oldStart - 1, new: newStart - 1)
        for anchor in anchors + [Match(old: oldEnd, new: newEnd)] {
            align(
                old, previous.old + 1..<anchor.old, new, previous.new + 1..<anchor.new, depth: depth + 1, into: &result)
            if anchor.old < oldEnd { result.append(anchor) }
            previous = anchor
        }
    }

    /// Myers' shortest edit script over the two ranges, as matches.
    private static func myers(
        _ old: [Int], _ oldRange: Range<Int>, _ new: [Int], _ newRange: Range<Int>, into result: inout [Match]
    ) {
        let difference = new[newRange].difference(from: old[oldRange])
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Offsets are from the start of each collection, which for slices is their start index.
        var oldIndex = oldRange.lowerBound
        var newIndex = newRange.lowerBound
        while oldIndex < oldRange.upperBound, newIndex < newRange.upperBound {
            if removed.contains(oldIndex - oldRange.lowerBound) {
                oldIndex += 1
            } else if inserted.contains(newIndex - newRange.lowerBound) {
                newIndex += 1
            } else {
                result.append(Match(old: oldIndex, new: newIndex))
                oldIndex += 1
                newIndex += 1
            }
        }
    }

    /// The elements that occur once in each range, paired, keeping the longest run whose
    /// positions increase on both sides.
    private static func uniqueAnchors(
        _ old: [Int], _ oldRange: Range<Int>, _ new: [Int], _ newRange: Range<Int>
    ) -> [Match] {
        // Per element: how often in old (capped at 2), its position there, and the same in new.
        var seen: [Int: (oldCount: Int, oldAt: Int, newCount: Int, newAt: Int)] = [:]
        for index in oldRange {
            seen[old[index], default: (0, index, 0, 0)].oldCount += 1
        }
        for index in newRange {
            guard var entry = seen[new[index]], entry.oldCount == 1 else { continue }
            entry.newCount += 1
            entry.newAt = index
            seen[new[index]] = entry
        }
        var pairs: [Match] = []
        for index in oldRange {
            if let entry = seen[old[index]], entry.oldCount == 1, entry.newCount == 1 {
                pairs.append(Match(old: entry.oldAt, new: entry.newAt))
            }
        }
        return longestIncreasingRun(pairs)
    }

    /// The longest subsequence of `pairs` (increasing in `old`) whose `new` also increases:
    /// patience sorting, O(n log n).
    private static func longestIncreasingRun(_ pairs: [Match]) -> [Match] {
        var tails: [Int] = []  // index into pairs of the smallest tail of each run length
        var previous = [Int](repeating: -1, count: pairs.count)
        for (index, pair) in pairs.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if pairs[tails[middle]].new < pair.new { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Match] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(pairs[index])
            index = previous[index]
        }
        return run.reversed()
    }
}
