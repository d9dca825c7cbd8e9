public import Foundation
public import PlistCore

/// The shared corpus: its manifest, its files and the oracle's dump of each valid file.
public enum Corpus {
    /// One row of `MANIFEST.tsv`.
    public struct Entry: Sendable, CustomStringConvertible {
        /// The path inside the corpus, e.g. `binary/libplist__uid.bplist`.
        public var file: String
        /// The format the manifest gives: binary, xml, openstep, unknown, ...
        public var format: String
        /// What the file exercises.
        public var note: String

        public var url: URL { Paths.corpus.appendingPathComponent(file) }
        /// The oracle's typed-JSON dump of the file (valid files only).
        public var expectedURL: URL { Paths.corpus.appendingPathComponent("expected/\(file).json") }
        public var description: String { file }
    }

    /// Every row of the manifest.
    public static let entries: [Entry] = {
        guard let text = try? String(contentsOf: Paths.corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6 else { return nil }
            return Entry(file: fields[0], format: fields[1], note: fields[5])
        }
    }()

    /// Valid files in binary format (from `binary/` and `keyed-archive/`).
    public static let validBinary: [Entry] = entries.filter { entry in
        !entry.file.hasPrefix("invalid/") && (try? Paths.bytes(entry.url).starts(with: Array("bplist".utf8))) == true
    }

    /// Valid files in XML format that the oracle could read (from `xml/` and `keyed-archive/`).
    public static let validXML: [Entry] = entries.filter { entry in
        !entry.file.hasPrefix("invalid/") && (entry.format == "xml" || entry.file.hasPrefix("keyed-archive/"))
            && (try? Paths.bytes(entry.url).starts(with: Array("bplist".utf8))) == false
            && FileManager.default.fileExists(atPath: entry.expectedURL.path)
    }

    /// Valid OpenStep, GNUstep and `.strings` files with an oracle dump (from `openstep/` and `strings/`).
    public static let validOpenStep: [Entry] = entries.filter {
        ($0.file.hasPrefix("openstep/") || $0.file.hasPrefix("strings/"))
            && FileManager.default.fileExists(atPath: $0.expectedURL.path)
    }

    /// Invalid files the manifest labels XML.
    public static let invalidXML: [Entry] = entries.filter { $0.file.hasPrefix("invalid/") && $0.format == "xml" }

    /// Invalid files the manifest labels binary.
    public static let invalidBinary: [Entry] = entries.filter { $0.file.hasPrefix("invalid/") && $0.format == "binary" }

    /// The oracle's value for `entry`, with dictionary keys in file order.
    public static func expected(_ entry: Entry) throws -> Plist {
        try OracleJSON.plist(from: try Paths.bytes(entry.expectedURL))
    }
}
