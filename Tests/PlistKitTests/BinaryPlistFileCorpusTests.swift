import Foundation
import PlistKit
import TestSupport
import Testing

/// `BinaryPlistFile(contentsOf:)` (a memory-mapped file read lazily) against `Plist(binary:)` on
/// real files: every valid binary file of the shared corpus and of `Fixtures/`, at every path
/// (up to 400 per file); every invalid binary file refused, or read where its damage lies
/// outside what is read, never trapping; and Codable decoding of a subtree.
@Suite struct BinaryPlistFileCorpusTests {
    /// The repository's binary files: the valid fixtures and the bundled sample.
    static let fixtureFiles: [URL] = {
        let files =
            Fixtures.valid.flatMap { fixture in
                fixture.files.filter { $0.format == .binary }.map { fixture.url($0.name) }
            } + [Fixtures.url("sample/Info.binary.plist")]
        precondition(files.count >= 5, "the fixtures have binary files")
        return files
    }()

    @Test(arguments: fixtureFiles)
    func fixturesAgreeWithTheWholeFileReader(url: URL) throws {
        try Self.checkAgreement(url)
    }

    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func corpusFilesAgreeWithTheWholeFileReader(entry: Corpus.Entry) throws {
        try Self.checkAgreement(entry.url)
    }

    static func checkAgreement(_ url: URL) throws {
        let whole = try Plist(binary: try Paths.bytes(url))
        let file = try BinaryPlistFile(contentsOf: url)
        try file.check()
        #expect(try file.value().isIdentical(to: whole))
        #expect(LazyAgreement.mismatches(file, whole) == [])
    }

    /// Damage the whole-file reader finds is found when read: the same error when it is in the
    /// header or trailer; otherwise an error inside the file, or a value where the damage lies
    /// outside it (an object nothing refers to).
    @Test(.needsCorpus, arguments: Corpus.invalidBinary)
    func invalidCorpusFilesAreRefusedWhenRead(entry: Corpus.Entry) throws {
        let bytes = try Paths.bytes(entry.url)
        let whole = try #require(throws: PlistError.self) { try Plist(binary: bytes) }
        let file: BinaryPlistFile
        do throws(PlistError) {
            file = try BinaryPlistFile(contentsOf: entry.url.path)
        } catch {
            #expect(error == whole)
            return
        }
        do throws(PlistError) {
            _ = try file.value()
        } catch {
            #expect(try #require(error.byteOffset) < bytes.count, "\(error)")
        }
        #expect(throws: PlistError.self, "check() reads the whole file") { try file.check() }
    }

    struct Info: Decodable, Equatable {
        var bundleIdentifier: String
        var orientations: [String]

        enum CodingKeys: String, CodingKey {
            case bundleIdentifier = "CFBundleIdentifier"
            case orientations = "UISupportedInterfaceOrientations"
        }
    }

    @Test func decodingASubtreeGivesWhatDecodingTheWholeFileGives() throws {
        let url = Fixtures.url("sample/Info.binary.plist")
        let file = try BinaryPlistFile(contentsOf: url)
        let whole = try PlistDecoder().decode(Info.self, from: try Data(contentsOf: url))
        #expect(try file.decode(Info.self) == whole)
        #expect(
            try file.decode([String].self, at: "UISupportedInterfaceOrientations")
                == whole.orientations)
        #expect(
            try file.decode(String.self, at: [.key("UISupportedInterfaceOrientations"), .index(0)])
                == whole.orientations[0])
        #expect(throws: DecodingError.self) { try file.decode(Int.self, at: "CFBundleIdentifier") }
        #expect(throws: PlistError.self) { try file.decode(Int.self, at: "missing") }
    }

    /// Files that are no regular files are read into memory; an empty file is an empty input.
    @Test func emptyFilesAndMissingFilesFailClearly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lazy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.plist")
        try Data().write(to: empty)
        #expect(try #require(throws: PlistError.self) { try BinaryPlistFile(contentsOf: empty) }.code == .emptyInput)
        let missing = folder.appendingPathComponent("missing.plist")
        #expect(try #require(throws: PlistError.self) { try BinaryPlistFile(contentsOf: missing) }.code == .io)
    }
}

/// XML written while a mapped binary file is walked is the in-memory writer's bytes, for every
/// valid binary file of the corpus and of `Fixtures/`; a value XML cannot hold (a NaN date) is
/// the same error in both.
@Suite struct BinaryXMLStreamCorpusTests {
    static func check(_ url: URL) throws {
        let whole = try Plist(binary: try Paths.bytes(url))
        let file = try BinaryPlistFile(contentsOf: url)
        var out: [UInt8] = []
        let streamed = Result { () throws(PlistError) in try file.writeXML { chunk throws(PlistError) in out += chunk }
        }
        switch Result(catching: { () throws(PlistError) -> [UInt8] in try whole.xmlBytes() }) {
        case .success(let bytes):
            #expect(throws: Never.self) { try streamed.get() }
            #expect(out == bytes)
        case .failure(let error):
            guard case .failure(let streamedError) = streamed else {
                Issue.record("streaming wrote what the in-memory writer refuses: \(error)")
                return
            }
            #expect(streamedError.message == error.message)
        }
    }

    @Test(arguments: BinaryPlistFileCorpusTests.fixtureFiles)
    func fixtures(url: URL) throws { try Self.check(url) }

    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func corpusFiles(entry: Corpus.Entry) throws { try Self.check(entry.url) }
}
