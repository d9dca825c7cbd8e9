import Foundation
import PlistKit
import TestSupport
import Testing

/// Edits of OpenStep and `.strings` files laid out by hand, through plistconv as a process:
/// only the lines of the values they change change; comments, blank lines and the encoding stay.
@Suite struct EditLayoutCLITests {
    private func utf16(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// A `.strings` file as Xcode's localization export writes it: UTF-16, a comment per entry.
    @Test func buddyOnACommentedStringsFileKeepsItsCommentsAndEncoding() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let text = "/* The title. */\n\"title\" = \"Hello\";\n\n/* The OK button. */\n\"ok\" = \"OK\";\n"
        let file = try folder.write(utf16(text), to: "Localizable.strings")
        let run = try Tool.run(["buddy", "-c", "Set :title Hi", "-c", "Add :cancel string Cancel", file])
        #expect(run.status == 0, "\(run)")
        let expected =
            "/* The title. */\n\"title\" = \"Hi\";\n\n/* The OK button. */\n\"ok\" = \"OK\";\n\"cancel\" = \"Cancel\";\n"
        #expect(try folder.read("Localizable.strings") == utf16(expected))
    }

    /// `replace`, `insert` and `remove` on OpenStep text with comments change their own lines.
    @Test func editsOfOpenStepWithCommentsChangeTheirLines() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let text = "// Settings\n{\n\tname = App; /* the name */\n\tcount = 3;\n\told = x;\n}\n"
        let file = try folder.write(Array(text.utf8), to: "Settings.txt")
        for edit in [["replace", "count", "-string", "4"], ["insert", "extra", "-string", "y"], ["remove", "old"]] {
            let run = try Tool.run(edit + [file])
            #expect(run.status == 0, "\(run)")
        }
        let expected = "// Settings\n{\n\tname = App; /* the name */\n\tcount = 4;\n\textra = y;\n}\n"
        #expect(String(decoding: try folder.read("Settings.txt"), as: UTF8.self) == expected)
    }

    /// An edit of a line the writer does not write as the file has it (spaces for tabs) writes
    /// the file in plistconv's layout, as before.
    @Test func aLineNoWriterReproducesIsRewritten() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = try folder.write(Array("{\n    count = 3; // three\n}\n".utf8), to: "Settings.txt")
        let run = try Tool.run(["replace", "count", "-string", "4", file])
        #expect(run.status == 0, "\(run)")
        #expect(String(decoding: try folder.read("Settings.txt"), as: UTF8.self) == "{\n\tcount = 4;\n}\n")
    }
}
