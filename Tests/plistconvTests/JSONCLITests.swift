import Foundation
import PlistKit
import TestSupport
import Testing

@Suite struct JSONCLITests {
    /// Every valid fixture goes to typed JSON and back to the same value, through files.
    @Test(arguments: Fixtures.validFiles)
    func typedJSONRoundTripOfFixture(file: String) throws {
        try typedJSONRoundTrip(Fixtures.url(file), file)
    }

    /// Every valid binary corpus file goes to typed JSON and back to the same value, through files.
    @Test(.needsCorpus, arguments: Corpus.validBinary)
    func typedJSONRoundTrip(entry: Corpus.Entry) throws {
        try typedJSONRoundTrip(entry.url, entry.file)
    }

    private func typedJSONRoundTrip(_ url: URL, _ name: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try folder.write(try Paths.bytes(url), to: "in.plist")
        let toJSON = try Tool.run(["-f", "json", input, folder.path("out.json")])
        #expect(toJSON.status == 0, "\(toJSON)")
        let back = try Tool.run(["-f", "binary", folder.path("out.json"), folder.path("back.plist")])
        #expect(back.status == 0, "\(back)")
        #expect(
            try Plist(contentsOf: folder.path("back.plist")).isIdentical(to: try Plist(contentsOf: input)), "\(name)")
    }

    @Test func strictNamesTheKeyPathLikePlutilWouldNot() throws {
        let run = try Tool.run(
            ["-f", "json", "--json-values", "strict", "-", "-"],
            stdin: try Plist.dictionary([
                "Tracks": ["7": ["Date Added": .date(Date(timeIntervalSinceReferenceDate: 0))]]
            ]).binaryBytes())
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "plistconv: <stdin>: the value at key path \"Tracks.7.Date Added\" is a date, which JSON cannot hold "
                + "(--json-values typed keeps it)\n"
        )
    }

    @Test func readableIsIndentedAndSorted() throws {
        let run = try Tool.run(
            ["-convert", "json", "-r", "-o", "-", "-"],
            stdin: try Plist.dictionary(["b": 1, "a": [true]]).binaryBytes())
        #expect(run.stdoutText == "{\n  \"a\" : [\n    true\n  ],\n  \"b\" : 1\n}\n", "\(run)")
    }

    @Test func editingAJSONFileKeepsItJSON() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(
            Array(#"{"z": 1, "a": {"$date": "2001-01-01T00:00:00Z"}}"#.utf8), to: "settings.json")
        let run = try Tool.run(["insert", "list", "-json", #"[1, "two", {"$data": "AQI="}]"#, path])
        #expect(run.status == 0, "\(run)")
        let (value, format) = try Plist.read(contentsOf: path)
        #expect(format == .json)
        #expect(
            value.isIdentical(
                to: [
                    "z": 1, "a": .date(Date(timeIntervalSinceReferenceDate: 0)),
                    "list": [1, "two", .data(Data([1, 2]))],
                ]))
    }
}

@Suite struct SourceCodeCLITests {
    @Test func swiftNamedAfterTheFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try folder.write(try Plist.dictionary(["a": 1]).binaryBytes(), to: "Info.plist")
        let run = try Tool.run(["-convert", "swift", "-e", "swift", input])
        #expect(run.status == 0, "\(run)")
        let text = String(decoding: try folder.read("Info.swift"), as: UTF8.self)
        #expect(text.contains("let Info: [String: Any] = [\n    \"a\": 1,\n]\n"))
    }

    @Test func objcWithHeader() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let input = try folder.write(try Plist.dictionary(["a": 1]).binaryBytes(), to: "Info.plist")
        let run = try Tool.run(["-convert", "objc", "-header", "-o", folder.path("Info.m"), input])
        #expect(run.status == 0, "\(run)")
        #expect(try folder.names() == ["Info.h", "Info.m", "Info.plist"])
        #expect(
            String(decoding: try folder.read("Info.h"), as: UTF8.self).hasSuffix("extern NSDictionary * const Info;\n"))
        let date = try Tool.run(["-f", "objc", "-", "-"], stdin: try Plist.array([.date(Date())]).binaryBytes())
        #expect(
            date.stderr
                == "plistconv: <stdin>: the value at key path \"0\" is a date, which an Objective-C literal cannot hold\n"
        )
        #expect(try Tool.run(["convert", "-f", "swift", "--header", input]).status == 64)
    }
}

@Suite struct ArchiveCLITests {
    private let fixture = Fixtures.url("valid/keyed-archive.binary.plist").path
    private let url = Paths.corpus.appendingPathComponent("keyed-archive/corelibs__NSKeyedUnarchiver-URLTest.plist")
        .path
    private let resolved =
        #"{"root":{"$class":"NSURL","NS.base":{"$class":"NSURL","NS.base":"$null","NS.relative":"https://www.example.com"},"#
        + #""NS.relative":"foo.xml"}}"#

    @Test func archivePrint() throws {
        let run = try Tool.run(["archive-print", fixture])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutText == "{\n  \"root\" => \"h\u{E9}llo\"\n}\n", "the NSString resolves to its text: \(run)")
        let folder = try TempFolder()
        defer { folder.remove() }
        let bad = try folder.write(
            try Plist.dictionary(["$version": 100000, "$archiver": "NSKeyedArchiver", "$objects": ["$null"]])
                .binaryBytes(), to: "bad.plist")
        let failed = try Tool.run(["archive-print", bad])
        #expect(failed.status == 1)
        #expect(failed.stderr == "plistconv: \(bad): $top is missing or is not a dictionary\n")
    }

    @Test func resolvedArchiveAsJSON() throws {
        let run = try Tool.run(["-f", "json", "--resolve-archive", fixture, "-"])
        #expect(run.stdoutText == #"{"root":"h\#u{E9}llo"}"#, "\(run)")
    }

    @Test(.needsCorpus) func resolvedCorpusArchiveAsJSON() throws {
        let run = try Tool.run(["-f", "json", "--resolve-archive", url, "-"])
        #expect(run.stdoutText == resolved, "\(run)")
    }
}
