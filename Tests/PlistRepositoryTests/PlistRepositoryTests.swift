import PlistKit
import PlistRepository
import TestSupport
import Testing

/// The diff and the three-way merge as a tool (a project generator, a CI bot) calls them: by
/// the public API only.
@Suite struct PlistRepositoryTests {
    private static let info: Plist = [
        "CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": "1.0", "CFBundleVersion": "41",
        "CFBundleURLTypes": [["CFBundleURLName": "com.example.app", "CFBundleURLSchemes": ["example"]]],
        "UIRequiredDeviceCapabilities": ["armv7"], "LSRequiresIPhoneOS": true, "UIDeviceFamily": [1],
    ]

    @Test func aDiffOfTwoInfoPlistsListsEachChangeByKeyPath() throws {
        var new = Self.info
        new["CFBundleVersion"] = "42"
        try new.append("example-beta", toArrayAt: "CFBundleURLTypes.0.CFBundleURLSchemes")
        new["UIRequiredDeviceCapabilities"] = nil
        new["LSRequiresIPhoneOS"] = "YES"
        new["ITSAppUsesNonExemptEncryption"] = false
        let diff = PlistDiff(from: Self.info, to: new)
        let found = diff.map { "\($0.kind) \($0.keyPath)" }
        #expect(
            found == [
                "changed CFBundleVersion", "added CFBundleURLTypes.0.CFBundleURLSchemes.1",
                "removed UIRequiredDeviceCapabilities", "retyped LSRequiresIPhoneOS",
                "added ITSAppUsesNonExemptEncryption",
            ])
        let version = try #require(diff.first)
        #expect(version.old == "41" && version.new == "42")
        #expect(version.path == [.key("CFBundleVersion")])
        #expect(diff[1].path == [.key("CFBundleURLTypes"), .index(0), .key("CFBundleURLSchemes"), .index(1)])
        #expect(diff[1].old == nil && diff[1].new == "example-beta")
        #expect(diff[2].old == ["armv7"] && diff[2].new == nil)
        #expect(try new.value(at: diff[1].keyPath) == "example-beta")
        #expect(PlistDiff(from: Self.info, to: Self.info).isEmpty)
    }

    @Test func concurrentEditsMergeCleanly() {
        var ours = Self.info
        ours["CFBundleShortVersionString"] = "1.1"
        ours["NSCameraUsageDescription"] = "Scans codes."
        var theirs = Self.info
        theirs["CFBundleVersion"] = "42"
        theirs["CFBundleURLTypes"] = [["CFBundleURLName": "com.example.app", "CFBundleURLSchemes": ["example", "ex"]]]
        let merge = PlistMerge(base: Self.info, ours: ours, theirs: theirs)
        #expect(merge.conflicts.isEmpty)
        var expected = ours
        expected["CFBundleVersion"] = "42"
        expected["CFBundleURLTypes"] = theirs["CFBundleURLTypes"]
        #expect(merge.value == expected)
    }

    @Test func aConflictNamesItsKeyPathAndEachSide() {
        var ours = Self.info
        ours["CFBundleVersion"] = "42"
        ours["UIDeviceFamily"] = [1, 2]
        var theirs = Self.info
        theirs["CFBundleVersion"] = "43"
        theirs["UIDeviceFamily"] = [1, 7]
        let merge = PlistMerge(base: Self.info, ours: ours, theirs: theirs)
        #expect(merge.value == nil)
        #expect(merge.conflicts.map(\.keyPath) == ["CFBundleVersion", "UIDeviceFamily.1"])
        let version = merge.conflicts[0]
        #expect(version.reason == .bothChanged && version.path == [.key("CFBundleVersion")])
        #expect(version.base == "41" && version.ours == "42" && version.theirs == "43")
        #expect(merge.conflicts[1].ours == [2] && merge.conflicts[1].theirs == [7])
        // Reordered differently on both sides: a conflict of the whole array.
        let reordered = PlistMerge(base: ["a", "b", "c"], ours: ["c", "b", "a"], theirs: ["b", "a", "c"])
        #expect(reordered.conflicts.map(\.reason) == [.bothReordered] && reordered.conflicts[0].path.isEmpty)
    }

    /// A file with conflicts has git's markers around the lines where the sides differ.
    @Test func aConflictingXMLFileHasConflictMarkers() throws {
        var ours = Self.info
        ours["CFBundleVersion"] = "42"
        var theirs = Self.info
        theirs["CFBundleVersion"] = "43"
        let merge = try PlistFileMerge(
            base: try Self.info.xmlBytes(), ours: try ours.xmlBytes(), theirs: try theirs.xmlBytes())
        #expect(merge.value == nil && merge.conflicts.map(\.keyPath) == ["CFBundleVersion"])
        let text = String(decoding: merge.bytes, as: UTF8.self)
        #expect(text.contains("<<<<<<< ours\n\t<string>42</string>\n=======\n\t<string>43</string>\n>>>>>>> theirs\n"))
    }

    /// A project as Xcode writes it: one side edits a setting in the text, the other adds a
    /// group; the merged file is the project as Xcode writes it, every untouched line in place.
    @Test func anXcodeProjectMergeKeepsXcodesLayout() throws {
        let base = try Paths.bytes(Fixtures.url("xcode/packages.pbxproj"))
        let text = String(decoding: base, as: UTF8.self)
        #expect(text.contains("SDKROOT = iphoneos;"))
        let ours = Array(text.replacing("SDKROOT = iphoneos;", with: "SDKROOT = macosx;").utf8)
        var project = try Plist(bytes: base.span)
        let root = try #require(project["rootObject"]?.string)
        let mainGroup = try #require(project["objects"]?[root]?["mainGroup"]?.string)
        try project.insert(
            ["isa": "PBXGroup", "children": [], "name": "Feature", "sourceTree": "<group>"],
            at: PlistKeyPath(components: ["objects", "B10000000000000000000001"]))
        try project.append(
            "B10000000000000000000001", toArrayAt: PlistKeyPath(components: ["objects", mainGroup, "children"]))
        let theirs = try project.pbxprojBytes(projectName: "Packages")
        let merge = try PlistFileMerge(base: base, ours: ours, theirs: theirs)
        #expect(merge.conflicts.isEmpty && merge.layoutLoss == nil)
        let expected = String(decoding: theirs, as: UTF8.self).replacing(
            "SDKROOT = iphoneos;", with: "SDKROOT = macosx;")
        #expect(String(decoding: merge.bytes, as: UTF8.self) == expected)
        #expect(expected.contains("B10000000000000000000001 /* Feature */ = {"))
    }
}
