import Foundation
import PlistKit
import TestSupport
import Testing

/// The repository's own fixtures (`Fixtures/valid`, `Fixtures/invalid`, made by
/// `Scripts/make-fixtures.py` with CPython's plistlib for binary and XML): every format of a
/// valid case reads as the value written out in `Fixtures` (TestSupport), and every invalid
/// file fails with the exact message of its `.error` file. Unlike the corpus, always there.
@Suite struct FixtureTests {
    @Test func theFixtureListsAreNotEmpty() {
        #expect(Fixtures.valid.count == 5)
        #expect(Fixtures.validFiles.count == 19)
        #expect(Fixtures.invalid.count == 23)
        #expect(Fixtures.valid.allSatisfy { $0.files.count >= 3 }, "each value is in several formats")
    }

    /// The folders hold exactly the listed files: each valid file, each invalid one and its `.error`.
    @Test func everyListedFileExistsAndNoOtherIsThere() throws {
        let valid = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("valid").path)
        #expect(Set(valid.map { "valid/\($0)" }) == Set(Fixtures.validFiles))
        let invalid = try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("invalid").path)
        #expect(Set(invalid) == Set(Fixtures.invalid.flatMap { [$0.file, $0.file + ".error"] }))
    }

    /// Every format is there, GNUstep's typed values and UIDs among them.
    @Test func everyFormatAndEveryValueTypeIsCovered() throws {
        let formats = Set(Fixtures.valid.flatMap { $0.files.map(\.format) })
        #expect(formats == Set(PlistFormat.allCases))
        #expect(Fixtures.validFiles.contains { $0.hasSuffix(".gnustep.plist") })
        let kinds = Set(Fixtures.valid.flatMap { Self.kinds(of: $0.value) })
        #expect(kinds == ["array", "dictionary", "string", "integer", "real", "bool", "date", "data", "uid"])
    }

    /// The kind of `value` and of every value inside it.
    static func kinds(of value: Plist) -> [String] {
        switch value {
        case .array(let elements): ["array"] + elements.flatMap(kinds(of:))
        case .dictionary(let entries): ["dictionary"] + entries.values.flatMap(kinds(of:))
        case .string: ["string"]
        case .integer: ["integer"]
        case .real: ["real"]
        case .bool: ["bool"]
        case .date: ["date"]
        case .data: ["data"]
        case .uid: ["uid"]
        }
    }

    @Test(arguments: Fixtures.valid)
    func everyFormatReadsAsTheExpectedValue(fixture: Fixtures.Valid) throws {
        for (file, format) in fixture.files {
            let (value, detected) = try Plist.read(contentsOf: fixture.url(file).path)
            #expect(detected == format, "\(file)")
            #expect(
                value.isIdentical(to: fixture.value), "\(file): \(value.firstDifference(from: fixture.value) ?? "")")
        }
    }

    /// Each valid file written back by us in its own format reads as the same value.
    @Test(arguments: Fixtures.valid)
    func everyFileSurvivesOurWriterInItsFormat(fixture: Fixtures.Valid) throws {
        for (file, format) in fixture.files {
            let value = try Plist(contentsOf: fixture.url(file).path)
            let options = PlistWriteOptions(sortsKeys: false, openStepValues: .gnustep)
            let written = try value.bytes(format: format, options: options)
            let back = try Plist.read(bytes: written.span)
            #expect(back.format == format, "\(file)")
            // Like Foundation's, our XML writes both zeros as 0.0 (see XMLReal.swift).
            let expected = format == .xml ? Self.unsignedZeros(value) : value
            #expect(
                back.value.isIdentical(to: expected), "\(file): \(back.value.firstDifference(from: expected) ?? "")")
        }
    }

    /// `value` with every -0.0 real made 0.0.
    static func unsignedZeros(_ value: Plist) -> Plist {
        switch value {
        case .real(let real) where real == 0: .real(0)
        case .array(let elements): .array(elements.map(unsignedZeros))
        case .dictionary(let entries): .dictionary(entries.mapValues(unsignedZeros))
        default: value
        }
    }

    @Test(arguments: Fixtures.invalid)
    func everyInvalidFileFailsWithItsMessage(fixture: Fixtures.Invalid) throws {
        let expected = try fixture.expectedMessage()
        #expect(!expected.isEmpty && !expected.contains("\n"), "one line: \(expected.debugDescription)")
        let error = try #require(throws: PlistError.self) { try Plist(contentsOf: fixture.url.path) }
        #expect(error.description == expected, "\(fixture.file)")
    }

    /// The fixtures on disk are what `Scripts/make-fixtures.py` makes now (`--check`).
    @Test(.needsPython3) func theScriptMakesTheseFixtures() throws {
        let script = Paths.repository.appendingPathComponent("Scripts/make-fixtures.py")
        let run = try ExternalTool.run(Oracles.python3, [script.path, "--check"], input: [])
        #expect(run.stdout == [])
    }
}
