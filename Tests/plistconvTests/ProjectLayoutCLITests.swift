import Foundation
import TestSupport
import Testing

/// Xcode projects through plistconv as a process: converting and editing one changes only the
/// lines of the values that change, wherever the file is and whatever Xcode version wrote it.
@Suite struct ProjectLayoutCLITests {
    /// A fixture of `Fixtures/xcode/` copied into a new folder under `name`.
    private func copy(_ fixture: String, as name: String, in folder: TempFolder) throws -> (
        path: String, bytes: [UInt8]
    ) {
        let bytes = try Paths.bytes(Fixtures.url("xcode/" + fixture))
        return (try folder.write(bytes, to: name), bytes)
    }

    /// The lines of `a` and `b` that differ (the two having as many lines).
    private func differingLines(_ a: [UInt8], _ b: [UInt8]) -> [String] {
        let left = String(decoding: a, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let right = String(decoding: b, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard left.count == right.count else { return ["\(left.count) lines, then \(right.count)"] }
        return left.indices.filter { left[$0] != right[$0] }.map { "\(left[$0]) -> \(right[$0])" }
    }

    /// Outside its `.xcodeproj` folder a project keeps the name its comments give it.
    @Test func convertingAProjectOutsideItsFolderKeepsItsName() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let (input, original) = try copy("packages.pbxproj", as: "copy.pbxproj", in: folder)
        let run = try Tool.run(["-f", "pbxproj", input, folder.path("out.pbxproj")])
        #expect(run.status == 0, "\(run)")
        #expect(differingLines(original, try folder.read("out.pbxproj")) == [])
    }

    /// One `Set` in a current (Xcode 16, `objectVersion` 77) project changes one line.
    @Test func oneBuddySetOnACurrentProjectChangesOneLine() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let (file, original) = try copy("synchronized-77.pbxproj", as: "project.pbxproj", in: folder)
        let setting = ":objects:B10000000000000000000084:buildSettings:PRODUCT_NAME"
        let run = try Tool.run(["buddy", "-c", "Set \(setting) Renamed", file])
        #expect(run.status == 0, "\(run)")
        #expect(
            differingLines(original, try folder.read("project.pbxproj")) == [
                "\t\t\t\tPRODUCT_NAME = \"$(TARGET_NAME)\"; -> \t\t\t\tPRODUCT_NAME = Renamed;"
            ])
    }

    /// `replace` in a project with Swift packages and synchronized folders (`objectVersion`
    /// 70) changes one line.
    @Test func oneReplaceInAProjectWithPackagesChangesOneLine() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let configurations = [
            "packages.pbxproj": "A10000000000000000000081", "synchronized-70.pbxproj": "B10000000000000000000083",
        ]
        for (fixture, configuration) in configurations {
            let (file, original) = try copy(fixture, as: fixture, in: folder)
            let run = try Tool.run([
                "replace", "objects.\(configuration).buildSettings.SDKROOT", "-string", "macosx", file,
            ])
            #expect(run.status == 0, "\(run)")
            #expect(
                differingLines(original, try folder.read(fixture)) == [
                    "\t\t\t\tSDKROOT = iphoneos; -> \t\t\t\tSDKROOT = macosx;"
                ], "\(fixture)")
        }
    }
}
