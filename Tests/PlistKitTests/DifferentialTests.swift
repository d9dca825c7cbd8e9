import Foundation
import PlistKit
import TestSupport
import Testing

// Differential tests: what our binary writer produces is read back by independent
// implementations (CPython's plistlib, libplist's plistutil, Foundation), which must see exactly
// our value. Inputs are every valid binary file of the shared corpus (read by us, then written
// by us) and 50 seeded random values (`PlistGenerator` with the `.oracleSafe` profile, or
// `.libplistSafe` for libplist). A failing generated case names its seed: `GeneratedSample(seed:profile:)`
// rebuilds the value.

/// CPython's plistlib, through `../shared/tools/plist_oracle.py` (plistlib plus
/// CoreFoundation's structural checks), reads what we write to exactly our value, keys in
/// order and spelled byte for byte.
@Suite(.needsPlistOracle) struct PlistlibDifferentialTests {
    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func plistlibReadsOurRewriteOfCorpusFile(entry: Corpus.Entry) throws {
        let value = try Plist(binary: try Paths.bytes(entry.url))
        #expect(try PlistOracle.read(try value.binaryBytes()).isIdentical(to: value), "\(entry.file)")
    }

    @Test(arguments: GeneratedSample.all)
    func plistlibReadsOurGeneratedValue(sample: GeneratedSample) throws {
        #expect(try PlistOracle.read(try sample.value.binaryBytes()).isIdentical(to: sample.value))
    }
}

/// libplist 2.2's `plistutil` converts what we write to XML, and that XML converted back to
/// binary by `plistutil` reads (with our reader) as our value, up to what libplist's XML keeps.
@Suite(.needsPlistutil)
struct LibplistDifferentialTests {
    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func libplistKeepsOurRewriteOfCorpusFile(entry: Corpus.Entry) throws {
        let value = try Plist(binary: try Paths.bytes(entry.url))
        let returned = try Libplist.roundTripThroughXML(try value.binaryBytes())
        #expect(Libplist.xmlKeeps(value, as: returned), "\(entry.file)")
    }

    @Test(arguments: GeneratedSample.withoutNUL)
    func libplistKeepsOurGeneratedValue(sample: GeneratedSample) throws {
        let returned = try Libplist.roundTripThroughXML(try sample.value.binaryBytes())
        #expect(Libplist.xmlKeeps(sample.value, as: returned))
    }

    /// The comparison itself: what libplist 2.2's XML loses, and nothing more.
    @Test func xmlKeepsAllowsOnlyLibplistsKnownLosses() {
        let date = { (seconds: Double) in Plist.date(Date(timeIntervalSinceReferenceDate: seconds)) }
        #expect(Libplist.xmlKeeps(.real(-0.0), as: .real(0)))
        #expect(!Libplist.xmlKeeps(.real(0), as: .real(-0.0)))
        #expect(Libplist.xmlKeeps(.real(-.nan), as: .real(.nan)))
        #expect(Libplist.xmlKeeps(date(-1.9), as: date(-1)))
        #expect(!Libplist.xmlKeeps(date(-1.9), as: date(-2)))
        #expect(Libplist.xmlKeeps(date(.nan), as: date(0)))
        #expect(!Libplist.xmlKeeps(date(.nan), as: .real(0)))
        #expect(Libplist.xmlKeeps(.string("a\u{0}b"), as: .string("a")))
        #expect(!Libplist.xmlKeeps(.string("ab"), as: .string("a")))
        #expect(!Libplist.xmlKeeps(.string("\u{E9}"), as: .string("e\u{301}")))
        #expect(Libplist.xmlKeeps(.uid(7), as: ["CF$UID": 7]))
        #expect(!Libplist.xmlKeeps(["a": 1, "b": 2], as: ["b": 2, "a": 1]))
        #expect(!Libplist.xmlKeeps([1, 2], as: [1]))
    }
}

/// Foundation's `PropertyListSerialization` reads what we write as our value (dictionaries
/// compared regardless of key order), and our output is never larger than what Foundation
/// writes for the same value, nor than the corpus files Apple's own code wrote.
@Suite struct FoundationDifferentialTests {
    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func foundationReadsOurRewriteOfCorpusFile(entry: Corpus.Entry) throws {
        let value = try Plist(binary: try Paths.bytes(entry.url))
        #expect(try FoundationGraph.read(try value.binaryBytes()) == value, "\(entry.file)")
    }

    @Test(arguments: GeneratedSample.forFoundation)
    func foundationReadsOurGeneratedValue(sample: GeneratedSample) throws {
        #expect(try FoundationGraph.read(try sample.value.binaryBytes()) == sample.value)
    }

    /// Corpus files without UIDs (Foundation cannot be asked to write those).
    static let corpusWithoutUIDs = Corpus.nonEmpty(
        Corpus.validBinary.filter { entry in (try? Plist(binary: Paths.bytes(entry.url)))?.containsUID == false },
        "UID-free binary")

    @Test(.needsCorpus, arguments: corpusWithoutUIDs)
    func ourOutputIsNoLargerThanFoundations(entry: Corpus.Entry) throws {
        let value = try Plist(binary: try Paths.bytes(entry.url))
        let theirs = try PropertyListSerialization.data(
            fromPropertyList: FoundationGraph.object(for: value), format: .binary, options: 0)
        #expect(try Plist(binary: theirs) == value, "Foundation was given the same value")
        let ours = try value.binaryBytes()
        #expect(ours.count <= theirs.count, "\(entry.file): ours \(ours.count) bytes, Foundation's \(theirs.count)")
    }

    /// Corpus files written by CoreFoundation or swift-foundation.
    static let writtenByApple = Corpus.nonEmpty(
        Corpus.validBinary.filter { entry in
            let name = URL(fileURLWithPath: entry.file).lastPathComponent
            return name.hasPrefix("cfpl__") || name.hasPrefix("swiftfnd__")
        }, "Apple-written binary")

    @Test(.needsCorpus, arguments: writtenByApple)
    func ourOutputIsNoLargerThanApplesOriginal(entry: Corpus.Entry) throws {
        let original = try Paths.bytes(entry.url)
        let ours = try Plist(binary: original).binaryBytes()
        #expect(ours.count <= original.count, "\(entry.file): ours \(ours.count) bytes, Apple's \(original.count)")
    }

    @Test(.needsCorpus) func theFilteredCorpusListsAreNotEmpty() {
        #expect(Self.corpusWithoutUIDs.count >= 40)
        #expect(Self.writtenByApple.count >= 8)
    }

    /// The converter itself, on values Foundation makes (a Bool is no integer, and the reverse).
    @Test func converterKeepsTypesApart() throws {
        let graph: [Any] = [
            true, 1, Int64(-5), UInt64.max, 1.0, "1", Data([1]), Date(timeIntervalSinceReferenceDate: 1),
        ]
        let bytes = try PropertyListSerialization.data(fromPropertyList: graph, format: .binary, options: 0)
        let expected: Plist = [
            true, 1, -5, .integer(PlistInteger(UInt64.max)), 1.0, "1", .data(Data([1])),
            .date(Date(timeIntervalSinceReferenceDate: 1)),
        ]
        #expect(try FoundationGraph.read([UInt8](bytes)).isIdentical(to: expected))
    }
}

/// A seeded random value, reproducible from its seed and profile.
struct GeneratedSample: Sendable, CustomTestStringConvertible {
    let seed: UInt64
    let value: Plist

    init(seed: UInt64, profile: PlistGenerator.Profile) {
        self.seed = seed
        var random = SeededRandom(seed: seed)
        value = PlistGenerator(profile: profile).value(using: &random)
    }

    var testDescription: String { "seed \(seed)" }

    /// 50 values for plistlib.
    static let all = (1...50).map { GeneratedSample(seed: $0, profile: .oracleSafe) }
    /// 50 values for Foundation on Linux, which merges canonically equivalent keys.
    static let forFoundation = (1...50).map { GeneratedSample(seed: $0, profile: .foundationSafe) }
    /// 50 values for libplist.
    static let withoutNUL = (1...50).map { GeneratedSample(seed: $0, profile: .libplistSafe) }
}

extension Plist {
    /// Whether a UID appears anywhere in the value.
    var containsUID: Bool {
        switch self {
        case .uid: true
        case .array(let elements): elements.contains { $0.containsUID }
        case .dictionary(let entries): entries.values.contains { $0.containsUID }
        default: false
        }
    }
}

// MARK: - Running the external tools

/// An external program found on the `PATH`, and the result of running one.
struct ExternalTool {
    static let python3 = Oracles.python3
    static let plistutil = Oracles.plistutil

    /// A failed run: the tool's exit status and what it wrote on stderr.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tool` in a fresh temporary folder holding `input` (`input`), and returns its
    /// stdout and the bytes of the file named `output` it wrote there (if any). Throws when the
    /// tool exits with a non-zero status.
    static func run(
        _ tool: URL?, _ arguments: [String], input: [UInt8], reading output: String? = nil
    ) throws -> (stdout: [UInt8], output: [UInt8]?) {
        let tool = try #require(tool, "tool not found on the PATH")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plist-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(input).write(to: folder.appendingPathComponent("input"))
        let stdoutURL = folder.appendingPathComponent("stdout")
        let stderrURL = folder.appendingPathComponent("stderr")
        let status = try ChildProcess.run(
            tool.path, arguments, in: folder.path, stdout: stdoutURL.path, stderr: stderrURL.path)
        guard status == 0 else {
            let errors = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            throw Failure(description: "\(tool.lastPathComponent) \(arguments) exited with \(status): \(errors)")
        }
        let stdout = try Paths.bytes(stdoutURL)
        let written = output.flatMap { try? Paths.bytes(folder.appendingPathComponent($0)) }
        return (stdout, written)
    }
}

/// `../shared/tools/plist_oracle.py`: CPython's plistlib with CoreFoundation's strict checks,
/// printing the value as typed JSON.
enum PlistOracle {
    /// The oracle's reading of `bytes` as a property list in `format` (`binary`, `xml`, ...).
    static func read(_ bytes: [UInt8], format: String = "binary") throws -> Plist {
        let script = try #require(Oracles.plistOracle, "python3 or the shared folder's plist_oracle.py is missing")
        let run = try ExternalTool.run(
            ExternalTool.python3, [script.path, "--format", format, "input"], input: bytes)
        return try OracleJSON.plist(from: run.stdout)
    }
}

/// libplist's `plistutil` (2.2 on Debian 12).
enum Libplist {
    /// `bytes` converted by plistutil to XML, that XML converted back to binary, read by us.
    static func roundTripThroughXML(_ bytes: [UInt8]) throws -> Plist {
        let xml = try ExternalTool.run(
            ExternalTool.plistutil, ["-i", "input", "-o", "out.xml", "-f", "xml"], input: bytes, reading: "out.xml")
        let xmlBytes = try #require(xml.output, "plistutil wrote no XML")
        let back = try ExternalTool.run(
            ExternalTool.plistutil, ["-i", "input", "-o", "back.bplist", "-f", "bin"], input: xmlBytes,
            reading: "back.bplist")
        return try Plist(binary: try #require(back.output, "plistutil wrote no binary file"))
    }

    /// The seconds since 2001 of 0001-01-01 and of 10000-01-01: libplist writes XML dates only
    /// within these years.
    static let calendarRange = -63113904000.0..<252423993600.0

    /// Whether `returned` is `original` after a trip through libplist 2.2's XML, which loses
    /// exactly this: the sign of -0.0 and of NaN and NaN payloads; the fraction of dates
    /// (truncated toward zero) and dates outside the years 1 to 9999 (any date comes back);
    /// strings and keys containing NUL (cut at the NUL, or with NULs in place of the rest: any
    /// string comes back); UIDs, which come back as the dictionary `{"CF$UID": n}`. Key order
    /// and everything else must be kept.
    static func xmlKeeps(_ original: Plist, as returned: Plist) -> Bool {
        switch (original, returned) {
        case (.real(let a), .real(let b)):
            return a.isNaN
                ? b.bitPattern == Double.nan.bitPattern : a == 0 ? b.bitPattern == 0 : a.bitPattern == b.bitPattern
        case (.date(let a), .date(let b)):
            let seconds = a.timeIntervalSinceReferenceDate
            guard calendarRange.contains(seconds) else { return true }
            return b.timeIntervalSinceReferenceDate.bitPattern == (seconds.rounded(.towardZero) + 0).bitPattern
        case (.string(let a), .string(let b)):
            return a.utf8.contains(0) || a.utf8.elementsEqual(b.utf8)
        case (.uid(let a), _):
            return returned.isIdentical(to: ["CF$UID": .integer(PlistInteger(a))])
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { xmlKeeps($0, as: $1) }
        case (.dictionary(let a), .dictionary(let b)):
            return a.count == b.count && zip(a.keys, b.keys).allSatisfy { xmlKeeps(.string($0), as: .string($1)) }
                && zip(a.values, b.values).allSatisfy { xmlKeeps($0, as: $1) }
        default:
            return original == returned
        }
    }
}

// MARK: - Foundation's object graphs

/// Conversion between `Plist` and the `Any` graphs of `PropertyListSerialization`.
enum FoundationGraph {
    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }

    /// Foundation's reading of `bytes`, which must be a binary property list.
    static func read(_ bytes: [UInt8]) throws -> Plist {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
        #expect(format == .binary)
        return try plist(from: object)
    }

    /// The value of an object Foundation returned. Numbers are told apart by their real type:
    /// a `Bool` is a `Bool`, an `NSNumber`'s `objCType` says signed, unsigned or floating point.
    static func plist(from object: Any) throws -> Plist {
        if Swift.type(of: object) == Bool.self, let bool = object as? Bool { return .bool(bool) }
        if let string = object as? String { return .string(string) }
        if let date = object as? Date { return .date(date) }
        if let data = object as? Data { return .data(data) }
        if let uid = keyedArchiverUID(object) { return .uid(uid) }
        if let number = object as? NSNumber {
            switch String(cString: number.objCType) {
            case "d", "f": return .real(number.doubleValue)
            case "q", "l", "i", "s": return .integer(PlistInteger(number.int64Value))
            case "Q", "L", "I", "S", "C": return .integer(PlistInteger(number.uint64Value))
            case let type: throw Unexpected(description: "NSNumber of type \(type): \(number)")
            }
        }
        if let elements = object as? [Any] { return .array(try elements.map(plist(from:))) }
        if let entries = object as? [String: Any] {
            var dictionary = PlistDictionary()
            for (key, element) in entries { dictionary[key] = try plist(from: element) }
            return .dictionary(dictionary)
        }
        throw Unexpected(description: "unexpected \(Swift.type(of: object)) from Foundation")
    }

    /// The value of a keyed-archiver UID object (its class is not public): swift-corelibs-foundation's
    /// `_NSKeyedArchiverUID` has a `value` property; CoreFoundation's describes itself as `{value = n}`.
    private static func keyedArchiverUID(_ object: Any) -> UInt64? {
        let typeName = String(describing: Swift.type(of: object))
        guard typeName.contains("KeyedArchiverUID") else { return nil }
        if let value = Mirror(reflecting: object).children.first(where: { $0.label == "value" })?.value,
            let integer = value as? any BinaryInteger
        {
            return UInt64(exactly: integer)
        }
        let text = String(describing: object)
        guard let start = text.range(of: "value = ")?.upperBound else { return nil }
        return UInt64(text[start...].prefix { $0.isNumber })
    }

    /// The Foundation graph holding `value`, which must not contain UIDs.
    static func object(for value: Plist) throws -> Any {
        switch value {
        case .string(let string): return string
        case .integer(let integer):
            if let signed = integer.int64 { return NSNumber(value: signed) }
            return NSNumber(value: integer.uint64!)
        case .real(let real): return NSNumber(value: real)
        case .bool(let bool): return bool
        case .date(let date): return date
        case .data(let data): return data
        case .array(let elements): return try elements.map(object(for:))
        case .dictionary(let entries):
            var dictionary: [String: Any] = [:]
            for (key, element) in entries { dictionary[key] = try object(for: element) }
            return dictionary
        case .uid: throw Unexpected(description: "Foundation cannot write a UID")
        }
    }
}
