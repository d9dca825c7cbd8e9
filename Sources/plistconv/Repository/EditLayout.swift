import PlistKit
import PlistRepository

/// An edit of a text file that no writer reproduces (OpenStep or `.strings` with comments, laid
/// out by hand), written back with its comments, layout and encoding: the lines the edit
/// changes in the writer's rendering are changed in the file's own lines, so only the lines of
/// the values it changed change.
enum EditLayout {
    /// `original` (the file as read) with the edit: `written` is the edited value in the
    /// writer's layout, and `write` the writer. When the edit changes a line the file does not
    /// have as the writer writes it (or the text does not read back as the edited value), the
    /// writer's layout, in UTF-8.
    static func text(
        original: [UInt8], edited: Plist, written: [UInt8], write: (Plist) throws(PlistError) -> [UInt8]
    ) -> [UInt8] {
        guard let encoding = TextEncoding(of: original), let text = encoding.utf8(original),
            let before = try? Plist(bytes: text), let beforeWritten = try? write(before)
        else { return written }
        if beforeWritten == text { return encoding.encode(written) }
        guard let lines = patch(text, from: beforeWritten, to: written), (try? Plist(bytes: lines)) == edited
        else { return written }
        return encoding.encode(lines)
    }

    /// `text` with the line changes that turn `base` into `changed`, each made where `text` has
    /// the base lines it touches; nil when `text` lacks one of them.
    static func patch(_ text: [UInt8], from base: [UInt8], to changed: [UInt8]) -> [UInt8]? {
        let (b, o, t) = (Lines.split(base), Lines.split(text), Lines.split(changed))
        var lineOfBase = [Int?](repeating: nil, count: b.count)
        for match in SequenceAlignment.matches(b, o) { lineOfBase[match.old] = match.new }
        var skipped = Set<Int>()
        var before: [Int: [[UInt8]]] = [:]  // lines to write before a line of `text`
        var after: [Int: [[UInt8]]] = [:]  // and after one
        var (baseIndex, changedIndex) = (0, 0)
        let end = SequenceAlignment.Match(old: b.count, new: t.count)
        for match in SequenceAlignment.matches(b, t) + [end] {
            let removed = baseIndex..<match.old
            let added = Array(t[changedIndex..<match.new])
            if !removed.isEmpty || !added.isEmpty {
                // Removed lines go, the added ones take the place of the first; an insertion
                // goes after the base line before it, or before the first.
                for index in removed {
                    guard let line = lineOfBase[index] else { return nil }
                    skipped.insert(line)
                }
                if let first = removed.first {
                    before[lineOfBase[first]!, default: []] += added
                } else if removed.lowerBound > 0 {
                    guard let line = lineOfBase[removed.lowerBound - 1] else { return nil }
                    after[line, default: []] += added
                } else if !b.isEmpty {
                    guard let line = lineOfBase[0] else { return nil }
                    before[line, default: []] += added
                } else {
                    return nil
                }
            }
            (baseIndex, changedIndex) = (match.old + 1, match.new + 1)
        }
        var result: [UInt8] = []
        for (index, line) in o.enumerated() {
            for added in before[index] ?? [] { result += added }
            if !skipped.contains(index) { result += line }
            for added in after[index] ?? [] { result += added }
        }
        return result
    }
}
