import Foundation
import PlistKit
import TestSupport
import Testing

@Suite struct OpenStepCLITests {
    private let typed: Plist = ["name": "App", "count": 3, "on": true, "list": ["a", 1.5]]

    @Test func gnustepOutputReadsBackExactly() throws {
        let run = try Tool.run(["-f", "gnustep", "-", "-"], stdin: try typed.binaryBytes())
        #expect(run.status == 0, "\(run)")
        #expect(
            run.stdoutText
                == "{\n\tname = App;\n\tcount = <*I3>;\n\ton = <*BY>;\n\tlist = (\n\t\ta,\n\t\t<*R1.5>,\n\t);\n}\n")
        #expect(try Plist(bytes: run.stdout).isIdentical(to: typed))
    }

    @Test func stringifiedOpenStep() throws {
        let run = try Tool.run(["-f", "openstep", "--stringify", "-", "-"], stdin: try typed.binaryBytes())
        #expect(run.status == 0, "\(run)")
        #expect(try Plist(bytes: run.stdout) == ["name": "App", "count": "3", "on": "YES", "list": ["a", "1.5"]])
    }

    @Test func stringsOutput() throws {
        let run = try Tool.run(
            ["-f", "strings", "-", "-"], stdin: try Plist.dictionary(["Yes": "Oui", "No": "Non"]).xmlBytes())
        #expect(run.stdoutText == "\"No\" = \"Non\";\n\"Yes\" = \"Oui\";\n", "\(run)")
    }

    /// An edited `.strings` file stays a `.strings` file (no braces), its key order kept.
    @Test func editingAStringsFileKeepsItsShape() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let source = Fixtures.url("valid/localizable.strings")
        let path = try folder.write(try Paths.bytes(source), to: "Sparkle.strings")
        let before = try Plist(contentsOf: path)
        let run = try Tool.run(["insert", "New key", "-string", "Nouvelle valeur", path])
        #expect(run.status == 0, "\(run)")
        let text = String(decoding: try folder.read("Sparkle.strings"), as: UTF8.self)
        #expect(!text.hasPrefix("{"))
        #expect(text.hasSuffix("\"New key\" = \"Nouvelle valeur\";\n"))
        let (after, format) = try Plist.read(contentsOf: path)
        #expect(format == .strings)
        var expected = before
        expected["New key"] = "Nouvelle valeur"
        #expect(after.isIdentical(to: expected))
    }

    /// An edited OpenStep file stays OpenStep; a number put in is written as a GNUstep value.
    @Test func editingAnOpenStepFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let source = Fixtures.url("valid/openstep.openstep.plist")
        let path = try folder.write(try Paths.bytes(source), to: "test.plist")
        let run = try Tool.run(["insert", "added", "-integer", "77", path])
        #expect(run.status == 0, "\(run)")
        let (after, format) = try Plist.read(contentsOf: path)
        #expect(format == .openStep)
        #expect(after["added"] == 77)
        #expect(String(decoding: try folder.read("test.plist"), as: UTF8.self).contains("added = <*I77>;"))
    }

    /// An Xcode project is written back as Xcode writes it: unchanged, byte for byte.
    @Test(.needsCorpus) func editingAnXcodeProject() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("NetNewsWire.xcodeproj"), withIntermediateDirectories: false)
        let original = try Paths.bytes(Paths.corpus.appendingPathComponent("openstep/rustplist__netnewswire.pbxproj"))
        let path = try folder.write(original, to: "NetNewsWire.xcodeproj/project.pbxproj")
        let same = try Tool.run(["replace", "objectVersion", "-string", "46", path])
        #expect(same.status == 0, "\(same)")
        #expect(try folder.read("NetNewsWire.xcodeproj/project.pbxproj") == original)
        let changed = try Tool.run(["replace", "objectVersion", "-string", "77", path])
        #expect(changed.status == 0, "\(changed)")
        let text = String(decoding: try folder.read("NetNewsWire.xcodeproj/project.pbxproj"), as: UTF8.self)
        #expect(text.hasPrefix("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = 77;\n"))
    }
}
