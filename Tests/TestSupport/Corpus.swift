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

    /// The manifest: one row per file of the corpus.
    public static let manifest = Paths.corpus.appendingPathComponent("MANIFEST.tsv")

    /// Whether the shared corpus is there (`PLIST_SHARED`, else `shared` beside the repository).
    /// A fresh clone has none: the tests that read it are skipped (`.needsCorpus`), and say why.
    public static let isAvailable = FileManager.default.fileExists(atPath: manifest.path)

    /// Why the tests that read the corpus are skipped when it is not there.
    public static let unavailableReason =
        "needs the shared corpus: set PLIST_SHARED to the shared folder (none at \(Paths.corpus.path))"

    /// Every row of the manifest; empty when the corpus is not there, and never empty when it is
    /// (an unreadable or empty manifest stops the tests rather than letting them pass on nothing).
    public static let entries: [Entry] = {
        guard isAvailable else { return [] }
        let text: String
        do { text = try String(contentsOf: manifest, encoding: .utf8) } catch {
            preconditionFailure("cannot read the corpus manifest \(manifest.path): \(error)")
        }
        let entries = text.split(separator: "\n").dropFirst().compactMap { line -> Entry? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 6 else { return nil }
            return Entry(file: fields[0], format: fields[1], note: fields[5])
        }
        precondition(!entries.isEmpty, "the corpus manifest \(manifest.path) lists no file")
        return entries
    }()

    /// `list`, checked to be non-empty when the corpus is there: a parameterized test over an
    /// empty list runs no case and passes, so an empty list of corpus files stops the tests.
    public static func nonEmpty(_ list: [Entry], _ name: String) -> [Entry] {
        precondition(!isAvailable || !list.isEmpty, "the corpus at \(Paths.corpus.path) has no \(name) files")
        return list
    }

    /// Valid files in binary format (from `binary/` and `keyed-archive/`).
    public static let validBinary: [Entry] = nonEmpty(
        entries.filter { entry in
            !entry.file.hasPrefix("invalid/")
                && (try? Paths.bytes(entry.url).starts(with: Array("bplist".utf8))) == true
        }, "valid binary")

    /// Valid files in XML format that the oracle could read (from `xml/` and `keyed-archive/`).
    public static let validXML: [Entry] = nonEmpty(
        entries.filter { entry in
            !entry.file.hasPrefix("invalid/") && (entry.format == "xml" || entry.file.hasPrefix("keyed-archive/"))
                && (try? Paths.bytes(entry.url).starts(with: Array("bplist".utf8))) == false
                && FileManager.default.fileExists(atPath: entry.expectedURL.path)
        }, "valid XML")

    /// Valid OpenStep, GNUstep and `.strings` files with an oracle dump (from `openstep/` and `strings/`).
    public static let validOpenStep: [Entry] = nonEmpty(
        entries.filter {
            ($0.file.hasPrefix("openstep/") || $0.file.hasPrefix("strings/"))
                && FileManager.default.fileExists(atPath: $0.expectedURL.path)
        }, "valid OpenStep")

    /// Invalid files the manifest labels XML.
    public static let invalidXML: [Entry] = nonEmpty(
        entries.filter { $0.file.hasPrefix("invalid/") && $0.format == "xml" }, "invalid XML")

    /// Invalid files the manifest labels binary.
    public static let invalidBinary: [Entry] = nonEmpty(
        entries.filter { $0.file.hasPrefix("invalid/") && $0.format == "binary" }, "invalid binary")

    /// The oracle's value for `entry`, with dictionary keys in file order.
    public static func expected(_ entry: Entry) throws -> Plist {
        try OracleJSON.plist(from: try Paths.bytes(entry.expectedURL))
    }
}
