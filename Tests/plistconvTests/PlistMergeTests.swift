import PlistKit
import TestSupport
import Testing

@testable import PlistRepository
@testable import plistconv

/// The three-way merge in process: what merges, what conflicts (with both sides kept), and the
/// bytes written (OURS's layout, untouched lines byte for byte, conflict markers around the
/// lines that differ).
@Suite struct PlistMergeTests {
    private func merge(_ base: Plist?, _ ours: Plist, _ theirs: Plist) -> PlistMerge {
        PlistMerge(base: base, ours: ours, theirs: theirs)
    }

    @Test func dictionariesMergeKeyByKey() {
        let base: Plist = ["a": 1, "b": 2, "c": 3, "nested": ["x": 1, "y": 1]]
        let ours: Plist = ["a": 10, "b": 2, "nested": ["x": 2, "y": 1], "ours": true]
        let theirs: Plist = ["a": 1, "b": 20, "c": 3, "nested": ["x": 1, "y": 2], "theirs": true]
        let merged = merge(base, ours, theirs)
        #expect(merged.conflicts.isEmpty)
        #expect(merged.ours == ["a": 10, "b": 20, "nested": ["x": 2, "y": 2], "ours": true, "theirs": true])
        #expect(merged.theirs == merged.ours)
        // Their new key follows the key it follows on their side, after ours added there.
        #expect(merged.ours.dictionary?.keys.map { $0 } == ["a", "b", "nested", "ours", "theirs"])
    }

    @Test func changesOnBothSidesConflictAndKeepBothSides() {
        let base: Plist = ["version": "1", "gone": "x", "kept": "k"]
        let ours: Plist = ["version": "2", "kept": "k"]
        let theirs: Plist = ["version": "3", "gone": "changed", "kept": "k"]
        let merged = merge(base, ours, theirs)
        #expect(
            merged.conflicts.map(\.line) == [
                #"conflict at version: ours "2", theirs "3", base "1""#,
                #"conflict at gone: ours (absent), theirs "changed", base "x""#,
            ])
        #expect(merged.ours == ours)
        #expect(merged.theirs == ["version": "3", "kept": "k", "gone": "changed"])
    }

    @Test func arraysOfDistinctStringsMergeByIdentity() {
        let merged = merge(["a", "b", "c"], ["a", "c", "ours"], ["x", "a", "b", "c", "theirs"])
        #expect(merged.conflicts.isEmpty)
        #expect(merged.ours == ["x", "a", "c", "ours", "theirs"])
        // Added independently (no base): both kept.
        #expect(merge(nil, ["a", "b"], ["a", "c"]).ours == ["a", "b", "c"])
        // Reordered by one side: its order, with the other side's additions after the element
        // they follow on that side.
        #expect(merge(["a", "b", "c"], ["c", "b", "a"], ["a", "b", "c", "d"]).ours == ["c", "d", "b", "a"])
        let reordered = merge(["a", "b", "c"], ["c", "b", "a"], ["b", "a", "c"])
        #expect(reordered.conflicts.map(\.path) == [[]])
        #expect(reordered.ours == ["c", "b", "a"] && reordered.theirs == ["b", "a", "c"])
    }

    /// An element renamed on one side and replaced on the other is a conflict at its index,
    /// each side keeping its own; removed on both sides, with one side adding in its place, it
    /// merges.
    @Test func aStringBothSidesReplacedIsAConflict() {
        let base: Plist = ["Base.lproj", "en.lproj", "fr.lproj"]
        let merged = merge(base, ["Base.lproj", "en-GB.lproj", "fr.lproj"], ["Base.lproj", "en-US.lproj", "fr.lproj"])
        #expect(
            merged.conflicts.map(\.line) == [
                #"conflict at 1: ours ["en-GB.lproj"], theirs ["en-US.lproj"], base ["en.lproj"]"#
            ])
        #expect(merged.ours == ["Base.lproj", "en-GB.lproj", "fr.lproj"])
        #expect(merged.theirs == ["Base.lproj", "en-US.lproj", "fr.lproj"])
        let added = merge(base, ["Base.lproj", "de.lproj", "fr.lproj"], ["Base.lproj", "fr.lproj", "it.lproj"])
        #expect(added.conflicts.isEmpty && added.ours == ["Base.lproj", "de.lproj", "fr.lproj", "it.lproj"])
        let both = merge(base, ["Base.lproj", "de.lproj", "fr.lproj"], ["Base.lproj", "fr.lproj"])
        #expect(both.conflicts.isEmpty && both.ours == ["Base.lproj", "de.lproj", "fr.lproj"])
    }

    @Test func otherArraysMergeAsDiff3() {
        let base: Plist = [["n": 1], ["n": 2], ["n": 3], ["n": 5]]
        // A change on each side in different elements, changes of different keys in one
        // element, an insertion on one side.
        let ours: Plist = [["n": 0], ["n": 2], ["n": 3, "o": 1], ["n": 5]]
        let theirs: Plist = [["n": 1], ["n": 2], ["n": 3, "t": 1], ["n": 5], ["n": 4]]
        let merged = merge(base, ours, theirs)
        #expect(merged.conflicts.isEmpty)
        #expect(merged.ours == [["n": 0], ["n": 2], ["n": 3, "o": 1, "t": 1], ["n": 5], ["n": 4]])
        // Two different insertions at one place conflict, and both stay.
        let both = merge([1, 2], [1, 10, 2], [1, 20, 30, 2])
        #expect(both.conflicts.map(\.line) == ["conflict at 1: ours [10], theirs [20, 30], base []"])
        #expect(both.ours == [1, 10, 2] && both.theirs == [1, 20, 30, 2])
    }

    @Test func projectsMergeFilesGroupsAndTargetsFromBothSides() throws {
        let base = try TestProject.value()
        var ours = base
        try TestProject.ourEdits(&ours)
        var theirs = base
        try TestProject.theirEdits(&theirs)
        var expected = ours
        try TestProject.theirEdits(&expected)
        let merged = merge(base, ours, theirs)
        #expect(merged.conflicts.isEmpty)
        #expect(merged.ours == expected)
    }

    @Test func aRemovedObjectStillReferredToIsKeptAndReported() throws {
        let base = try TestProject.value()
        var ours = base
        // We remove Cocoa.framework as Xcode does (its reference, its build file, their places
        // in the group and in the Frameworks phase); they add a second build file for it.
        for path in [
            ["objects", "65541A9B16D13B8C00A968D5"], ["objects", "65541A9C16D13B8C00A968D5"],
            ["objects", "65541A9A16D13B8C00A968D5", "children", "0"],
            ["objects", "65541A9516D13B8C00A968D5", "files", "0"],
        ] {
            try ours.remove(at: PlistKeyPath(components: path))
        }
        var theirs = base
        try TestProject.add(
            ["isa": "PBXBuildFile", "fileRef": "65541A9B16D13B8C00A968D5"], id: "B20000000000000000000001", to: &theirs)
        let merged = merge(base, ours, theirs)
        #expect(
            merged.conflicts.map(\.line) == [
                "conflict at objects.65541A9B16D13B8C00A968D5: one side removed this object, but "
                    + "objects.B20000000000000000000001.fileRef refers to it; it is kept"
            ])
        #expect(
            try merged.ours.value(at: "objects.65541A9B16D13B8C00A968D5")
                == base["objects"]?["65541A9B16D13B8C00A968D5"])
    }

    // MARK: Bytes

    private func output(_ base: [UInt8], _ ours: [UInt8], _ theirs: [UInt8]) throws -> (
        bytes: [UInt8], loss: String?, conflicts: [PlistMerge.Conflict]
    ) {
        let result = try PlistFileMerge(base: base, ours: ours, theirs: theirs)
        return (result.bytes, result.layoutLoss, result.conflicts)
    }

    /// A project written as Xcode writes it comes back as Xcode writes the merged project:
    /// every line the merge did not touch, byte for byte.
    @Test func projectsAreWrittenAsXcodeWritesThem() throws {
        let base = try TestProject.value()
        var ours = base
        try TestProject.ourEdits(&ours)
        var theirs = base
        try TestProject.theirEdits(&theirs)
        var expected = ours
        try TestProject.theirEdits(&expected)
        let result = try output(TestProject.bytes(base), TestProject.bytes(ours), TestProject.bytes(theirs))
        #expect(result.loss == nil && result.conflicts.isEmpty)
        #expect(result.bytes == (try TestProject.bytes(expected)))
        // Our lines are all there, in order, with theirs between them.
        let oursLines = Lines.split(try TestProject.bytes(ours))
        #expect(SequenceAlignment.matches(oursLines, Lines.split(result.bytes)).count == oursLines.count)
    }

    /// The fixture as its author's Xcode wrote it (a value quoted by hand, which our writer does
    /// not reproduce) merges line by line, keeping that quoting.
    @Test func aProjectLaidOutByHandMergesLineByLine() throws {
        let fixture = try TestProject.fixtureBytes()
        let base = try TestProject.value()
        var ours = base
        try TestProject.ourEdits(&ours)
        var theirs = base
        try TestProject.theirEdits(&theirs)
        // Each side as Xcode writes it, but with the author's hand-quoted value: our writer
        // reproduces none of the three files.
        func edited(_ value: Plist) throws -> [UInt8] {
            let text = String(decoding: try TestProject.bytes(value), as: UTF8.self)
            return Array(text.replacing("ORGANIZATIONNAME = Test;", with: "ORGANIZATIONNAME = \"Test\";").utf8)
        }
        #expect(try edited(base) == fixture)
        let result = try output(fixture, try edited(ours), try edited(theirs))
        #expect(result.loss == nil && result.conflicts.isEmpty)
        var expected = ours
        try TestProject.theirEdits(&expected)
        #expect(try Plist(bytes: result.bytes) == expected)
        #expect(String(decoding: result.bytes, as: UTF8.self).contains("ORGANIZATIONNAME = \"Test\";"))
    }

    /// When only their side adds Swift packages, the merged project has Xcode's package
    /// comments: the file Xcode writes.
    @Test func packagesAddedOnTheirSideKeepXcodesComments() throws {
        let base = try PackagesProject.withoutPackages()
        var ours = base
        try ours.replace("macosx", at: PackagesProject.sdk)
        let text = try PackagesProject.text()
        let result = try output(
            try PackagesProject.bytes(base), try PackagesProject.bytes(ours), Array(text.utf8))
        #expect(result.loss == nil && result.conflicts.isEmpty)
        let expected = text.replacing("SDKROOT = iphoneos;", with: "SDKROOT = macosx;")
        #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
    }

    /// A project whose lines a tool left out of Xcode's order, which no line merge can keep,
    /// is written as Xcode writes it: nothing is lost, so the merge is clean.
    @Test func aProjectOutOfXcodesOrderMergesCleanlyInXcodesLayout() throws {
        let text = try PackagesProject.text()
        let base = try Plist(bytes: Array(text.utf8))
        let first =
            "\t\tA10000000000000000000012 /* Collections in Frameworks */ = {isa = PBXBuildFile; "
            + "productRef = A10000000000000000000061 /* Collections */; };\n"
        let second =
            "\t\tA10000000000000000000013 /* Kit in Frameworks */ = {isa = PBXBuildFile; "
            + "productRef = A10000000000000000000062 /* Kit */; };\n"
        let ours = text.replacing(first + second, with: second + first)
        #expect(ours != text)
        var theirs = base
        try theirs.insert(
            ["isa": "PBXBuildFile", "fileRef": "A10000000000000000000021"],
            at: PlistKeyPath(components: ["objects", "A10000000000000000000014"]))
        let result = try output(Array(text.utf8), Array(ours.utf8), try PackagesProject.bytes(theirs))
        #expect(result.loss == nil && result.conflicts.isEmpty)
        #expect(result.bytes == (try PackagesProject.bytes(theirs)))
    }

    @Test func xmlKeepsFoundationsLayoutAndMarksOnlyTheConflictingLines() throws {
        let base: Plist = ["CFBundleVersion": "1", "CFBundleShortVersionString": "1.0", "LSRequiresIPhoneOS": true]
        var ours = base
        ours["CFBundleVersion"] = "2"
        var theirs = base
        theirs["CFBundleVersion"] = "3"
        theirs["CFBundleShortVersionString"] = "1.1"
        let result = try output(try base.xmlBytes(), try ours.xmlBytes(), try theirs.xmlBytes())
        #expect(result.conflicts.count == 1)
        var oursSide = ours
        oursSide["CFBundleShortVersionString"] = "1.1"
        let expected = String(decoding: try oursSide.xmlBytes(), as: UTF8.self).replacing(
            "\t<string>2</string>\n",
            with: "<<<<<<< ours\n\t<string>2</string>\n=======\n\t<string>3</string>\n>>>>>>> theirs\n")
        #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
    }

    /// A `.strings` file with comments, in UTF-16 as Xcode once wrote them: additions from
    /// both sides at its end, and a changed value, merge line by line; comments and encoding
    /// stay.
    @Test func stringsFilesKeepCommentsAndEncoding() throws {
        func utf16(_ text: String) -> [UInt8] {
            [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
        let base = """
            /* The title. */
            "title" = "Hello";

            /* The button. */
            "button" = "OK";

            """
        let ours = base + "\n/* Added on our side. */\n\"ours\" = \"Ours\";\n"
        let changed = base.replacing("\"Hello\"", with: "\"Hi\"")
        let theirs = changed + "\n/* Added on their side. */\n\"theirs\" = \"Theirs\";\n"
        let result = try output(utf16(base), utf16(ours), utf16(theirs))
        #expect(result.loss == nil && result.conflicts.isEmpty)
        let expected =
            changed
            + "\n/* Added on our side. */\n\"ours\" = \"Ours\";\n\n/* Added on their side. */\n\"theirs\" = \"Theirs\";\n"
        #expect(result.bytes == utf16(expected))
    }

    /// A hand-formatted file whose lines do not merge to the merged value is written in the
    /// writer's layout, and the merge says so.
    @Test func aLayoutThatCannotBeKeptIsReported() throws {
        let base = "/* c */\n\"a\" = \"1\"; \"b\" = \"2\";\n"
        let ours = "/* c */\n\"a\" = \"10\"; \"b\" = \"2\";\n"
        let theirs = "/* c */\n\"a\" = \"1\"; \"b\" = \"20\";\n"
        let result = try output(Array(base.utf8), Array(ours.utf8), Array(theirs.utf8))
        #expect(result.loss == "line 1: the comment /* c */ could not be kept" && result.conflicts.isEmpty)
        #expect(try Plist(bytes: result.bytes) == ["a": "10", "b": "20"])
    }

    /// Text in an encoding plistconv does not write back stays text, in UTF-8.
    @Test func textInOtherEncodingsStaysText() throws {
        func utf16WithoutMark(_ value: Plist) throws -> [UInt8] {
            let text = String(decoding: try value.xmlBytes(), as: UTF8.self).replacing("UTF-8", with: "UTF-16")
            return text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
        let base: Plist = ["name": "Café", "a": 1, "b": 1]
        let result = try output(
            try utf16WithoutMark(base), try utf16WithoutMark(["name": "Café", "a": 2, "b": 1]),
            try utf16WithoutMark(["name": "Café", "a": 1, "b": 2]))
        #expect(result.loss != nil && result.conflicts.isEmpty)
        let expected: Plist = ["name": "Café", "a": 2, "b": 2]
        #expect(result.bytes == (try expected.xmlBytes()))
    }

    /// A side equal to the result is taken byte for byte, whatever its layout.
    /// Keys spelled differently ("e\u{301}" and "\u{E9}") are different keys: each side's survives.
    @Test func keysAreMergedByTheirSpelling() {
        let base: Plist = ["x": 0]
        let ours: Plist = ["x": 0, "e\u{301}": 1, "list": ["\u{E9}"]]
        let theirs: Plist = ["x": 0, "\u{E9}": 2, "list": ["e\u{301}"]]
        let merged = merge(base, ours, theirs)
        #expect(merged.ours["e\u{301}"] == 1 && merged.ours["\u{E9}"] == 2 && merged.ours.count == 4)
        #expect(merged.conflicts.count <= 1, "the list may conflict, the keys do not")
    }

    @Test func aResultEqualToOneSideIsThatSide() throws {
        let base = Array("{\"a\": 1}".utf8)
        let theirs = Array("{ \"a\" : 2 }".utf8)
        let result = try output(base, base, theirs)
        #expect(result.bytes == theirs)
        let value: Plist = ["a": 1]
        let binary = try value.binaryBytes()
        #expect(try output(binary, binary, try value.xmlBytes()).bytes == binary)
        // Their bytes are taken only in our encoding: here UTF-16 against our UTF-8.
        let xml = try value.xmlBytes()
        let changed: Plist = ["a": 2]
        let units = String(decoding: try changed.xmlBytes(), as: UTF8.self).utf16
        let utf16: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }
        #expect(try output(xml, xml, utf16).bytes == changed.xmlBytes())
    }
}
