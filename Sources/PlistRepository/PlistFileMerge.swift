public import PlistKit

/// The three-way merge of three versions of a property-list file, written as a merge driver
/// writes the result: in OURS's format and layout.
///
/// - A result equal to one side is that side's file, byte for byte (ours first).
/// - Binary files are written by the binary writer.
/// - A text file that one of the package's writers reproduces byte for byte (XML as Foundation
///   writes it, an Xcode project as Xcode writes it, a `.strings` file, OpenStep or JSON as
///   `plistconv` writes them) is written by that writer, so everything the merge did not touch
///   keeps its bytes, and a project is laid out as Xcode lays it out.
/// - Any other text file (laid out by hand, with comments) is merged line by line as diff3 does,
///   where two insertions at one place are both kept; the lines are used when they read as
///   exactly the merged value. Otherwise the file is written in the usual layout, in UTF-8
///   (for a project, Xcode's, keeping OURS's comments on objects of kinds Xcode's rules do not
///   know), and `layoutLoss` says what of OURS could not be kept.
/// - With conflicts, a text file is written twice, with our side and with theirs of each
///   conflict, and the lines where the two differ are put between git's conflict markers
///   (`<<<<<<< ours`, `=======`, `>>>>>>> theirs`). A binary file has our side.
///
/// Text kept in its layout keeps its encoding: UTF-8 with or without a byte-order mark, or
/// UTF-16 with one.
public struct PlistFileMerge: Sendable {
    /// The merge of the values the files hold.
    private let merge: PlistMerge
    /// The merged file; with conflict markers (text) or our side (binary) where the sides conflict.
    public let bytes: [UInt8]
    /// Why the result is not in OURS's layout, such as "line 3: the comment /* Title */ could not
    /// be kept"; nil when nothing of it was lost (lines that only move or change spacing are no loss).
    public let layoutLoss: String?

    /// Merges the files `ours` and `theirs`, two versions changed from `base` (nil when there is
    /// no common ancestor).
    /// - Throws: `PlistError` when a version is not a property list, or when the merged value
    ///   cannot be written in OURS's format (a date that XML cannot hold).
    public init(base: [UInt8]?, ours: [UInt8], theirs: [UInt8]) throws(PlistError) {
        try self.init(
            base: try base.map { bytes throws(PlistError) in try MergeVersion(bytes: bytes) },
            ours: try MergeVersion(bytes: ours), theirs: try MergeVersion(bytes: theirs))
    }

    /// Merges versions already read (so that a caller can tell which one did not read).
    package init(base: MergeVersion?, ours: MergeVersion, theirs: MergeVersion) throws(PlistError) {
        merge = PlistMerge(base: base?.value, ours: ours.value, theirs: theirs.value)
        (bytes, layoutLoss) = try Self.bytes(of: merge, base: base, ours: ours, theirs: theirs)
    }

    /// Where the two sides conflict, in document order; empty for a clean merge.
    public var conflicts: [PlistMerge.Conflict] { merge.conflicts }

    /// The merged value; nil when there are conflicts.
    public var value: Plist? { merge.value }

    private static func bytes(
        of merged: PlistMerge, base: MergeVersion?, ours: MergeVersion, theirs: MergeVersion
    ) throws(PlistError) -> (bytes: [UInt8], loss: String?) {
        if merged.conflicts.isEmpty {
            if merged.ours == ours.value { return (ours.bytes, nil) }
            // Their file as it is, as git gives it when only they changed it: when it has our
            // format and, as text, our encoding.
            if merged.ours == theirs.value, theirs.format == ours.format,
                ours.format == .binary || TextEncoding(of: theirs.bytes) == TextEncoding(of: ours.bytes)
            {
                return (theirs.bytes, nil)
            }
        }
        if ours.format == .binary { return (try merged.ours.binaryBytes(), nil) }
        let encoding = TextEncoding(of: ours.bytes)
        let text = encoding?.utf8(ours.bytes)
        let layouts = TextLayout.candidates(for: ours.format, text: text ?? [])
        guard let encoding, let text else {
            // The usual layout, in UTF-8: the writers' own encoding, which an XML declaration states.
            return (try marked(merged, in: layouts[0]), "its text encoding could not be kept: the result is UTF-8")
        }
        // A layout that reproduces OURS, in OURS's encoding.
        if let reproducing = layouts.first(where: { (try? $0.bytes(ours.value)) == text }) {
            return (encoding.encode(try marked(merged, in: reproducing)), nil)
        }
        if merged.conflicts.isEmpty, let base, let lines = lineMerge(base: base, ours: text, theirs: theirs),
            (try? Plist(bytes: lines)) == merged.ours
        {
            return (encoding.encode(lines), nil)
        }
        // The usual layout, which loses what it cannot write of OURS's own value.
        let loss = CommentLoss.first(in: text, format: ours.format, rewritten: try layouts[0].bytes(ours.value))
        return (encoding.encode(try marked(merged, in: layouts[0])), loss)
    }

    /// The merged value in `layout`, with conflict markers around the lines where our side and
    /// theirs differ (none without conflicts).
    private static func marked(_ merged: PlistMerge, in layout: TextLayout) throws(PlistError) -> [UInt8] {
        let ours = try layout.bytes(merged.ours)
        guard !merged.conflicts.isEmpty else { return ours }
        return ConflictMarkers.text(ours: ours, theirs: try layout.bytes(merged.theirs))
    }

    /// The clean line merge of the three texts (OURS already as UTF-8), or nil.
    private static func lineMerge(base: MergeVersion, ours: [UInt8], theirs: MergeVersion) -> [UInt8]? {
        guard let baseText = TextEncoding(of: base.bytes)?.utf8(base.bytes),
            let theirsText = TextEncoding(of: theirs.bytes)?.utf8(theirs.bytes)
        else { return nil }
        return LineMerge.clean(base: baseText, ours: ours, theirs: theirsText)
    }
}

/// One version of a merged file: its bytes and what they read as.
package struct MergeVersion: Sendable {
    let bytes: [UInt8]
    let value: Plist
    let format: PlistFormat

    /// The version in `bytes`.
    package init(bytes: [UInt8]) throws(PlistError) {
        (value, format) = try Plist.read(bytes: bytes.span)
        self.bytes = bytes
    }
}

/// A layout of a text format in which plistconv writes values (as UTF-8).
enum TextLayout {
    case xml(sortsKeys: Bool)
    case strings
    case json(indented: Bool, sortsKeys: Bool)
    case openStep
    /// An Xcode project, keeping the name and the comments of `original` (OURS).
    case project(original: [UInt8])

    /// `value` in this layout.
    func bytes(_ value: Plist) throws(PlistError) -> [UInt8] {
        var options = PlistWriteOptions()
        switch self {
        case .xml(let sortsKeys):
            options.sortsKeys = sortsKeys
            return try value.xmlBytes(options: options)
        case .strings:
            options.sortsKeys = false
            return try value.stringsBytes(options: options)
        case .json(let indented, let sortsKeys):
            options.indentsJSON = indented
            options.sortsKeys = sortsKeys
            return try value.jsonBytes(options: options)
        case .openStep:
            options.sortsKeys = false
            options.openStepValues = .gnustep
            return try value.openStepBytes(options: options)
        case .project(let original):
            // (A git merge driver sees temporary file names: the name is `original`'s.)
            return try value.pbxprojBytes(projectName: "Project", original: original, options: options)
        }
    }

    /// The layouts a file of `format` may have been written in, the usual one first. `text`
    /// (the file, in UTF-8) tells an Xcode project, and its name, from other OpenStep text.
    static func candidates(for format: PlistFormat, text: [UInt8]) -> [TextLayout] {
        switch format {
        case .xml: return [.xml(sortsKeys: true), .xml(sortsKeys: false)]
        case .strings: return [.strings]
        case .json:
            return [
                .json(indented: false, sortsKeys: false), .json(indented: true, sortsKeys: true),
                .json(indented: true, sortsKeys: false),
            ]
        case .openStep, .binary:  // (binary files are not text: `MergeOutput` writes them itself)
            guard text.starts(with: Array("// !$*UTF8*$!".utf8)) else { return [.openStep] }
            return [.project(original: text), .openStep]
        }
    }
}

/// How a text file is encoded, to read it as UTF-8 and to write UTF-8 back the same way.
package struct TextEncoding: Equatable {
    private enum Form { case utf8, utf8WithMark, utf16LittleEndian, utf16BigEndian }
    private let form: Form

    /// The encoding of `bytes`: UTF-16 with a byte-order mark, or UTF-8 with or without one.
    package init?(of bytes: [UInt8]) {
        switch (bytes.first, bytes.dropFirst().first) {
        case (0xFF, 0xFE): form = .utf16LittleEndian
        case (0xFE, 0xFF): form = .utf16BigEndian
        case (0xEF, 0xBB) where bytes.dropFirst(2).first == 0xBF: form = .utf8WithMark
        default: form = .utf8
        }
    }

    /// The text as UTF-8 without a byte-order mark, or nil when it is not valid in its encoding.
    package func utf8(_ bytes: [UInt8]) -> [UInt8]? {
        switch form {
        case .utf8: return String(validating: bytes, as: UTF8.self) == nil ? nil : bytes
        case .utf8WithMark:
            let body = Array(bytes.dropFirst(3))
            return String(validating: body, as: UTF8.self) == nil ? nil : body
        case .utf16LittleEndian, .utf16BigEndian:
            let body = bytes.dropFirst(2)
            guard body.count % 2 == 0 else { return nil }
            let units = stride(from: body.startIndex, to: body.endIndex, by: 2).map { index in
                form == .utf16LittleEndian
                    ? UInt16(body[index]) | UInt16(body[index + 1]) << 8
                    : UInt16(body[index]) << 8 | UInt16(body[index + 1])
            }
            return String(validating: units, as: UTF16.self).map { Array($0.utf8) }
        }
    }

    /// `utf8` (UTF-8 text) in this encoding, with the byte-order mark it had.
    package func encode(_ utf8: [UInt8]) -> [UInt8] {
        switch form {
        case .utf8: return utf8
        case .utf8WithMark: return [0xEF, 0xBB, 0xBF] + utf8
        case .utf16LittleEndian, .utf16BigEndian:
            var bytes: [UInt8] = form == .utf16LittleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
            for unit in String(decoding: utf8, as: UTF8.self).utf16 {
                let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
                bytes += form == .utf16LittleEndian ? [low, high] : [high, low]
            }
            return bytes
        }
    }
}

/// The comments of a text file that a rewrite of the same value drops.
enum CommentLoss {
    /// The first comment of `text` (UTF-8, in `format`) that `rewritten` holds fewer times, as
    /// "line N: the comment ... could not be kept", or nil when every comment is still there
    /// (lines that moved or changed spacing lose nothing).
    static func first(in text: [UInt8], format: PlistFormat, rewritten: [UInt8]) -> String? {
        var kept: [[UInt8]: Int] = [:]
        for (_, comment) in comments(in: rewritten, format: format) { kept[comment, default: 0] += 1 }
        for (line, comment) in comments(in: text, format: format) {
            guard let count = kept[comment], count > 0 else {
                let shown = String(decoding: comment.prefix(200), as: UTF8.self)
                return "line \(line): the comment \(shown) could not be kept"
            }
            kept[comment] = count - 1
        }
        return nil
    }

    /// Each comment with its line: `<!-- -->` in XML; `/* */` and `//` outside quoted strings
    /// in OpenStep and `.strings` text; none in JSON.
    static func comments(in text: [UInt8], format: PlistFormat) -> [(line: Int, comment: [UInt8])] {
        var found: [(line: Int, comment: [UInt8])] = []
        var (index, line) = (0, 1)
        func end(of marker: [UInt8], from start: Int) -> Int {
            guard let range = text[start...].firstRange(of: marker) else { return text.count }
            return range.upperBound
        }
        while index < text.count {
            let byte = text[index]
            var next = index + 1
            if byte == 0x0A {
                line += 1
            } else if format == .xml, text[index...].starts(with: Array("<!--".utf8)) {
                next = end(of: Array("-->".utf8), from: index + 4)
                found.append((line, Array(text[index..<next])))
            } else if format == .openStep || format == .strings {
                if byte == 0x22 || byte == 0x27 {  // a quoted string, with its escapes
                    while next < text.count, text[next] != byte {
                        if text[next] == 0x5C { next += 1 }
                        next += 1
                    }
                    next = min(next + 1, text.count)
                } else if text[index...].starts(with: [0x2F, 0x2A]) {  // /*
                    next = end(of: [0x2A, 0x2F], from: index + 2)
                    found.append((line, Array(text[index..<next])))
                } else if text[index...].starts(with: [0x2F, 0x2F]) {  // //
                    next = text[index...].firstIndex(of: 0x0A) ?? text.count
                    found.append((line, Array(text[index..<next])))
                }
            }
            line += text[(index + 1)..<next].filter({ $0 == 0x0A }).count
            index = next
        }
        return found
    }
}

/// Text as lines, each with its line feed (the last one may have none).
package enum Lines {
    package static func split(_ text: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        for (index, byte) in text.enumerated() where byte == 0x0A {
            lines.append(Array(text[start...index]))
            start = index + 1
        }
        if start < text.count { lines.append(Array(text[start...])) }
        return lines
    }
}

/// diff3's merge of lines, for text laid out by hand.
enum LineMerge {
    /// The merged text when every run both sides changed is two insertions at one place (kept
    /// both, ours first); nil when the sides changed the same lines.
    static func clean(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> [UInt8]? {
        let (b, o, t) = (Lines.split(base), Lines.split(ours), Lines.split(theirs))
        var result: [UInt8] = []
        for chunk in ThreeWay.chunks(base: b, ours: o, theirs: t) {
            let (baseLines, oursLines, theirsLines) = (b[chunk.base], o[chunk.ours], t[chunk.theirs])
            if chunk.isStable || oursLines.elementsEqual(theirsLines) || baseLines.elementsEqual(theirsLines) {
                result += oursLines.joined()
            } else if baseLines.elementsEqual(oursLines) {
                result += theirsLines.joined()
            } else if baseLines.isEmpty {
                result += oursLines.joined()
                result += theirsLines.joined()
            } else {
                return nil
            }
        }
        return result
    }
}

/// git's conflict markers around the lines where two texts differ.
enum ConflictMarkers {
    /// `ours` with each run of lines that differs from `theirs` replaced by
    /// `<<<<<<< ours`, our lines, `=======`, their lines, `>>>>>>> theirs`.
    static func text(ours: [UInt8], theirs: [UInt8]) -> [UInt8] {
        let (o, t) = (Lines.split(ours), Lines.split(theirs))
        var result: [UInt8] = []
        var (oursIndex, theirsIndex) = (0, 0)
        func lines(_ run: ArraySlice<[UInt8]>) {
            for line in run { result += line }
            if let last = run.last, last.last != 0x0A { result.append(0x0A) }
        }
        let end = SequenceAlignment.Match(old: o.count, new: t.count)
        for match in SequenceAlignment.matches(o, t) + [end] {
            if match.old > oursIndex || match.new > theirsIndex {
                result += Array("<<<<<<< ours\n".utf8)
                lines(o[oursIndex..<match.old])
                result += Array("=======\n".utf8)
                lines(t[theirsIndex..<match.new])
                result += Array(">>>>>>> theirs\n".utf8)
            }
            if match.old < o.count { result += o[match.old] }
            (oursIndex, theirsIndex) = (match.old + 1, match.new + 1)
        }
        return result
    }
}
