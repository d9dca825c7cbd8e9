import Foundation
import TestSupport
import Testing

/// The shared corpus can be rebuilt outside this machine: `Scripts/fetch-corpus` fetches the
/// files that `Scripts/corpus-manifest.tsv` lists and derives their expected values with the
/// project's oracle, `Scripts/plist_oracle.py`. Here, with no network, the manifest must be the
/// shared corpus's, and the oracle must derive every expected value the corpus holds (and
/// refuse every file that has none).
@Suite(.needsCorpus, .needsPython3) struct CorpusSourceTests {
    @Test func manifestIsTheSharedCorpusManifest() throws {
        let ours = try Paths.bytes(Paths.repository.appendingPathComponent("Scripts/corpus-manifest.tsv"))
        #expect(try ours == Paths.bytes(Corpus.manifest), "copy \(Corpus.manifest.path) to Scripts/corpus-manifest.tsv")
    }

    @Test func projectOracleDerivesTheExpectedValues() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let status = try ChildProcess.run(
            try #require(Oracles.python3).path,
            [Paths.repository.appendingPathComponent("Scripts/fetch-corpus").path, "--check", Paths.shared.path],
            stdout: folder.path("stdout"), stderr: folder.path("stderr"))
        let report = (try? String(contentsOfFile: folder.path("stderr"), encoding: .utf8)) ?? ""
        let summary = (try? String(contentsOfFile: folder.path("stdout"), encoding: .utf8)) ?? ""
        #expect(status == 0, "\(summary)\(report)")
        #expect(summary.contains("\(Corpus.entries.count) files, 0 differences"), "\(summary)")
    }
}
