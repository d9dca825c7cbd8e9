import Foundation
import PlistKit
import TestSupport
import Testing

/// A value holding every type, for the verbs to read and edit.
private let sample: Plist = [
    "name": "App \"quoted\"\n", "count": -42, "big": .integer(PlistInteger(UInt64.max)), "ratio": 0.1,
    "on": true, "when": .date(Date(timeIntervalSinceReferenceDate: 86_400.5)),
    "blob": .data(Data([0x00, 0x0F, 0xA0])), "list": ["a", 2, ["x": 1]], "dotted.key": "d", "empty": [:],
]

/// Writes `value` in `format` into `folder` as `name`, and returns its path.
private func file(_ value: Plist, _ format: PlistFormat, in folder: TempFolder, name: String = "in.plist") throws
    -> String
{
    try folder.write(try value.bytes(format: format), to: name)
}

@Suite struct PrintVerbTests {
    @Test(arguments: [["print"], ["-p"]])
    func printsLikePlutil(verb: [String]) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let run = try Tool.run(verb + [try file(sample, .binary, in: folder)])
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdoutText == """
                {
                  "big" => 18446744073709551615
                  "blob" => {length = 3, bytes = 0x000fa0}
                  "count" => -42
                  "dotted.key" => "d"
                  "empty" => {
                  }
                  "list" => [
                    0 => "a"
                    1 => 2
                    2 => {
                      "x" => 1
                    }
                  ]
                  "name" => "App \\"quoted\\"\\n"
                  "on" => true
                  "ratio" => 0.1
                  "when" => 2001-01-02T00:00:00.5Z
                }

                """)
    }

    @Test(arguments: [
        (0, "{length = 0, bytes = 0x}"), (24, "{length = 24, bytes = 0x" + hex(0..<24) + "}"),
        (100, "{length = 100, bytes = 0x" + hex(0..<16) + " ... " + hex(92..<100) + "}"),
    ])
    func dataAsCoreFoundationDescribesIt(count: Int, expected: String) throws {
        let run = try Tool.run(
            ["print", "-"], stdin: try Plist.data(Data((0..<count).map { UInt8($0) })).binaryBytes())
        #expect(run.stdoutText == expected + "\n", "\(run)")
    }

    @Test func keyedArchiveUIDs() throws {
        let run = try Tool.run([
            "print", Fixtures.url("valid/keyed-archive.binary.plist").path,
        ])
        #expect(run.status == 0)
        #expect(run.stdoutText.contains("\"root\" => <CF$UID 1>"), "\(run)")
    }
}

private func hex(_ range: Range<Int>) -> String { range.map { String(format: "%02x", $0) }.joined() }

@Suite struct ExtractVerbTests {
    @Test(arguments: [
        ("name", "App \"quoted\"\n"), ("count", "-42"), ("big", "18446744073709551615"), ("ratio", "0.1"),
        ("on", "true"), ("when", "2001-01-02T00:00:00.5Z"), ("blob", "AA+g"), ("list", "3"),
        ("list.2", "x"), ("list.1", "2"), ("dotted\\.key", "d"), ("empty", ""),
    ])
    func raw(keyPath: String, expected: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try file(sample, .binary, in: folder)
        let before = try folder.read("in.plist")
        let run = try Tool.run(["extract", keyPath, "raw", path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdoutText == expected + "\n")
        let plutil = try Tool.run(["-extract", keyPath, "raw", "-n", path])
        #expect(plutil.stdoutText == expected, "-n leaves out the newline")
        #expect(try folder.read("in.plist") == before, "extract never rewrites its input")
    }

    @Test func dictionaryKeysInOrder() throws {
        let run = try Tool.run(["extract", "", "raw", "-"], stdin: try sample.binaryBytes())
        #expect(run.stdoutText == sample.dictionary!.keys.joined(separator: "\n") + "\n")
    }

    /// A subtree as XML is the bytes Foundation writes for it.
    @Test func subtreeAsXMLMatchesFoundation() throws {
        let run = try Tool.run(["extract", "list", "xml1", "-"], stdin: try sample.binaryBytes())
        #expect(run.status == 0, "\(run)")
        let foundation = try PropertyListSerialization.data(
            fromPropertyList: ["a", 2, ["x": 1]] as [Any], format: .xml, options: 0)
        #expect(run.stdout == [UInt8](foundation))
    }

    @Test func toAFileInAnotherFormat() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let run = try Tool.run([
            "extract", "list.2", "binary", "-o", folder.path("out.plist"), try file(sample, .xml, in: folder),
        ])
        #expect(run.status == 0 && run.stdout == [], "\(run)")
        #expect(try folder.read("out.plist") == (try Plist.dictionary(["x": 1]).binaryBytes()))
    }

    @Test(arguments: [
        (["extract", "nope", "raw"], "no value at key path \"nope\""),
        (["extract", "list.7", "xml"], "no value at key path \"list.7\""),
        (["extract", "name.x", "raw"], "the value at key path \"name\" is a string, not a dictionary or array"),
        (
            ["extract", "count", "raw", "--expect", "string"],
            "the value at key path \"count\" is an integer, not a string"
        ),
        (["-extract", "on", "raw", "-expect", "integer"], "the value at key path \"on\" is a bool, not an integer"),
        (["type", "list", "--expect", "dictionary"], "the value at key path \"list\" is an array, not a dictionary"),
    ])
    func failures(arguments: [String], message: String) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try file(sample, .binary, in: folder)
        let run = try Tool.run(arguments + [path])
        #expect(run.status == 1)
        #expect(run.stdout == [])
        #expect(run.stderr == "plistconv: \(path): \(message)\n")
    }

    @Test(arguments: [
        ("name", "string"), ("count", "integer"), ("ratio", "float"), ("on", "bool"), ("when", "date"),
        ("blob", "data"), ("list", "array"), ("empty", "dictionary"), ("", "dictionary"),
    ])
    func type(keyPath: String, name: String) throws {
        let run = try Tool.run(["-type", keyPath, "-"], stdin: try sample.binaryBytes())
        #expect(run.stdoutText == name + "\n", "\(run)")
        let expecting = try Tool.run(["type", keyPath, "--expect", name, "-"], stdin: try sample.binaryBytes())
        #expect(expecting.status == 0)
    }
}

@Suite struct EditVerbTests {
    /// Runs an edit on `sample` written in `format`, and returns the file's new value (checking
    /// that it was written back in `format`).
    private func edited(_ arguments: [String], format: PlistFormat = .binary) throws -> Plist {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try file(sample, format, in: folder)
        let run = try Tool.run(arguments + [path])
        #expect(run.status == 0 && run.stderr == "" && run.stdout == [], "\(run)")
        let bytes = try folder.read("in.plist")
        #expect(PlistFormat.detect(bytes) == format, "written back in its own format")
        #expect(try folder.names() == ["in.plist"], "no temporary file is left behind")
        return try Plist(bytes: bytes)
    }

    @Test(arguments: [
        (["-bool", "YES"], Plist.bool(true)), (["-bool", "false"], Plist.bool(false)),
        (["-integer", "-7"], Plist.integer(-7)),
        (["-integer", "18446744073709551615"], Plist.integer(PlistInteger(UInt64.max))),
        (["-float", "-0.25"], Plist.real(-0.25)),
        (["-string", "-dash"], Plist.string("-dash")), (["--string", "two dashes"], Plist.string("two dashes")),
        (["-date", "2026-11-22T10:00:00Z"], Plist.date(Date(timeIntervalSince1970: 1_795_341_600))),
        (["-data", "AAEC"], Plist.data(Data([0, 1, 2]))), (["-array"], Plist.array([])),
        (["-dictionary"], Plist.dictionary([:])),
        (["-xml", "<dict><key>k</key><integer>1</integer></dict>"], Plist.dictionary(["k": 1])),
    ])
    func insertEachType(value: [String], expected: Plist) throws {
        for format in [PlistFormat.binary, .xml] {
            let result = try edited(["-insert", "new"] + value, format: format)
            #expect(result["new"] == expected, "\(format)")
        }
    }

    @Test func insertBeforeAnIndexAndAppend() throws {
        #expect(try edited(["insert", "list.0", "-string", "first"]).value(at: "list") == ["first", "a", 2, ["x": 1]])
        #expect(try edited(["insert", "list.3", "-integer", "9"]).value(at: "list") == ["a", 2, ["x": 1], 9])
        #expect(
            try edited(["insert", "list", "-append", "-bool", "NO"]).value(at: "list") == ["a", 2, ["x": 1], false])
    }

    /// plutil on Linux inserts where it should overwrite; replace overwrites.
    @Test func replaceOverwritesArrayElements() throws {
        #expect(try edited(["-replace", "list.1", "-string", "two"]).value(at: "list") == ["a", "two", ["x": 1]])
        let replaced = try edited(["replace", "name", "-integer", "1"])
        #expect(replaced.dictionary?.keys.first == "name" && replaced["name"] == 1)
    }

    @Test func removeAndEscapedDots() throws {
        let result = try edited(["-remove", "dotted\\.key"])
        #expect(result["dotted.key"] == nil)
        #expect(try edited(["remove", "list.2.x"]).value(at: "list.2") == [:])
    }

    /// `--` ends the options, so that key paths (and files) may start with a dash.
    @Test func doubleDashRule() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try folder.write(try sample.binaryBytes(), to: "-dash.plist")
        let run = try Tool.run(["insert", "-string", "v", "--", "-key", "-dash.plist"], in: folder.url)
        #expect(run.status == 0, "\(run)")
        #expect(try Plist(contentsOf: path)["-key"] == "v")
        let lint = try Tool.run(["-lint", "--", "-dash.plist"], in: folder.url)
        #expect(lint.stdoutText == "-dash.plist: OK\n")
    }

    @Test func keyedArchiveKeepsItsUIDs() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let source = Fixtures.url("valid/keyed-archive.binary.plist")
        let path = try folder.write(try Paths.bytes(source), to: "archive.plist")
        let run = try Tool.run(["replace", "$objects.1.NS\\.string", "-string", "edited", path])
        #expect(run.status == 0, "\(run)")
        let result = try Plist(contentsOf: path)
        #expect(try result.value(at: "$top.root") == .uid(1))
        #expect(try result.value(at: "$objects.1.$class") == .uid(2))
        #expect(try result.value(at: "$objects.1.NS\\.string") == "edited")
    }

    @Test func failedEditLeavesTheFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let path = try file(sample, .binary, in: folder)
        let before = try folder.read("in.plist")
        let run = try Tool.run(["insert", "name", "-string", "x", path])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "plistconv: \(path): a value already exists at key path \"name\" (use replace to overwrite it)\n")
        #expect(try folder.read("in.plist") == before)
    }

    @Test(arguments: [
        ["insert", "k", "in.plist"], ["insert", "k", "-string", "a", "-integer", "1", "in.plist"],
        ["insert", "k", "-bool", "maybe", "in.plist"], ["replace", "k", "-string", "a", "-o", "x", "a", "b"],
    ])
    func badValues(arguments: [String]) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        _ = try file(sample, .binary, in: folder)
        let run = try Tool.run(arguments, in: folder.url)
        #expect(run.status == (arguments.contains("maybe") ? 1 : 64), "\(run)")
    }

    @Test func editStdinToStdout() throws {
        let run = try Tool.run(["replace", "count", "-integer", "1", "-"], stdin: try sample.xmlBytes())
        #expect(run.status == 0)
        #expect(PlistFormat.detect(run.stdout) == .xml)
        #expect(try Plist(bytes: run.stdout)["count"] == 1)
    }

    @Test func create() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let run = try Tool.run(["-create", "xml1", folder.path("new.plist")])
        #expect(run.status == 0, "\(run)")
        #expect(try folder.read("new.plist") == (try Plist.dictionary([:]).xmlBytes()))
        let again = try Tool.run(["create", "binary", folder.path("new.plist")])
        #expect(again.status == 1)
        #expect(again.stderr == "plistconv: \(folder.path("new.plist")): the file exists already\n")
    }
}

@Suite struct ManyFilesTests {
    @Test func convertsEachBesideItsInputAndReportsFailures() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        var paths: [String] = []
        for index in 0..<40 {
            paths.append(
                try folder.write(
                    try Plist.dictionary(["index": .integer(PlistInteger(index))]).xmlBytes(), to: "f\(index).plist"))
        }
        paths.insert(try folder.write([0x01, 0x02], to: "bad.plist"), at: 7)
        let run = try Tool.run(["convert", "-f", "binary1", "-e", "bplist"] + paths)
        #expect(run.status == 1)
        #expect(
            run.stderr == "plistconv: \(paths[7]): not a property list in any known format\n",
            "no progress line when piped")
        for index in 0..<40 {
            #expect(try Plist(binary: try folder.read("f\(index).bplist"))["index"] == .integer(PlistInteger(index)))
        }
    }

    @Test func plutilLintOfSeveralFiles() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let good = try folder.write(try sample.binaryBytes(), to: "good.plist")
        let run = try Tool.run(["-lint", "-s", good, good])
        #expect(run.status == 0 && run.stdout == [] && run.stderr == "")
    }
}

@Suite struct HelpTests {
    @Test(arguments: [
        "convert", "lint", "print", "extract", "type", "insert", "replace", "remove", "create",
    ])
    func everyVerbHasHelp(verb: String) throws {
        let run = try Tool.run([verb, "--help"])
        #expect(run.status == 0)
        #expect(
            run.stdoutText.contains("USAGE: plistconv \(verb)") || run.stdoutText.contains("plistconv convert"),
            "\(run)")
    }

    @Test(arguments: [["--help"], ["-help"], ["-h"]])
    func topLevelHelpDocumentsPlutilSpellings(arguments: [String]) throws {
        let run = try Tool.run(arguments)
        #expect(run.status == 0)
        #expect(run.stdoutText.contains("plutil's spellings work too"), "\(run)")
    }

    /// The whole tool's script, also when the option follows a command's name.
    @Test(arguments: [[], ["convert"], ["-f", "binary"]], ["bash", "zsh", "fish"])
    func completionScripts(before: [String], shell: String) throws {
        let run = try Tool.run(before + ["--generate-completion-script", shell])
        #expect(run.status == 0)
        #expect(run.stdoutText.contains("plistconv"))
        #expect(run.stdoutText.contains("extract"))
    }
}
