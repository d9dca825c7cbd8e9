import ArgumentParser
import Foundation
import PlistKit
import TestSupport
import Testing

@testable import plistconv

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The path of a file in the repository's `Fixtures/` (see `Fixtures/README.md`).
private func fixture(_ file: String) -> String { Fixtures.url(file).path }
/// The bytes of a file in `Fixtures/`.
private func fixtureBytes(_ file: String) throws -> [UInt8] { try Paths.bytes(Fixtures.url(file)) }

/// What `plistconv -f binary` must write for `input`: the library's own encoding of its value.
private func binaryOutput(for input: [UInt8]) throws -> [UInt8] { try Plist(bytes: input).binaryBytes() }

/// A small valid binary file holding every value type but UIDs (written by CPython's plistlib).
private let smallFile = "valid/scalars.binary.plist"
/// The same value as XML.
private let smallXMLFile = "valid/scalars.xml.plist"
/// A binary property list of over 100 KB, more than a pipe buffer holds.
private let largeInput: [UInt8] = {
    let value = Plist.array(
        (0..<2000).map { index in
            [
                "index": .integer(PlistInteger(index)),
                "name": .string("entry \(index) " + String(repeating: "x", count: 40)),
            ]
        })
    return try! value.binaryBytes()
}()
private let invalidUTF16 = "invalid/invalid-utf16.binary.plist"
private let invalidUTF16Message = "byte 9: invalid UTF-16: an unpaired surrogate"
private let badXMLFile = "invalid/malformed.xml.plist"
private let badXMLMessage = "6:1: malformed XML: expected '>'"
/// Why `smallFile` cannot be written as plain OpenStep.
private let openStepMessage =
    "the value at key path \"zero\" is an integer, which OpenStep cannot hold "
    + "(-f gnustep keeps it, --stringify writes it as a string)"

// MARK: - Converting

@Suite struct ConvertProcessTests {
    @Test func executableIsPresent() throws {
        _ = try Tool.location.get()
        #expect(largeInput.count > 100_000)
    }

    @Test(.needsCorpus) func corpusIsPresent() {
        #expect(Corpus.validBinary.count >= 60, "expected the shared corpus at \(Paths.corpus.path)")
        #expect(Corpus.invalidBinary.count >= 24)
    }

    /// Every valid fixture, in every format, converts to binary and to XML with its value kept.
    @Test(arguments: Fixtures.validFiles)
    func convertsEveryValidFixture(file: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let value = try Plist(bytes: try fixtureBytes(file))
        let toBinary = try Tool.run(["-f", "binary", fixture(file), folder.path("out.plist")])
        #expect(toBinary.status == 0 && toBinary.stderr == "" && toBinary.stdout == [], "\(toBinary)")
        #expect(try folder.read("out.plist") == (try value.binaryBytes()), "\(file)")
        let toXML = try Tool.run(["-f", "xml1", fixture(file), "-"])
        #expect(toXML.status == 0 && toXML.stderr == "", "\(toXML)")
        #expect(toXML.stdout == (try value.xmlBytes()), "\(file)")
    }

    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func convertsEveryValidBinaryFile(entry: Corpus.Entry) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try Paths.bytes(entry.url)
        let out = folder.path("out.plist")
        let run = try Tool.run(["-f", "binary", entry.url.path, out])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "")
        #expect(run.stdout == [])
        let written = try folder.read("out.plist")
        #expect(try Plist(binary: written).isIdentical(to: try Plist(binary: input)), "\(entry.file): \(entry.note)")
        #expect(written == (try binaryOutput(for: input)))
        #expect(try folder.names() == ["out.plist"])
    }

    /// The corpus files with dates XML cannot hold, and the tool's message.
    static let unwritableInXML = [
        "binary/cpython__datetime-nan.bplist":
            "the top-level value is a date that is not a number (NaN), which XML cannot hold (-f binary keeps it)",
        "binary/cpython__datetime-overflow.bplist":
            "the top-level value is a date after the year 9999, which XML cannot hold (-f binary keeps it)",
    ]

    /// binary → XML → binary through the tool, for every binary corpus file: the same value.
    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func convertsEveryBinaryFileToXMLAndBack(entry: Corpus.Entry) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let toXML = try Tool.run(["-f", "xml1", entry.url.path, folder.path("x.plist")])
        if let message = Self.unwritableInXML[entry.file] {
            // XML holds no date before the year 1 or after 9999: the tool says so, and writes nothing.
            #expect(toXML.status == 1 && toXML.stderr == "plistconv: \(entry.url.path): \(message)\n", "\(toXML)")
            #expect(try folder.names() == [])
            return
        }
        #expect(toXML.status == 0 && toXML.stderr == "", "\(toXML)")
        let xml = try folder.read("x.plist")
        #expect(xml.starts(with: Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)))
        let toBinary = try Tool.run(["-f", "binary", folder.path("x.plist")])
        let original = try Plist(binary: try Paths.bytes(entry.url))
        let readBack = try Plist(xml: xml)
        #expect(toBinary.status == 0 && toBinary.stderr == "", "\(toBinary)")
        let back = try Plist(binary: try folder.read("x.plist"))
        #expect(back == readBack, "XML → binary keeps the value")
        // XML dates have no fractional seconds: otherwise the round trip is exact.
        if (try? Plist(xml: original.xmlBytes())) == original { #expect(back == original, "\(entry.file)") }
    }

    @Test(.needsCorpus, arguments: Corpus.validXML)
    func convertsEveryValidXMLFileToBinary(entry: Corpus.Entry) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let run = try Tool.run(["-f", "binary", entry.url.path, folder.path("out.plist")])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "" && run.stdout == [])
        let written = try Plist(binary: try folder.read("out.plist"))
        #expect(written.isIdentical(to: try Corpus.expected(entry)), "\(entry.file): \(entry.note)")
    }

    @Test(arguments: [
        ["convert", "-f", "binary1", "IN", "-o", "OUT"], ["--format", "binary", "IN", "OUT"],
        ["convert", "-o", "OUT", "--format", "binary1", "IN"], ["-convert", "binary1", "IN", "-o", "OUT"],
        ["-convert", "binary1", "-o", "OUT", "--", "IN"], ["-i", "IN", "-o", "OUT", "-f", "bin"],
    ])
    func spellingsOfTheCommand(template: [String]) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try fixtureBytes(smallFile)
        let inPath = try folder.write(input, to: "in.plist")
        let arguments = template.map { $0 == "IN" ? inPath : $0 == "OUT" ? folder.path("out.plist") : $0 }
        let run = try Tool.run(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "" && run.stdout == [])
        #expect(try folder.read("out.plist") == (try binaryOutput(for: input)))
        #expect(try folder.read("in.plist") == input, "the input is left alone when OUT is given")
    }

    /// Standard input to standard output through real pipes, with more bytes than a pipe buffer holds.
    @Test(arguments: [true, false])
    func stdinToStdout(large: Bool) throws {
        let input = large ? largeInput : try fixtureBytes(smallFile)
        let run = try Tool.run(["-f", "binary", "-", "-"], stdin: input)
        #expect(run.status == 0, "exit \(run.status), stderr \(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout == (try binaryOutput(for: input)))
    }

    /// Without OUT, `-` as input converts standard input to standard output.
    @Test func stdinWithoutOutputGoesToStdout() throws {
        let input = try fixtureBytes(smallFile)
        let run = try Tool.run(["-f", "binary", "-"], stdin: input)
        #expect(run.status == 0, "exit \(run.status), stderr \(run.stderr)")
        #expect(run.stderr == "")
        #expect(run.stdout == (try binaryOutput(for: input)))
    }

    @Test func fileToStdoutAndStdinToFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = largeInput
        let expected = try binaryOutput(for: input)
        let toStdout = try Tool.run(["-f", "binary", try folder.write(input, to: "large.plist"), "-"])
        #expect(toStdout.status == 0 && toStdout.stderr == "", "exit \(toStdout.status), stderr \(toStdout.stderr)")
        #expect(toStdout.stdout == expected)

        let fromStdin = try Tool.run(["-f", "binary", "-", folder.path("out.plist")], stdin: input)
        #expect(fromStdin.status == 0, "\(fromStdin)")
        #expect(fromStdin.stderr == "" && fromStdin.stdout == [])
        #expect(try folder.read("out.plist") == expected)
    }

    @Test func convertsInPlace() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        // XML made binary in place, so that the rewrite is visible.
        let input = try fixtureBytes(smallXMLFile)
        let expected = try binaryOutput(for: input)
        #expect(expected != input)
        let path = try folder.write(input, to: "in place.plist")
        let run = try Tool.run(["-f", "binary", path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "" && run.stdout == [])
        #expect(try folder.read("in place.plist") == expected)
        #expect(try folder.names() == ["in place.plist"], "no temporary file is left behind")
    }

    /// Relative paths, and an output path without a folder part, resolve against the working directory.
    @Test func relativePaths() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try fixtureBytes(smallFile)
        try folder.write(input, to: "in.plist")
        let run = try Tool.run(["-f", "binary", "in.plist", "out.plist"], in: folder.url)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "")
        #expect(try folder.read("out.plist") == (try binaryOutput(for: input)))
        #expect(try folder.names() == ["in.plist", "out.plist"])
    }
}

// MARK: - Conversion errors

@Suite struct ConvertErrorTests {
    /// Runs `plistconv -f binary IN OUT` (OUT in a fresh folder) and checks that it failed with
    /// exactly `plistconv: <name>: <message>` and created no file.
    private func expectFailure(input: String, named name: String? = nil, message: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let run = try Tool.run(["-f", "binary", input, folder.path("out.plist")])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(name ?? input): \(message)\n")
        #expect(try folder.names() == [], "no output or temporary file")
    }

    @Test func missingInput() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try expectFailure(input: folder.path("missing.plist"), message: "No such file or directory")
    }

    @Test func emptyFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write([], to: "empty.plist")
        try expectFailure(input: path, message: "the input is empty")
    }

    @Test func emptyStdin() throws {
        let run = try Tool.run(["-f", "binary", "-", "-"], stdin: [])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: <stdin>: the input is empty\n")
    }

    @Test func directoryAsInput() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try expectFailure(input: folder.url.path, message: "Is a directory")
    }

    /// Every invalid fixture fails with its golden message (`Fixtures/invalid/*.error`).
    @Test(arguments: Fixtures.invalid)
    func invalidFixture(fixture: Fixtures.Invalid) throws {
        try expectFailure(input: fixture.url.path, message: try fixture.expectedMessage())
    }

    @Test(
        .needsCorpus,
        arguments: [
            ("invalid/cpython__invalid-binary-invalid-utf-16.bplist", "byte 9: invalid UTF-16: an unpaired surrogate"),
            (
                "invalid/cpython__invalid-binary-non-hashable-key.bplist",
                "byte 11: a dictionary key is not a string (marker 0xA0)"
            ),
            (
                "invalid/cpython__invalid-binary-too-short-data.bplist",
                "byte 8: the input ends inside the 32-byte trailer"
            ),
            ("invalid/ddplist__github-issue73-6.plist", "not a property list in any known format"),
        ])
    func invalidCorpusFile(file: String, message: String) throws {
        try expectFailure(input: Paths.corpus.appendingPathComponent(file).path, message: message)
    }

    /// Every invalid binary file fails with one line naming the file and a located message.
    @Test(.needsCorpus, arguments: Corpus.invalidBinary)
    func everyInvalidBinaryFileFails(entry: Corpus.Entry) throws {
        let run = try Tool.run(["-f", "binary", entry.url.path, "-"])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout == [])
        let prefix = "plistconv: \(entry.url.path): "
        #expect(run.stderr.hasPrefix(prefix), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("\n") && run.stderr.count(where: { $0 == "\n" }) == 1, "\(run.stderr)")
        #expect(run.stderr.count > prefix.count + 1)
    }

    @Test func invalidStdinIsNamedStdin() throws {
        let run = try Tool.run(["-f", "binary", "-", "-"], stdin: try fixtureBytes(invalidUTF16))
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: <stdin>: \(invalidUTF16Message)\n")
    }

    @Test func invalidXMLInputIsReportedWithLineAndColumn() throws {
        try expectFailure(input: fixture(badXMLFile), message: badXMLMessage)
    }

    @Test func invalidOpenStepInputIsReportedWithLineAndColumn() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(Array("{ a = b;\n  c = ( 1, 2 ; }".utf8), to: "in.plist")
        let error = try #require(throws: PlistError.self) {
            try Plist(openStep: Array("{ a = b;\n  c = ( 1, 2 ; }".utf8))
        }
        #expect(error.position?.line == 2)
        try expectFailure(input: path, message: error.description)
    }

    @Test func convertsOpenStepToBinary() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(
            Array("// comment\n{ name = \"James\"; kids = (Nicolas, Juliana); }".utf8), to: "in.plist")
        let run = try Tool.run(["-f", "binary", path, folder.path("out.plist")])
        #expect(run.status == 0 && run.stderr == "", "\(run)")
        #expect(try Plist(binary: try folder.read("out.plist")) == ["name": "James", "kids": ["Nicolas", "Juliana"]])
    }

    @Test func bytesOfNoKnownFormat() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write([0x00, 0x01, 0x02, 0x03], to: "in.plist")
        try expectFailure(input: path, message: "not a property list in any known format")
    }

    /// A value the output format cannot hold is reported against the input that holds it, with
    /// its key path and the options that would write it; the output is not created.
    @Test func valueTheOutputFormatCannotHold() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let out = folder.path("out.plist")
        let run = try Tool.run(["-f", "openstep", fixture(smallFile), out])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(fixture(smallFile)): \(openStepMessage)\n")
        #expect(try folder.names() == [])
    }

    /// The case: a GNUstep-typed file converted to plain OpenStep.
    @Test func gnustepDateToOpenStepNamesTheInputAndTheWayOut() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try folder.write(Array("{date = <*D2001-01-01 00:00:00 +0000>;}\n".utf8), to: "typed.plist")
        let run = try Tool.run(["-f", "openstep", input, folder.path("out.plist")])
        #expect(run.status == 1)
        #expect(
            run.stderr == "plistconv: \(input): the value at key path \"date\" is a date, which OpenStep cannot hold "
                + "(-f gnustep keeps it, --stringify writes it as a string)\n")
        #expect(try folder.names() == ["typed.plist"])
        let strings = try Tool.run(["-f", "strings", input, folder.path("out.strings")])
        #expect(strings.stderr.hasSuffix("which a .strings file cannot hold (--stringify writes it as a string)\n"))
    }

    /// From standard input, such a value is reported against standard input.
    @Test func unwritableValueFromStdinNamesStdin() throws {
        let run = try Tool.run(["-f", "openstep", "-", "-"], stdin: try fixtureBytes(smallFile))
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: <stdin>: \(openStepMessage)\n")
    }

    @Test func outputIntoAFileAsFolder() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try folder.write([1], to: "file")
        let out = folder.path("file") + "/out.plist"
        let run = try Tool.run(["-f", "binary", fixture(smallFile), out])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(out): Not a directory\n")
        #expect(try folder.names() == ["file"])
        #expect(try folder.read("file") == [1])
    }

    @Test func outputInAMissingFolder() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let out = folder.path("missing") + "/out.plist"
        let run = try Tool.run(["-f", "binary", fixture(smallFile), out])
        #expect(run.status == 1)
        #expect(run.stderr == "plistconv: \(out): No such file or directory\n")
        #expect(try folder.names() == [])
    }

    /// Root ignores permission bits, so this case only runs for other users.
    @Test(.enabled(if: getuid() != 0, "permission checks do not apply to root"))
    func unwritableOutputFolder() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let locked = folder.url.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        let out = locked.appendingPathComponent("out.plist").path
        let run = try Tool.run(["-f", "binary", fixture(smallFile), out])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(out): Permission denied\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path) == [])
    }

    @Test(.enabled(if: getuid() != 0, "permission checks do not apply to root"))
    func unreadableInput() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(try fixtureBytes(smallFile), to: "in.plist", mode: 0o000)
        let run = try Tool.run(["-f", "binary", path, "-"])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(path): Permission denied\n")
    }
}

// MARK: - Replacing outputs

@Suite struct AtomicOutputTests {
    private let oldBytes: [UInt8] = Array("old contents, not a plist\n".utf8)

    @Test(arguments: [
        (["-f", "binary"], invalidUTF16, "%IN%: \(invalidUTF16Message)"),
        (["-f", "openstep"], smallFile, "%IN%: " + openStepMessage),
        (["-f", "binary"], badXMLFile, "%IN%: \(badXMLMessage)"),
    ])
    func failedConversionLeavesTheOldOutput(options: [String], file: String, message: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let out = try folder.write(oldBytes, to: "out.plist", mode: 0o640)
        let input = fixture(file)
        let run = try Tool.run(options + [input, out])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        let expected = message.replacingOccurrences(of: "%OUT%", with: out).replacingOccurrences(
            of: "%IN%", with: input)
        #expect(run.stderr == "plistconv: \(expected)\n")
        #expect(try folder.read("out.plist") == oldBytes)
        #expect(try folder.mode("out.plist") == 0o640)
        #expect(try folder.names() == ["out.plist"], "no temporary file is left behind")
    }

    @Test(arguments: [["-f", "binary"], ["-f", "openstep"]])
    func failedInPlaceConversionLeavesTheFile(options: [String]) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let bytes = try fixtureBytes(options.last == "openstep" ? smallFile : invalidUTF16)
        let path = try folder.write(bytes, to: "file.plist")
        let run = try Tool.run(options + [path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("plistconv: \(path): "), "\(run.stderr)")
        #expect(try folder.read("file.plist") == bytes)
        #expect(try folder.names() == ["file.plist"])
    }

    /// Renaming over a folder fails after the temporary file was written; it must be removed.
    @Test func failedRenameRemovesTheTemporaryFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let out = folder.url.appendingPathComponent("out.plist")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let run = try Tool.run(["-f", "binary", fixture(smallFile), out.path])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(out.path): Is a directory\n")
        #expect(try folder.names() == ["out.plist"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == [])
    }

    @Test(arguments: [0o600, 0o640, 0o755, 0o444])
    func overwriteKeepsPermissions(mode: Int) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let out = try folder.write(oldBytes, to: "out.plist", mode: mode)
        let input = try fixtureBytes(smallFile)
        let run = try Tool.run(["-f", "binary", fixture(smallFile), out])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "")
        #expect(try folder.read("out.plist") == (try binaryOutput(for: input)))
        #expect(try folder.mode("out.plist") == mode)
        #expect(try folder.names() == ["out.plist"])
    }

    @Test(arguments: ["target.plist", "%ABSOLUTE%"])
    func writingThroughASymlinkReplacesTheTarget(destination: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try folder.write(oldBytes, to: "target.plist", mode: 0o600)
        let linkDestination = destination == "%ABSOLUTE%" ? folder.path("target.plist") : destination
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("link.plist"), withDestinationPath: linkDestination)
        let input = try fixtureBytes(smallFile)
        let run = try Tool.run([
            "-f", "binary", fixture(smallFile), folder.path("link.plist"),
        ])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr == "")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.plist")) == linkDestination)
        #expect(try folder.read("target.plist") == (try binaryOutput(for: input)))
        #expect(try folder.mode("target.plist") == 0o600)
        #expect(try folder.names() == ["link.plist", "target.plist"])
    }

    @Test func inPlaceThroughASymlink() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try fixtureBytes(smallFile)
        try folder.write(input, to: "target.plist")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("link.plist"), withDestinationPath: "target.plist")
        let run = try Tool.run(["-f", "binary", folder.path("link.plist")])
        #expect(run.status == 0, "\(run)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path("link.plist")) == "target.plist")
        #expect(try folder.read("target.plist") == (try binaryOutput(for: input)))
        #expect(try folder.names() == ["link.plist", "target.plist"])
    }
}

// MARK: - Lint

@Suite struct LintProcessTests {
    private let good = fixture(smallFile)
    private let good2 = fixture(smallXMLFile)
    private let bad = fixture(invalidUTF16)

    @Test func validFilesPrintOK() throws {
        let run = try Tool.run(["lint", good, good2])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdoutText == "\(good): OK\n\(good2): OK\n")
    }

    @Test func everyValidFixtureLints() throws {
        let paths = Fixtures.validFiles.map(fixture)
        let run = try Tool.run(["lint"] + paths)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdoutText == paths.map { "\($0): OK\n" }.joined())
    }

    @Test(.needsCorpus) func everyValidBinaryFileLints() throws {
        let paths = Corpus.validBinary.map(\.url.path)
        let run = try Tool.run(["lint"] + paths)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdoutText == paths.map { "\($0): OK\n" }.joined())
    }

    @Test func silentPrintsNothing() throws {
        let run = try Tool.run(["lint", "-s", good, good2])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == [])
    }

    @Test(arguments: [false, true])
    func oneBadFileAmongGoodOnes(silent: Bool) throws {
        let run = try Tool.run(["lint"] + (silent ? ["-s"] : []) + [good, bad, good2])
        #expect(run.status == 1)
        #expect(run.stderr == "plistconv: \(bad): \(invalidUTF16Message)\n")
        #expect(run.stdoutText == (silent ? "" : "\(good): OK\n\(good2): OK\n"))
    }

    @Test func everyBadFileGetsItsLineInOrder() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let empty = try folder.write([], to: "empty.plist")
        let missing = folder.path("missing.plist")
        let xml = fixture(badXMLFile)
        let run = try Tool.run(["lint", missing, good, empty, bad, xml])
        #expect(run.status == 1)
        #expect(run.stdoutText == "\(good): OK\n")
        #expect(
            run.stderr == """
                plistconv: \(missing): No such file or directory
                plistconv: \(empty): the input is empty
                plistconv: \(bad): \(invalidUTF16Message)
                plistconv: \(xml): \(badXMLMessage)

                """)
    }

    @Test func badStdin() throws {
        let run = try Tool.run(["lint", "-"], stdin: try fixtureBytes(invalidUTF16))
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: <stdin>: \(invalidUTF16Message)\n")
    }

    @Test func goodStdin() throws {
        let run = try Tool.run(["lint", "-"], stdin: largeInput)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdoutText == "<stdin>: OK\n")
    }
}

// MARK: - Argument parsing

@Suite struct ArgumentTests {
    @Test(arguments: [
        ("binary", OutputFormat.binary), ("binary1", .binary), ("bin", .binary), ("xml", .xml), ("xml1", .xml),
        ("openstep", .openstep), ("ascii", .openstep), ("gnustep", .gnustep), ("strings", .strings),
    ])
    func formatNames(name: String, format: OutputFormat) throws {
        let command = try #require(try parse(["-f", name, "in.plist"]) as? Convert)
        #expect(command.format == format)
        #expect(command.files == ["in.plist"])
        #expect(command.output == nil)
    }

    @Test func shorthandWithOutput() throws {
        let command = try conversion(["-f", "xml", "in.plist", "out.plist"])
        #expect(command.files == ["in.plist"])
        #expect(command.output == "out.plist")
    }

    @Test func explicitConvertTakesSeveralFiles() throws {
        let command = try #require(try parse(["convert", "--format", "binary1", "-e", "bplist", "a", "b"]) as? Convert)
        #expect(command.format == .binary)
        #expect(command.files == ["a", "b"])
        #expect(command.output == nil)
        #expect(command.extension == "bplist")
    }

    @Test func lintArguments() throws {
        let command = try #require(try parse(["lint", "-s", "a.plist", "-", "b.plist"]) as? Lint)
        #expect(command.silent)
        #expect(command.files == ["a.plist", "-", "b.plist"])
        let loud = try #require(try parse(["lint", "a.plist"]) as? Lint)
        #expect(!loud.silent)
    }

    @Test(arguments: [
        ["lint"], ["lint", "-s"], ["-f", "yaml", "in.plist"], ["in.plist"], ["-f", "binary"],
        ["-f", "binary", "a", "b", "c"], ["lint", "-x", "a"],
    ])
    func parsingRejects(arguments: [String]) {
        #expect(throws: (any Error).self) { try parse(arguments) }
    }

    @Test func lintWithoutFilesIsAUsageError() throws {
        let run = try Tool.run(["lint"])
        #expect(run.status == 64)
        #expect(run.stdout == [])
        #expect(run.stderr.hasPrefix("Error: Missing expected argument '<files> ...'\n"), "\(run.stderr)")
    }

    @Test func unknownFormatIsAUsageError() throws {
        let run = try Tool.run(["-f", "yaml", "in.plist"])
        #expect(run.status == 64)
        #expect(run.stdout == [])
        #expect(
            run.stderr.hasPrefix(
                "Error: The value 'yaml' is invalid for '-f <format>'. Please provide one of the following:\n"
                    + "  - binary\n  - binary1\n  - xml\n  - xml1\n  - openstep\n  - gnustep\n  - strings\n"),
            "\(run.stderr)")
    }

    /// The spellings without a command word are the route's to read: `convert` has no option
    /// that spells them.
    @Test(arguments: ["--input-output", "--libplist"])
    func convertHasNoSpellingOption(option: String) throws {
        let run = try Tool.run(["convert", option, "-f", "xml", "in.plist", "out.plist"])
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.hasPrefix("Error: Unknown option '\(option)'"), "\(run.stderr)")
    }

    @Test(arguments: [["-f", "binary"], ["in.plist"], ["-f", "binary", "a", "b", "c"], ["lint", "-x", "a"]])
    func otherUsageErrorsExit64(arguments: [String]) throws {
        let run = try Tool.run(arguments)
        #expect(run.status == 64, "\(run)")
        #expect(run.stdout == [])
        #expect(run.stderr.hasPrefix("Error: "), "\(run.stderr)")
    }
}

/// The command a verb names, parsed alone, is the command the whole tree parses: the fast start
/// (`PlistConv.parseNamedCommand`) against its reference.
@Suite struct NamedCommandParsingTests {
    @Test(arguments: [
        ["-f", "binary", "in.plist"], ["-f", "xml", "in.plist", "out.plist"],
        ["-convert", "json", "-r", "a", "-o", "b"],
        ["convert", "--format", "binary1", "-e", "bplist", "a", "b"], ["-i", "in.plist", "-o", "out.plist"],
        ["-i", "in.plist", "-f", "openstep"], ["lint", "-s", "a.plist", "-", "b.plist"], ["-lint", "a.plist"],
        ["-p", "a.plist"], ["extract", "a.b.0", "raw", "a.plist"], ["-type", "a", "x.plist"],
        ["-insert", "k", "-string", "v", "f.plist"], ["replace", "k", "-integer", "3", "f.plist"],
        ["-remove", "k", "f.plist"], ["-create", "xml1", "f.plist"], ["archive-print", "a.plist"],
        ["-f", "objc", "--header", "in.plist", "out.m"], ["convert", "-f", "json", "--json-values", "lossy", "x"],
        ["defaults", "read", "com.example.app"],
    ])
    func agreesWithTheWholeTree(arguments: [String]) throws {
        let line = CommandSpelling.normalized(arguments)
        try Convert.$spelling.withValue(line.conversion) {
            let fast = try #require(PlistConv.parseNamedCommand(line.words), "\(line)")
            let reference = try PlistConv.parseAsRoot(line.words)
            #expect(type(of: fast) == type(of: reference))
            #expect(String(reflecting: fast) == String(reflecting: reference))
        }
    }

    @Test(arguments: [
        ["--help"], ["-h"], ["help"], ["convert", "--help"], ["-f", "yaml", "in.plist"], ["-f", "binary"], ["in.plist"],
        ["-f", "binary", "a", "b", "c"], ["lint", "-x", "a"], ["--version"],
        ["--generate-completion-script", "bash"], ["convert", "--generate-completion-script", "zsh"],
    ])
    func leavesHelpAndErrorsToTheWholeTree(arguments: [String]) {
        let line = CommandSpelling.normalized(arguments)
        Convert.$spelling.withValue(line.conversion) {
            #expect(PlistConv.parseNamedCommand(line.words) == nil)
        }
    }

    /// The command words `CommandSpelling` writes out are the commands' names, and help.
    @Test func commandWordsAreTheCommandsNames() {
        let names = PlistConv.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        #expect(CommandSpelling.verbs == names)
    }
}

/// Parses `arguments` as the executable's ArgumentParser routes do (`Route`), plutil's and
/// libplist's spellings included.
func parse(_ arguments: [String]) throws -> any ParsableCommand {
    let line = CommandSpelling.normalized(arguments)
    return try Convert.$spelling.withValue(line.conversion) { try PlistConv.parseAsRoot(line.words) }
}

/// The conversion `arguments` ask for, as the executable's ArgumentParser routes resolve it.
func conversion(_ arguments: [String]) throws -> Conversion {
    let line = CommandSpelling.normalized(arguments)
    return try Convert.$spelling.withValue(line.conversion) {
        try #require(try PlistConv.parseAsRoot(line.words) as? Convert).conversion()
    }
}
