import Foundation
import PlistKit
import TestSupport
import Testing

/// `plistconv buddy` (and plistconv run as PlistBuddy) as a process: the CI recipes that call
/// PlistBuddy (version bumps, URL types, entitlements) give the files PlistBuddy's manual
/// describes, in the file's own format; messages, output and exit statuses are PlistBuddy's.
@Suite struct BuddyTests {
    private static let info: Plist = [
        "CFBundleIdentifier": "com.example.app", "CFBundleShortVersionString": "1.0", "CFBundleVersion": "41",
        "LSRequiresIPhoneOS": true,
    ]

    private func buddy(_ commands: [String], _ file: String, stdin: [UInt8]? = nil) throws -> Output {
        try Tool.run(["buddy"] + commands.flatMap { ["-c", $0] } + [file], stdin: stdin)
    }

    @Test func versionBumpKeepsABinaryFileBinary() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = try folder.write(try Self.info.binaryBytes(), to: "Info.plist")
        let run = try buddy(["Set :CFBundleVersion 42", "Set :CFBundleShortVersionString 1.2.3"], file)
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(run)")
        var expected = Self.info
        expected["CFBundleVersion"] = "42"
        expected["CFBundleShortVersionString"] = "1.2.3"
        #expect(try folder.read("Info.plist") == expected.binaryBytes())
        let printed = try buddy(["Print :CFBundleVersion"], file)
        #expect(printed.status == 0 && printed.stdoutText == "42\n", "\(printed)")
    }

    @Test func addingURLTypesToAnXMLFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = try folder.write(try Self.info.xmlBytes(), to: "Info.plist")
        let run = try buddy(
            [
                "Add :CFBundleURLTypes array", "Add :CFBundleURLTypes:0 dict",
                "Add :CFBundleURLTypes:0:CFBundleURLName string com.example.app",
                "Add :CFBundleURLTypes:0:CFBundleURLSchemes array",
                "Add :CFBundleURLTypes:0:CFBundleURLSchemes:0 string myapp",
                "Add :CFBundleURLTypes:0:CFBundleURLSchemes: string 'my app'",
            ], file)
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(run)")
        var expected = Self.info
        expected["CFBundleURLTypes"] = [
            ["CFBundleURLName": "com.example.app", "CFBundleURLSchemes": ["myapp", "my app"]]
        ]
        #expect(try folder.read("Info.plist") == expected.xmlBytes())
        // Without the array first, PlistBuddy makes the missing containers dictionaries.
        let quirk = try buddy(["Add :CFBundleDocumentTypes:0:CFBundleTypeName string Text"], file)
        #expect(quirk.status == 0, "\(quirk)")
        #expect(try Plist(contentsOf: file)["CFBundleDocumentTypes"] == ["0": ["CFBundleTypeName": "Text"]])
    }

    @Test func editingEntitlements() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let entitlements: Plist = [
            "aps-environment": "development",
            "com.apple.developer.icloud-container-identifiers": ["iCloud.com.example"],
            "keychain-access-groups": ["$(AppIdentifierPrefix)com.example.app"],
        ]
        let file = try folder.write(try entitlements.xmlBytes(), to: "App.entitlements")
        let run = try buddy(
            [
                "Set :aps-environment production", "Delete :com.apple.developer.icloud-container-identifiers",
                "Add :com.apple.security.application-groups array",
                "Add :com.apple.security.application-groups:0 string group.com.example",
                "Add :keychain-access-groups:0 string \"$(AppIdentifierPrefix)com.example.shared\"",
                "Add :com.apple.developer.associated-domains array",
                "Add :com.apple.developer.associated-domains: string applinks:example.com",
            ], file)
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(run)")
        let expected: Plist = [
            "aps-environment": "production", "com.apple.developer.associated-domains": ["applinks:example.com"],
            "com.apple.security.application-groups": ["group.com.example"],
            "keychain-access-groups": [
                "$(AppIdentifierPrefix)com.example.shared", "$(AppIdentifierPrefix)com.example.app",
            ],
        ]
        #expect(try folder.read("App.entitlements") == expected.xmlBytes())
    }

    /// Each failure is PlistBuddy's message on standard error; the other commands still run,
    /// their changes are saved, and the exit status is 1.
    @Test func failuresAreReportedAndTheRestRuns() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = try folder.write(try Self.info.xmlBytes(), to: "Info.plist")
        let run = try buddy(
            [
                "Print :Missing", "Set :Missing 1", "Add :CFBundleVersion string 1", "Delete :Nope:0",
                "Set : 1", "Add :LSRequiresIPhoneOS:x string y", "Add :X colour red", "Set :CFBundleVersion 43",
                "Copy :Nope :Other", "Copy :CFBundleVersion :CFBundleIdentifier", "Frobnicate", "Add :Count integer 1x",
            ], file)
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(
            run.stderr == """
                Print: Entry, ":Missing", Does Not Exist
                Set: Entry, ":Missing", Does Not Exist
                Add: ":CFBundleVersion" Entry Already Exists
                Delete: Entry, ":Nope:0", Does Not Exist
                Set: Entry, ":", Does Not Exist
                Add: Can't Add Entry, ":LSRequiresIPhoneOS:x", to Parent
                Unrecognized Type: colour
                Copy: Entry, ":Nope", Does Not Exist
                Copy: ":CFBundleIdentifier" Entry Already Exists
                Unrecognized Command
                Unrecognized Integer Format

                """, "\(run)")
        #expect(try Plist(contentsOf: file)["CFBundleVersion"] == "43")
        let containers = try buddy(
            ["Set :CFBundleURLTypes x", "Add :CFBundleURLTypes array", "Set :CFBundleURLTypes x"], file)
        #expect(containers.status == 1 && containers.stderr.hasSuffix("Set: Cannot Perform Set On Containers\n"))
    }

    @Test func printShowsValuesAsPlistBuddyDoes() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let value: Plist = [
            "Name": "App", "Count": -3, "Ratio": 1.5, "On": false, "Blob": .data(Data("raw".utf8)),
            "When": .date(Date(timeIntervalSinceReferenceDate: 757_425_600)),
            "List": ["a", ["k": "v"], []], "Empty": [:],
        ]
        let file = try folder.write(try value.binaryBytes(), to: "value.plist")
        let out = folder.path("out")
        // Dates are printed in the local time zone.
        let status = try ChildProcess.run(
            "/usr/bin/env", ["TZ=UTC", try Tool.location.get().path, "buddy", "-c", "Print", file], stdout: out)
        #expect(status == 0)
        #expect(
            String(decoding: try folder.read("out"), as: UTF8.self) == """
                Dict {
                    Name = App
                    Count = -3
                    Ratio = 1.500000
                    On = false
                    Blob = raw
                    When = Wed Jan 01 12:00:00 UTC 2025
                    List = Array {
                        a
                        Dict {
                            k = v
                        }
                        Array {
                        }
                    }
                    Empty = Dict {
                    }
                }

                """)
        let xml = try buddy(["Print :List:1"], file)
        #expect(xml.stdoutText == "Dict {\n    k = v\n}\n", "\(xml)")
        let asXML = try Tool.run(["buddy", "-x", "-c", "Print :List:1", file])
        let inner: Plist = ["k": "v"]
        #expect(asXML.stdout == (try inner.xmlBytes()), "\(asXML)")
    }

    @Test func typedValuesAreReadAsPlistBuddyReadsThem() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = folder.path("new.plist")
        let run = try Tool.run([
            "buddy", "-c", "Add :On bool YES", "-c", "Add :Off bool nope", "-c", "Add :Hex integer 0x1F",
            "-c", "Add :Real real -2.5", "-c", "Add :Data data hello world", "-c",
            "Add :Date date 2025-01-01T12:00:00Z",
            "-c", "Add :Text string \"quoted \\\" text\"", file,
        ])
        #expect(run.status == 0 && run.stdoutText == "File Doesn't Exist, Will Create: \(file)\n", "\(run)")
        #expect(
            try Plist(contentsOf: file) == [
                "On": true, "Off": false, "Hex": 31, "Real": -2.5, "Data": .data(Data("hello world".utf8)),
                "Date": .date(Date(timeIntervalSinceReferenceDate: 757_425_600)), "Text": "quoted \" text",
            ])
        // A run that changes nothing creates nothing.
        let untouched = try Tool.run(["buddy", "-c", "Print", folder.path("other.plist")])
        #expect(untouched.status == 0 && !FileManager.default.fileExists(atPath: folder.path("other.plist")))
    }

    @Test func copyMergeImportClearAndRevert() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = try folder.write(try Self.info.binaryBytes(), to: "Info.plist")
        let extra: Plist = ["CFBundleVersion": "99", "NSCameraUsageDescription": "Photos"]
        let extraFile = try folder.write(try extra.xmlBytes(), to: "Extra.plist")
        let icon = try folder.write([0x89, 0x50, 0x4E, 0x47], to: "icon.png")
        // The folder's name has a space: file names are quoted, as PlistBuddy needs them.
        let run = try buddy(
            [
                "Copy :CFBundleVersion :Build:Number", "Merge '\(extraFile)'", "Add :List array",
                "Merge '\(extraFile)' :List",
                "Import :Icon '\(icon)'",
            ], file)
        #expect(run.status == 0 && run.stderr == "Duplicate Entry Was Skipped: CFBundleVersion\n", "\(run)")
        let value = try Plist(contentsOf: file)
        #expect(value["Build"] == ["Number": "41"] && value["CFBundleVersion"] == "41")
        #expect(value["NSCameraUsageDescription"] == "Photos" && value["List"] == [extra])
        #expect(value["Icon"] == .data(Data([0x89, 0x50, 0x4E, 0x47])))
        let cleared = try buddy(["Clear array", "Add :0 string x"], file)
        #expect(cleared.status == 0, "\(cleared)")
        #expect(try Plist(contentsOf: file) == ["x"])
        // Interactive: commands from standard input; Revert drops the changes, Save keeps them.
        let session = try Tool.run(
            ["buddy", file], stdin: Array("Add :1 string y\nRevert\nPrint\nAdd :1 string z\nSave\nExit\n".utf8))
        #expect(
            session.stdoutText
                == "Command: Command: Reverting to last saved state...\nCommand: Array {\n    x\n}\nCommand: Command: Saving...\nCommand: ",
            "\(session)")
        #expect(try Plist(contentsOf: file) == ["x", "z"])
        #expect(try folder.read("Info.plist").starts(with: Array("bplist00".utf8)))
    }

    /// A link named PlistBuddy is PlistBuddy, with its usage and help.
    /// Dates no calendar holds are printed as numbers, years past `Int32` refused as a date
    /// format PlistBuddy does not read: never a crash. Keys spelled differently stay apart.
    @Test func hostileDatesAndKeySpellings() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let value: Plist = [
            "far": .date(Date(timeIntervalSinceReferenceDate: 1e300)),
            "nan": .date(Date(timeIntervalSinceReferenceDate: .nan)), "e\u{301}": 1, "\u{E9}": 2,
        ]
        let file = try folder.write(try value.binaryBytes(), to: "d.plist")
        let printed = try buddy(["Print"], file)
        #expect(printed.status == 0 && printed.stdoutText.contains("far"), "\(printed)")
        let year = try buddy(["Add :d date 'Mon Jan 13 12:00:00 UTC -2147483648'"], file)
        #expect(year.status != 0 && (year.stdoutText + year.stderr).contains("Unrecognized Date Format"), "\(year)")
        #expect(try buddy(["Print :e\u{301}"], file).stdoutText == "1\n")
        #expect(try buddy(["Print :\u{E9}"], file).stdoutText == "2\n")
        #expect(try buddy(["Delete :\u{E9}"], file).status == 0)
        #expect(try Plist(bytes: try folder.read("d.plist"))["e\u{301}"] == 1)
    }

    @Test func runsUnderTheNamePlistBuddy() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("PlistBuddy"), withDestinationPath: try Tool.location.get().path)
        let file = try folder.write(try Self.info.xmlBytes(), to: "Info.plist")
        let status = try ChildProcess.run(
            folder.path("PlistBuddy"), ["-c", "Set :CFBundleVersion 50", "-c", "Print :CFBundleVersion", file],
            stdout: folder.path("out"))
        #expect(status == 0)
        #expect(try folder.read("out") == Array("50\n".utf8))
        let usage = try ChildProcess.run(folder.path("PlistBuddy"), [], stdout: folder.path("usage"))
        #expect(usage == 1)
        #expect(try folder.read("usage").starts(with: Array("Usage: PlistBuddy [-cxh] <file.plist>\n".utf8)))
        // -l: a link is not followed.
        try FileManager.default.createSymbolicLink(atPath: folder.path("Link.plist"), withDestinationPath: file)
        let unfollowed = try Tool.run(["buddy", "-l", "-c", "Print", folder.path("Link.plist")])
        #expect(unfollowed.status == 1 && unfollowed.stderr == "Error Reading File: \(folder.path("Link.plist"))\n")
        let help = try Tool.run(["buddy", "-h"])
        #expect(help.status == 0 && help.stdoutText.contains("Import <Entry> <file>"), "\(help)")
    }

    /// `::` is one empty key, as PlistBuddy reads it, in every command; `:Key::` is the empty
    /// key in `Key`.
    @Test func doubleColonIsOneEmptyKey() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = try folder.write(try Plist.dictionary([:]).xmlBytes(), to: "Empty.plist")
        let run = try buddy(["Add :: dict", "Add :Key dict", "Add :Key:: integer 3"], file)
        #expect(run.status == 0, "\(run)")
        #expect(try Plist(bytes: try folder.read("Empty.plist")) == ["": [:], "Key": ["": 3]])
        let printed = try buddy(["Print :Key::", "Set :Key:: 4", "Print :Key::", "Delete ::", "Print ::"], file)
        #expect(printed.status == 1, "\(printed)")
        #expect(printed.stdoutText == "3\n4\n", "\(printed)")
        #expect(printed.stderr == "Print: Entry, \"::\", Does Not Exist\n", "\(printed)")
        #expect(try Plist(bytes: try folder.read("Empty.plist")) == ["Key": ["": 4]])
    }

    /// An Xcode project stays in Xcode's layout; a `.strings` file stays one.
    @Test func filesKeepTheirFormat() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            atPath: folder.path("Testproject.xcodeproj"), withIntermediateDirectories: false)
        var project = try TestProject.value()
        let file = try folder.write(try TestProject.bytes(project), to: "Testproject.xcodeproj/project.pbxproj")
        let setting = ":objects:65541AB716D13B8C00A968D5:buildSettings:PRODUCT_NAME"
        let run = try buddy(["Set \(setting) Renamed"], file)
        #expect(run.status == 0, "\(run)")
        try project.replace("Renamed", at: PlistKeyPath(components: BuddyPath.components(setting)))
        #expect(try folder.read("Testproject.xcodeproj/project.pbxproj") == TestProject.bytes(project))
        let strings = try folder.write(Array("\"title\" = \"Hello\";\n".utf8), to: "Localizable.strings")
        #expect(try buddy(["Add :button string OK"], strings).status == 0)
        #expect(try folder.read("Localizable.strings") == Array("\"title\" = \"Hello\";\n\"button\" = \"OK\";\n".utf8))
    }
}

/// An entry's components, for the expected values.
private enum BuddyPath {
    static func components(_ entry: String) -> [String] { entry.split(separator: ":").map(String.init) }
}
