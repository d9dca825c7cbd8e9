public import PlistKit

/// The three-way merge of two property lists changed from a common base, by key path: the
/// merged value, or the conflicts.
///
/// - A value changed on one side only takes that change; changed alike on both sides, it
///   takes it once. Changed differently, dictionaries merge key by key, arrays as described
///   below, and anything else is a conflict.
/// - Dictionaries keep our key order; a key only they added goes after the key it follows
///   on their side (after any keys we added there).
/// - Arrays whose elements are distinct strings in all three versions (an Xcode project's
///   `children`, `files`, `targets`, `buildPhases`; URL schemes) merge by identity: what
///   either side removed goes, what either side added comes in at its place, ours first.
///   Reordered on both sides differently, they conflict; so do elements both sides removed
///   and put something different in the place of (a rename on one side, a replacement on the
///   other), as diff3 would report them.
/// - Other arrays merge as diff3 merges lines: the runs that only one side changed take that
///   change; runs both changed, of the same length on all three sides, merge element by
///   element; other runs both changed conflict.
/// - In an Xcode project (a dictionary with `objects` and `rootObject`), an object that one side
///   removed while the merge still refers to it is kept, and reported as a conflict.
///
/// Nothing is dropped silently: every value of either side is in the result or in a conflict.
public struct PlistMerge: Sendable {
    /// A place where the two sides changed one value in different ways.
    public struct Conflict: Hashable, Sendable {
        /// Why the sides conflict.
        public enum Reason: Hashable, Sendable {
            /// Both sides changed the value, differently (or one changed it and the other
            /// removed it).
            case bothChanged
            /// Both sides reordered the array differently.
            case bothReordered
            /// One side removed this object of an Xcode project, but the merged project still
            /// refers to it at `path`: it is kept.
            case removedButReferenced(from: [PlistPathStep])
        }

        /// Where the sides conflict. For arrays, the index in our version where the elements
        /// that conflict begin.
        public let path: [PlistPathStep]
        /// The value at `path` in each version; nil where it is absent. For arrays, the runs
        /// of elements that conflict.
        public let base: Plist?
        public let ours: Plist?
        public let theirs: Plist?
        public let reason: Reason

        /// `path` as a `PlistKeyPath` (an index as its number), to print or to look the value up.
        public var keyPath: PlistKeyPath { PlistKeyPath(steps: path) }

        init(
            path: [PlistPathStep], base: Plist? = nil, ours: Plist? = nil, theirs: Plist? = nil,
            reason: Reason = .bothChanged
        ) {
            (self.path, self.base, self.ours, self.theirs, self.reason) = (path, base, ours, theirs, reason)
        }
    }

    /// Where the two sides conflict, in document order; empty for a clean merge.
    public let conflicts: [Conflict]
    /// The merged value with our side of each conflict, and with theirs (equal without
    /// conflicts): a text file's conflict markers go around the lines where the two differ.
    let ours: Plist
    let theirs: Plist

    /// Merges `ours` and `theirs`, two versions changed from `base` (nil when the two were
    /// made independently, with no common ancestor).
    public init(base: Plist?, ours: Plist, theirs: Plist) {
        var first = ValueMerge(side: .ours)
        let oursResult = first.project(first.value(base, ours, theirs, path: []), base, ours, theirs)
        var second = ValueMerge(side: .theirs)
        let theirsResult = second.project(second.value(base, ours, theirs, path: []), base, ours, theirs)
        // Both runs meet the same conflicts; only the value chosen at each differs.
        (self.ours, self.theirs, conflicts) = (oursResult ?? ours, theirsResult ?? theirs, first.conflicts)
    }

    /// The merged value; nil when there are conflicts.
    public var value: Plist? { conflicts.isEmpty ? ours : nil }
}

/// One run of the merge, choosing `side`'s value at each conflict.
private struct ValueMerge {
    enum Side { case ours, theirs }
    private let side: Side
    private(set) var conflicts: [PlistMerge.Conflict] = []

    init(side: Side) { self.side = side }

    mutating func value(_ base: Plist?, _ ours: Plist?, _ theirs: Plist?, path: [PlistPathStep]) -> Plist? {
        if ours == theirs { return ours }
        if base == ours { return theirs }
        if base == theirs { return ours }
        switch (base, ours, theirs) {
        case (.dictionary?, .dictionary(let o)?, .dictionary(let t)?):
            return dictionary(base!, o, t, path: path)
        case (nil, .dictionary(let o)?, .dictionary(let t)?):
            return dictionary([:], o, t, path: path)
        case (.array(let b)?, .array(let o)?, .array(let t)?):
            return array(b, o, t, path: path)
        case (nil, .array(let o)?, .array(let t)?):
            return array([], o, t, path: path)
        default:
            conflicts.append(PlistMerge.Conflict(path: path, base: base, ours: ours, theirs: theirs))
            return side == .ours ? ours : theirs
        }
    }

    // MARK: Dictionaries

    /// `base` is a dictionary (`base[key]` finds its entries).
    private mutating func dictionary(
        _ base: Plist, _ oursEntries: PlistDictionary,
        _ theirsEntries: PlistDictionary,
        path: [PlistPathStep]
    ) -> Plist {
        var result: [(key: String, value: Plist)] = []
        for (key, oursValue) in oursEntries {
            if let merged = value(base[key], oursValue, theirsEntries[key], path: path + [.key(key)]) {
                result.append((key, merged))
            }
        }
        // Their new keys go after the key they follow on their side, or first.
        var place: [Plist: Int] = [:]  // (Plist strings compare by their bytes, as keys must)
        for (index, entry) in result.enumerated() { place[.string(entry.key)] = index }
        var additions: [(after: Int?, item: (key: String, value: Plist))] = []
        var after: Int? = nil
        for (key, theirsValue) in theirsEntries {
            if oursEntries[key] != nil {
                after = place[.string(key)] ?? after
            } else if let merged = value(base[key], nil, theirsValue, path: path + [.key(key)]) {
                additions.append((after, (key, merged)))
            }
        }
        let entries = Self.interleave(additions, into: result) { base[$0.key] == nil && theirsEntries[$0.key] == nil }
        return .dictionary(.init(uniqueKeysWithValues: entries.map { ($0.key, $0.value) }))
    }

    /// `primary` with each addition after the element at its index (`nil`: at the start), and
    /// after the elements right after it that `isOwnAddition` (the primary side's own
    /// additions there come first); additions at one place keep their order.
    private static func interleave<Item>(
        _ additions: [(after: Int?, item: Item)], into primary: [Item], isOwnAddition: (Item) -> Bool
    ) -> [Item] {
        var groups = [[Item]](repeating: [], count: primary.count + 1)
        for addition in additions { groups[(addition.after ?? -1) + 1].append(addition.item) }
        var result: [Item] = []
        var pending = groups[0]
        for (index, item) in primary.enumerated() {
            if !pending.isEmpty, !isOwnAddition(item) {
                result += pending
                pending = []
            }
            result.append(item)
            pending += groups[index + 1]
        }
        return result + pending
    }

    // MARK: Arrays

    private mutating func array(_ base: [Plist], _ ours: [Plist], _ theirs: [Plist], path: [PlistPathStep]) -> Plist {
        if Self.areIdentities(base), Self.areIdentities(ours), Self.areIdentities(theirs) {
            return .array(identities(base, ours, theirs, path: path))
        }
        var result: [Plist] = []
        for chunk in ThreeWay.chunks(base: base, ours: ours, theirs: theirs) {
            let b = Array(base[chunk.base])
            let o = Array(ours[chunk.ours])
            let t = Array(theirs[chunk.theirs])
            if chunk.isStable || o == t || b == t {
                result += o
            } else if b == o {
                result += t
            } else if !b.isEmpty, b.count == o.count, o.count == t.count {
                for offset in b.indices {
                    let at = path + [.index(chunk.ours.lowerBound + offset)]
                    if let merged = value(b[offset], o[offset], t[offset], path: at) { result.append(merged) }
                }
            } else {
                conflicts.append(
                    PlistMerge.Conflict(
                        path: path + [.index(chunk.ours.lowerBound)], base: .array(b), ours: .array(o),
                        theirs: .array(t)))
                result += side == .ours ? o : t
            }
        }
        return .array(result)
    }

    /// Whether the elements are strings, each different from the others.
    private static func areIdentities(_ elements: [Plist]) -> Bool {
        var seen = Set<Plist>()
        for element in elements {
            guard case .string = element, seen.insert(element).inserted else { return false }
        }
        return true
    }

    /// The merge of arrays of distinct strings, each element standing for itself.
    private mutating func identities(
        _ base: [Plist], _ ours: [Plist], _ theirs: [Plist], path: [PlistPathStep]
    ) -> [Plist] {
        let inBase = Set(base)
        let inOurs = Set(ours)
        let inTheirs = Set(theirs)
        func kept(_ elements: [Plist]) -> [Plist] {
            elements.filter { inBase.contains($0) && inOurs.contains($0) && inTheirs.contains($0) }
        }
        let baseOrder = kept(base)
        let oursOrder = kept(ours)
        let theirsOrder = kept(theirs)
        // The order comes from the side that changed it, else from ours.
        var primaryIsOurs = true
        if oursOrder == baseOrder, theirsOrder != baseOrder {
            primaryIsOurs = false
        } else if oursOrder != baseOrder, theirsOrder != baseOrder, oursOrder != theirsOrder {
            primaryIsOurs = side == .ours
            conflicts.append(
                PlistMerge.Conflict(
                    path: path, base: .array(base), ours: .array(ours), theirs: .array(theirs),
                    reason: .bothReordered))
        }
        // Elements both sides replaced differently conflict; each run keeps its own side's.
        let replaced = replacements(base, ours, theirs, path: path)
        let dropped = Set((side == .ours ? replaced.theirs : replaced.ours))
        let (primary, secondary) = primaryIsOurs ? (ours, theirs) : (theirs, ours)
        let inPrimary = primaryIsOurs ? inOurs : inTheirs
        let inSecondary = primaryIsOurs ? inTheirs : inOurs
        let kept = primary.filter { !inBase.contains($0) || inSecondary.contains($0) }
        var place: [Plist: Int] = [:]
        for (index, element) in kept.enumerated() { place[element] = index }
        var additions: [(after: Int?, item: Plist)] = []
        var after: Int? = nil
        for element in secondary {
            if let index = place[element] {
                after = index
            } else if !inBase.contains(element), !inPrimary.contains(element) {
                additions.append((after, element))
            }
        }
        let merged = Self.interleave(additions, into: kept) { !inBase.contains($0) && !inSecondary.contains($0) }
        return dropped.isEmpty ? merged : merged.filter { !dropped.contains($0) }
    }

    /// The runs of `base` that both sides removed and each put something different in the
    /// place of (a rename on one side and a replacement on the other), each reported as a
    /// conflict, as diff3 reports lines both sides changed; returns the new elements each side
    /// put there. A run removed on both sides with at most one side adding there, and additions
    /// beside elements both sides kept, are not conflicts.
    private mutating func replacements(
        _ base: [Plist], _ ours: [Plist], _ theirs: [Plist], path: [PlistPathStep]
    ) -> (ours: [Plist], theirs: [Plist]) {
        let inBase = Set(base)
        var oursPlace: [Plist: Int] = [:]
        for (index, element) in ours.enumerated() { oursPlace[element] = index }
        var theirsPlace: [Plist: Int] = [:]
        for (index, element) in theirs.enumerated() { theirsPlace[element] = index }
        /// The new elements of `side` between the places of the base elements around the run.
        func inserted(_ side: [Plist], _ place: [Plist: Int], after: Plist?, before: Plist?) -> [Plist]? {
            let start = after.map { place[$0]! + 1 } ?? 0
            let end = before.map { place[$0]! } ?? side.count
            guard start <= end else { return nil }  // reordered: left to the reordering rule
            return side[start..<end].filter { !inBase.contains($0) }
        }
        var found: (ours: [Plist], theirs: [Plist]) = ([], [])
        var index = 0
        while index < base.count {
            guard oursPlace[base[index]] == nil, theirsPlace[base[index]] == nil else {
                index += 1
                continue
            }
            // A run of base elements both sides removed, between elements both kept.
            var end = index
            while end < base.count, oursPlace[base[end]] == nil || theirsPlace[base[end]] == nil { end += 1 }
            let after = base[..<index].last { oursPlace[$0] != nil && theirsPlace[$0] != nil }
            let before = end < base.count ? base[end] : nil
            if let o = inserted(ours, oursPlace, after: after, before: before),
                let t = inserted(theirs, theirsPlace, after: after, before: before), !o.isEmpty, !t.isEmpty, o != t
            {
                let run = base[index..<end].filter { oursPlace[$0] == nil && theirsPlace[$0] == nil }
                let at = after.map { oursPlace[$0]! + 1 } ?? 0
                conflicts.append(
                    PlistMerge.Conflict(
                        path: path + [.index(at)], base: .array(run), ours: .array(o), theirs: .array(t)))
                found.ours += o
                found.theirs += t
            }
            index = end
        }
        return found
    }

    // MARK: Xcode projects

    /// `merged` with every object it refers to that one side removed put back (from the side
    /// that kept it), each reported as a conflict, when the versions are Xcode projects.
    mutating func project(_ merged: Plist?, _ base: Plist?, _ ours: Plist, _ theirs: Plist) -> Plist? {
        guard var merged, case .dictionary(var objects)? = merged["objects"], merged["rootObject"]?.string != nil
        else { return merged }
        // The kept versions of every object any version has, latest first.
        var known: [Plist: Plist] = [:]
        for version in [base, theirs, ours] {
            guard case .dictionary(let versionObjects)? = version?["objects"] else { continue }
            for (id, object) in versionObjects { known[.string(id)] = object }
        }
        var restored = false
        var pending = Array(objects.map { (id: $0.key, object: $0.value) })
        while let (id, object) = pending.popLast() {
            for (referencePath, reference) in Self.strings(in: object, path: [.key("objects"), .key(id)]) {
                guard case .string(let referenced) = reference, objects[referenced] == nil,
                    let kept = known[reference]
                else { continue }
                objects[referenced] = kept
                pending.append((referenced, kept))
                restored = true
                conflicts.append(
                    PlistMerge.Conflict(
                        path: [.key("objects"), .key(referenced)],
                        reason: .removedButReferenced(from: referencePath))
                )
            }
        }
        guard restored else { return merged }
        merged["objects"] = .dictionary(objects)
        return merged
    }

    /// The strings inside `value`, with their paths.
    private static func strings(in value: Plist, path: [PlistPathStep]) -> [([PlistPathStep], Plist)] {
        switch value {
        case .string: return [(path, value)]
        case .array(let elements):
            return elements.enumerated().flatMap { strings(in: $0.element, path: path + [.index($0.offset)]) }
        case .dictionary(let entries):
            return entries.flatMap { strings(in: $0.value, path: path + [.key($0.key)]) }
        default: return []
        }
    }
}
