import Foundation
import TestSupport
import Testing

/// The Swift blocks of README.md and the DocC catalogs: the files in `Generated/` are what
/// `Scripts/doc-examples.py` makes of the documents today (so a changed block is compiled as
/// it now reads), and every complete program runs without an error. That the blocks compile is
/// checked by building this target.
@Suite struct DocExampleTests {
    @Test(.needsPython3) func generatedFilesMatchTheDocuments() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let status = try ChildProcess.run(
            "/usr/bin/env",
            ["python3", Paths.repository.appendingPathComponent("Scripts/doc-examples.py").path, "--check"],
            stderr: folder.path("stderr"))
        let errors = (try? String(contentsOfFile: folder.path("stderr"), encoding: .utf8)) ?? ""
        #expect(status == 0, "\(errors)")
    }

    @Test func everyDocumentHasItsPrograms() {
        let files = Set(allDocExamples.map(\.file))
        #expect(files.contains("README.md"))
        #expect(files.contains("Sources/PlistKit/PlistKit.docc/GettingStarted.md"))
        #expect(allDocExamples.contains { $0.runs })
    }

    /// The programs read the bundled sample by a path relative to the repository, as the
    /// README's commands do, so the tests run from the repository's folder.
    @Test(arguments: allDocExamples.filter(\.runs))
    func programRuns(_ example: DocExample) async throws {
        try #require(
            FileManager.default.currentDirectoryPath == Paths.repository.path,
            "the documents' programs read files by paths relative to the repository: run swift test there")
        try await example.program()
    }
}
