import Foundation
import PlistKit
import TestSupport
import Testing

/// `plistconv diff` as a process, on every format: exit status 0 for equal values (whatever
/// the formats), 1 with the differences, 2 on error; `--format json`; `--textconv`.
@Suite struct DiffCLITests {
    // Keys in sorted order, which the XML, OpenStep and JSON writers use.
    private static let old: Plist = ["Build": "41", "List": ["a", "b"], "Old": "x"]
    private static let new: Plist = ["Build": "42", "List": ["z", "a", "b"], "Zoo": "y"]
    private static let lines = """
        changed  Build: "41" → "42"
        added    List.0: "z"
        removed  Old: "x"
        added    Zoo: "y"

        """

    @Test(arguments: [PlistFormat.binary, .xml, .openStep, .strings, .json])
    func reportsDifferencesInEachFormat(format: PlistFormat) throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        // A .strings file has no arrays: the list becomes a string there.
        func adapted(_ value: Plist) -> Plist {
            guard format == .strings, case .array(let list)? = value["List"] else { return value }
            var copy = value
            copy["List"] = .string(list.compactMap(\.string).joined())
            return copy
        }
        let a = try folder.write(try adapted(Self.old).bytes(format: format), to: "a")
        let b = try folder.write(try adapted(Self.new).bytes(format: format), to: "b")
        let run = try Tool.run(["diff", a, b])
        let expected =
            format == .strings
            ? Self.lines.replacing(#"added    List.0: "z""#, with: #"changed  List: "ab" → "zab""#) : Self.lines
        #expect(run.status == 1 && run.stdoutText == expected, "\(run)")
        let same = try Tool.run(["diff", a, a])
        #expect(same.status == 0 && same.stdout.isEmpty && same.stderr.isEmpty, "\(same)")
    }

    @Test func comparesValuesAcrossFormatsAndReportsErrors() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let binary = try folder.write(try Self.old.binaryBytes(), to: "Info.plist")
        let xml = try folder.write(try Self.old.xmlBytes(), to: "Info.xml")
        #expect(try Tool.run(["diff", binary, xml]).status == 0)
        let broken = try folder.write(Array("<plist><dict><key>a</key>".utf8), to: "broken.plist")
        let failed = try Tool.run(["diff", binary, broken])
        #expect(failed.status == 2 && failed.stdout.isEmpty, "\(failed)")
        #expect(failed.stderr.hasPrefix("plistconv: \(broken): "), "\(failed)")
        let missing = try Tool.run(["diff", binary, folder.path("missing.plist")])
        #expect(missing.status == 2 && missing.stderr.contains("No such file or directory"), "\(missing)")
    }

    /// A usage error is trouble, 2, as `diff` has it (not ArgumentParser's 64), for diff and merge.
    @Test(arguments: [
        ["diff", "a"], ["diff", "--bogus", "a", "b"], ["diff", "-", "-"], ["merge", "a", "b"],
        ["merge", "-", "-", "c"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let run = try Tool.run(arguments)
        #expect(run.status == 2 && run.stderr.contains("Error:"), "\(run)")
    }

    /// Keys spelled differently are different keys ("e\u{301}" and "\u{E9}").
    @Test func keysByTheirSpelling() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let a = try folder.write(try Plist.dictionary(["e\u{301}": 1, "x": 1]).binaryBytes(), to: "a")
        let b = try folder.write(try Plist.dictionary(["\u{E9}": 1, "x": 2]).binaryBytes(), to: "b")
        let run = try Tool.run(["diff", a, b])
        #expect(run.status == 1, "\(run)")
        let lines = run.stdoutText.split(separator: "\n")
        #expect(lines.count == 3, "\(run)")
        #expect(lines.contains { $0.hasPrefix("removed") && $0.unicodeScalars.contains("\u{301}") }, "\(run)")
        #expect(lines.contains { $0.hasPrefix("added") && $0.unicodeScalars.contains("\u{E9}") }, "\(run)")
    }

    /// Keys holding a line feed or an escape character: every difference, conflict and
    /// PlistBuddy message is one line, the characters written as escapes, so a key cannot
    /// forge a line of a report.
    @Test func keysCannotAddLines() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let forged = "k\nadded    Forged: \"x\"\u{1B}[2J"
        let base = try folder.write(try Plist.dictionary([forged: 1]).binaryBytes(), to: "base")
        let ours = try folder.write(try Plist.dictionary([forged: 2]).binaryBytes(), to: "ours")
        let theirs = try folder.write(try Plist.dictionary([forged: 3]).binaryBytes(), to: "theirs")
        let diff = try Tool.run(["diff", base, ours])
        #expect(diff.status == 1, "\(diff)")
        #expect(diff.stdoutText == #"changed  k\nadded    Forged: "x"\u{1B}[2J: 1 → 2"# + "\n", "\(diff)")
        let merge = try Tool.run(["merge", base, ours, theirs, "-o", folder.path("merged")])
        #expect(merge.status == 1, "\(merge)")
        let conflictLines = merge.stderr.split(separator: "\n").filter { $0.contains("conflict at") }
        #expect(conflictLines.count == 1 && !merge.stderr.contains("\u{1B}"), "\(merge)")
        let buddy = try Tool.run(["buddy", "-c", "Print :\(forged)", ours])
        #expect(
            buddy.stdoutText.split(separator: "\n").count + buddy.stderr.split(separator: "\n").count == 1, "\(buddy)")
        #expect(!(buddy.stdoutText + buddy.stderr).contains("\u{1B}"), "\(buddy)")
    }

    /// `--textconv` of a file that cannot be read names that file (it named `<stdout>`).
    @Test func textconvNamesAnUnreadableInput() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let missing = folder.path("missing.plist")
        let run = try Tool.run(["diff", "--textconv", missing])
        #expect(run.status == 2 && run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.hasPrefix("plistconv: \(missing): ") && !run.stderr.contains("stdout"), "\(run)")
    }

    @Test func writesJSONForTools() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let old: Plist = ["when": .date(Date(timeIntervalSinceReferenceDate: 0)), "n": 1]
        let new: Plist = ["when": .date(Date(timeIntervalSinceReferenceDate: 1)), "n": "1"]
        let run = try Tool.run([
            "diff", "--format", "json", try folder.write(try old.binaryBytes(), to: "a"),
            try folder.write(try new.binaryBytes(), to: "b"),
        ])
        #expect(run.status == 1)
        #expect(
            run.stdoutText == #"[{"kind":"changed","path":["when"],"old":{"$date":"2001-01-01T00:00:00Z"},"#
                + #""new":{"$date":"2001-01-01T00:00:01Z"}},{"kind":"retyped","path":["n"],"old":1,"new":"1"}]"# + "\n",
            "\(run)")
    }

    @Test func textconvWritesXMLAndPassesOtherFilesThrough() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let run = try Tool.run(["diff", "--textconv", try folder.write(try Self.old.binaryBytes(), to: "Info.plist")])
        let xml = try Self.old.xmlBytes()
        #expect(run.status == 0 && run.stdout == xml, "\(run)")
        let text = Array("not a property list\u{1}".utf8)
        let passed = try Tool.run(["diff", "--textconv", try folder.write(text, to: "notes.plist")])
        #expect(passed.status == 0 && passed.stdout == text, "\(passed)")
        #expect(passed.stderr.contains("(shown as it is)"), "\(passed)")
    }
}
