import Foundation
import PlistKit
import TestSupport
import Testing

/// plistconv as git's merge driver and textconv, in a real repository made in a temporary
/// folder: two branches edit an XML Info.plist, a binary plist, a `.strings` file with comments
/// and an Xcode project; `git merge` merges them cleanly, each file in its own format and
/// layout. Then both branches change the same values: the merge stops, the XML file holds
/// conflict markers, and git keeps both sides.
@Suite(.enabled(if: Oracles.find("git") != nil, "needs git on the PATH (Debian: apt-get install git)"))
struct GitMergeTests {
    private static let info: Plist = [
        "CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
        "CFBundleURLTypes": [["CFBundleURLSchemes": ["app"]]], "UIRequiredDeviceCapabilities": ["armv7"],
    ]
    private static let settings: Plist = ["Server": "https://example.com", "Retries": 3, "Features": ["a": true]]
    private static let strings = """
        /* Title of the main screen. */
        "title" = "Hello";

        /* Label of the OK button. */
        "ok" = "OK";

        """

    /// A branch that adds Swift packages merges into one that changed a setting: the merged
    /// project is the file Xcode writes, package comments and all, and the merge is clean.
    @Test func packagesFromABranchMergeAsXcodeWritesThem() throws {
        let repository = try Repository()
        defer { repository.folder.remove() }
        let file = "Packages.xcodeproj/project.pbxproj"
        let base = try PackagesProject.withoutPackages()
        try repository.write(try PackagesProject.bytes(base), to: file)
        try repository.commit("base")
        try repository.git(["checkout", "-q", "-b", "packages"])
        let text = try PackagesProject.text()
        try repository.write(Array(text.utf8), to: file)
        try repository.commit("packages")
        try repository.git(["checkout", "-q", "main"])
        var ours = base
        try ours.replace("macosx", at: PackagesProject.sdk)
        try repository.write(try PackagesProject.bytes(ours), to: file)
        try repository.commit("macOS")
        let merge = try repository.git(["merge", "--no-edit", "packages"])
        #expect(merge.status == 0 && !merge.stderr.contains("plistconv"), "\(merge)")
        let expected = text.replacing("SDKROOT = iphoneos;", with: "SDKROOT = macosx;")
        #expect(String(decoding: try repository.read(file), as: UTF8.self) == expected)
    }

    @Test func branchesMergeByKeyPathAndConflictsKeepBothSides() throws {
        let repository = try Repository()
        defer { repository.folder.remove() }
        let project = try TestProject.value()
        try repository.write(try Self.info.xmlBytes(), to: "App/Info.plist")
        try repository.write(try Self.settings.binaryBytes(), to: "App/Settings.plist")
        try repository.write(Array(Self.strings.utf8), to: "App/en.lproj/Localizable.strings")
        try repository.write(try TestProject.bytes(project), to: "Testproject.xcodeproj/project.pbxproj")
        try repository.commit("base")

        // Their branch.
        try repository.git(["checkout", "-q", "-b", "feature"])
        var theirInfo = Self.info
        theirInfo["CFBundleShortVersionString"] = "1.1"
        theirInfo["NSCameraUsageDescription"] = "Scans codes"
        try theirInfo.replace(["app", "app-dev"], at: "CFBundleURLTypes.0.CFBundleURLSchemes")
        var theirSettings = Self.settings
        try theirSettings.insert(false, at: "Features.b")
        theirSettings["Timeout"] = 1.5
        let theirStrings = Self.strings + "\n/* Shown when offline. */\n\"offline\" = \"No connection\";\n"
        var theirProject = project
        try TestProject.theirEdits(&theirProject)
        try repository.write(try theirInfo.xmlBytes(), to: "App/Info.plist")
        try repository.write(try theirSettings.binaryBytes(), to: "App/Settings.plist")
        try repository.write(Array(theirStrings.utf8), to: "App/en.lproj/Localizable.strings")
        try repository.write(try TestProject.bytes(theirProject), to: "Testproject.xcodeproj/project.pbxproj")
        try repository.commit("theirs")

        // Our branch.
        try repository.git(["checkout", "-q", "main"])
        var ourInfo = Self.info
        ourInfo["CFBundleVersion"] = "2"
        try ourInfo.append("metal", toArrayAt: "UIRequiredDeviceCapabilities")
        var ourSettings = Self.settings
        ourSettings["Retries"] = 5
        let ourStrings =
            Self.strings.replacing("\"Hello\"", with: "\"Welcome\"")
            + "\n/* Title of the settings screen. */\n\"settings\" = \"Settings\";\n"
        var ourProject = project
        try TestProject.ourEdits(&ourProject)
        try repository.write(try ourInfo.xmlBytes(), to: "App/Info.plist")
        try repository.write(try ourSettings.binaryBytes(), to: "App/Settings.plist")
        try repository.write(Array(ourStrings.utf8), to: "App/en.lproj/Localizable.strings")
        try repository.write(try TestProject.bytes(ourProject), to: "Testproject.xcodeproj/project.pbxproj")
        try repository.commit("ours")

        let merge = try repository.git(["merge", "--no-edit", "feature"])
        #expect(merge.status == 0, "\(merge)")
        var info = ourInfo
        info["CFBundleShortVersionString"] = "1.1"
        info["NSCameraUsageDescription"] = "Scans codes"
        try info.replace(["app", "app-dev"], at: "CFBundleURLTypes.0.CFBundleURLSchemes")
        #expect(try repository.read("App/Info.plist") == info.xmlBytes())
        var settings = ourSettings
        try settings.insert(false, at: "Features.b")
        settings["Timeout"] = 1.5
        let settingsBytes = try repository.read("App/Settings.plist")
        #expect(settingsBytes.starts(with: Array("bplist00".utf8)))
        #expect(try Plist(bytes: settingsBytes) == settings)
        let strings = ourStrings + "\n/* Shown when offline. */\n\"offline\" = \"No connection\";\n"
        #expect(String(decoding: try repository.read("App/en.lproj/Localizable.strings"), as: UTF8.self) == strings)
        var expectedProject = ourProject
        try TestProject.theirEdits(&expectedProject)
        #expect(try repository.read("Testproject.xcodeproj/project.pbxproj") == TestProject.bytes(expectedProject))
        #expect(try repository.git(["status", "--porcelain"]).stdoutText == "")

        // textconv: the binary file's change shows as XML lines.
        let diff = try repository.git(["diff", "HEAD~1", "HEAD", "--", "App/Settings.plist"])
        #expect(diff.stdoutText.contains("+\t<key>Timeout</key>\n+\t<real>1.5</real>\n"), "\(diff)")

        // Both sides change the same values: in the XML, binary, .strings and project files.
        let setting = PlistKeyPath(components: ["objects", TestProject.project, "attributes", "ORGANIZATIONNAME"])
        try repository.git(["checkout", "-q", "-b", "other"])
        var otherInfo = info
        otherInfo["CFBundleVersion"] = "4"
        var otherSettings = settings
        otherSettings["Retries"] = 9
        var otherProject = expectedProject
        try otherProject.replace("Theirs Inc.", at: setting)
        try repository.write(try otherInfo.xmlBytes(), to: "App/Info.plist")
        let otherSettingsBytes = try otherSettings.binaryBytes()
        try repository.write(otherSettingsBytes, to: "App/Settings.plist")
        try repository.write(
            Array(strings.replacing("\"OK\"", with: "\"Okay\"").utf8), to: "App/en.lproj/Localizable.strings")
        try repository.write(try TestProject.bytes(otherProject), to: "Testproject.xcodeproj/project.pbxproj")
        try repository.commit("other")
        try repository.git(["checkout", "-q", "main"])
        var mainInfo = info
        mainInfo["CFBundleVersion"] = "3"
        var mainSettings = settings
        mainSettings["Retries"] = 7
        var mainProject = expectedProject
        try mainProject.replace("Ours Ltd.", at: setting)
        try repository.write(try mainInfo.xmlBytes(), to: "App/Info.plist")
        try repository.write(try mainSettings.binaryBytes(), to: "App/Settings.plist")
        try repository.write(
            Array(strings.replacing("\"OK\"", with: "\"Fine\"").utf8), to: "App/en.lproj/Localizable.strings")
        try repository.write(try TestProject.bytes(mainProject), to: "Testproject.xcodeproj/project.pbxproj")
        try repository.commit("main")
        let conflicted = try repository.git(["merge", "--no-edit", "other"])
        #expect(conflicted.status == 1, "\(conflicted)")
        #expect(
            conflicted.stderr.contains(#"conflict at CFBundleVersion: ours "3", theirs "4", base "2""#), "\(conflicted)"
        )
        #expect(conflicted.stderr.contains("conflict at Retries: ours 7, theirs 9, base 5"), "\(conflicted)")
        #expect(conflicted.stderr.contains(#"conflict at ok: ours "Fine", theirs "Okay", base "OK""#), "\(conflicted)")
        #expect(conflicted.stderr.contains("ORGANIZATIONNAME"), "\(conflicted)")
        // The text files hold both sides between markers, and nothing else changed.
        let stringsText = String(decoding: try repository.read("App/en.lproj/Localizable.strings"), as: UTF8.self)
        #expect(
            stringsText.contains("<<<<<<< ours") && stringsText.contains("\"Fine\"") && stringsText.contains("\"Okay\"")
        )
        #expect(stringsText.contains("\"offline\" = \"No connection\";"), "\(stringsText)")
        let projectText = String(decoding: try repository.read("Testproject.xcodeproj/project.pbxproj"), as: UTF8.self)
        #expect(
            projectText.contains("<<<<<<< ours") && projectText.contains("Ours Ltd.")
                && projectText.contains("Theirs Inc."))
        let marked = String(decoding: try mainInfo.xmlBytes(), as: UTF8.self).replacing(
            "\t<string>3</string>\n",
            with: "<<<<<<< ours\n\t<string>3</string>\n=======\n\t<string>4</string>\n>>>>>>> theirs\n")
        #expect(String(decoding: try repository.read("App/Info.plist"), as: UTF8.self) == marked)
        #expect(try Plist(bytes: try repository.read("App/Settings.plist")) == mainSettings)
        // Nothing is lost: git keeps their side.
        #expect(try repository.git(["show", ":3:App/Settings.plist"]).stdout == otherSettingsBytes)
    }
}

/// A git repository in a temporary folder whose configuration names plistconv as the merge
/// driver and textconv, as the README tells users to; git runs with no other configuration.
private struct Repository {
    let folder: TempFolder
    let root: String
    private let git: String

    init() throws {
        folder = try TempFolder()
        root = folder.path("repo")
        git = try #require(Oracles.find("git")).path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        let plistconv = try Tool.location.get().path
        try self.git(["init", "-q", "-b", "main"])
        for (key, value) in [
            ("user.name", "Test"), ("user.email", "test@example.com"), ("commit.gpgsign", "false"),
            ("merge.plist.name", "property lists by key path"),
            ("merge.plist.driver", "'\(plistconv)' merge %O %A %B -o %A"),
            ("diff.plist.textconv", "'\(plistconv)' diff --textconv"),
        ] {
            try self.git(["config", key, value])
        }
        try write(
            Array("*.plist merge=plist diff=plist\n*.strings merge=plist\n*.pbxproj merge=plist\n".utf8),
            to: ".gitattributes")
    }

    /// Runs git in the repository, with a clean environment; fails the test if it cannot start.
    @discardableResult
    func git(_ arguments: [String]) throws -> Output {
        let environment = [
            "PATH=" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME=" + folder.url.path,
            "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C",
        ]
        let status = try ChildProcess.run(
            "/usr/bin/env", ["-i"] + environment + [git] + arguments, in: root, stdout: folder.path("stdout"),
            stderr: folder.path("stderr"))
        return Output(
            status: status, stdout: try folder.read("stdout"),
            stderr: String(decoding: try folder.read("stderr"), as: UTF8.self))
    }

    func write(_ bytes: [UInt8], to relative: String) throws {
        let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func read(_ relative: String) throws -> [UInt8] { try Paths.bytes(URL(fileURLWithPath: root + "/" + relative)) }

    /// Commits everything, and fails the test if git does.
    func commit(_ message: String) throws {
        for arguments in [["add", "-A"], ["commit", "-q", "-m", message]] {
            let run = try git(arguments)
            #expect(run.status == 0, "git \(arguments): \(run)")
        }
    }
}
