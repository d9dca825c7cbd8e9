/// What Xcode writes for each kind of object in a project, as data: which kinds go on one line
/// and which comment follows an object's ID wherever it appears. `PbxprojWriter` follows these
/// tables and nothing else; a kind missing here keeps the line and comment the original file
/// gave it (`PbxprojOriginal`).
enum PbxprojRules {
    /// How an object of a kind is laid out.
    enum Line {
        /// Over several lines, one entry per line.
        case multiple
        /// On one line, as Xcode writes build files and file references.
        case single
        /// On one line in projects whose `objectVersion` is below the number (Xcode 16 wrote
        /// synchronized folders on one line up to version 76, over several lines from 77).
        case singleBelow(Int)
    }

    /// The comment after an object's ID.
    enum Comment {
        /// Always this text.
        case text(String)
        /// The object's `isa`.
        case isa
        /// The `name`, else the text (build phases: `Sources`, `Frameworks`...).
        case name(else: String?)
        /// The `name`, else the `path` (files and groups).
        case nameOrPath
        /// A package product's `productName`, without the `plugin:` that names a build-tool
        /// plug-in (`plugin:SwiftLint` gives `SwiftLint`).
        case product
        /// `<file> in <phase>`: a build file.
        case buildFile
        /// `Build configuration list for <isa> "<name>"`.
        case configurationList
        /// `XCRemoteSwiftPackageReference "<name>"`, the name being the last component of
        /// `repositoryURL` without its extension (`GRDB.swift.git` gives `GRDB.swift`).
        case remotePackage
        /// `XCLocalSwiftPackageReference "<relativePath>"`.
        case localPackage
        /// A synchronized folder's exception set: its `isa` below `objectVersion` 77, from 77
        /// `Exceptions for "<folder>" folder in "<target>" target`, or with a `buildPhase`
        /// `Exceptions for "<folder>" folder in "<phase>" phase from "<target>" target`.
        case exceptionSet
    }

    struct Kind {
        let line: Line
        let comment: Comment
    }

    /// The kinds Xcode 9 to Xcode 26 write, by `isa`.
    static let kinds: [String: Kind] = [
        "PBXProject": Kind(line: .multiple, comment: .text("Project object")),
        "PBXBuildFile": Kind(line: .single, comment: .buildFile),
        "PBXFileReference": Kind(line: .single, comment: .nameOrPath),
        "PBXReferenceProxy": Kind(line: .multiple, comment: .nameOrPath),
        "PBXGroup": Kind(line: .multiple, comment: .nameOrPath),
        "PBXVariantGroup": Kind(line: .multiple, comment: .nameOrPath),
        "XCVersionGroup": Kind(line: .multiple, comment: .nameOrPath),
        "PBXFileSystemSynchronizedRootGroup": Kind(line: .singleBelow(77), comment: .nameOrPath),
        "PBXFileSystemSynchronizedBuildFileExceptionSet": Kind(line: .multiple, comment: .exceptionSet),
        "PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet": Kind(
            line: .multiple, comment: .exceptionSet),
        "PBXNativeTarget": Kind(line: .multiple, comment: .name(else: nil)),
        "PBXAggregateTarget": Kind(line: .multiple, comment: .name(else: nil)),
        "PBXLegacyTarget": Kind(line: .multiple, comment: .name(else: nil)),
        "XCBuildConfiguration": Kind(line: .multiple, comment: .name(else: nil)),
        "XCConfigurationList": Kind(line: .multiple, comment: .configurationList),
        "PBXSourcesBuildPhase": Kind(line: .multiple, comment: .name(else: "Sources")),
        "PBXFrameworksBuildPhase": Kind(line: .multiple, comment: .name(else: "Frameworks")),
        "PBXResourcesBuildPhase": Kind(line: .multiple, comment: .name(else: "Resources")),
        "PBXHeadersBuildPhase": Kind(line: .multiple, comment: .name(else: "Headers")),
        "PBXCopyFilesBuildPhase": Kind(line: .multiple, comment: .name(else: "CopyFiles")),
        "PBXShellScriptBuildPhase": Kind(line: .multiple, comment: .name(else: "ShellScript")),
        "PBXRezBuildPhase": Kind(line: .multiple, comment: .name(else: "Rez")),
        "PBXAppleScriptBuildPhase": Kind(line: .multiple, comment: .name(else: "AppleScript")),
        "PBXContainerItemProxy": Kind(line: .multiple, comment: .isa),
        "PBXTargetDependency": Kind(line: .multiple, comment: .isa),
        "PBXBuildRule": Kind(line: .multiple, comment: .isa),
        "XCSwiftPackageProductDependency": Kind(line: .multiple, comment: .product),
        "XCRemoteSwiftPackageReference": Kind(line: .multiple, comment: .remotePackage),
        "XCLocalSwiftPackageReference": Kind(line: .multiple, comment: .localPackage),
    ]

    /// Keys whose strings Xcode writes without comments, even when they are object IDs: a
    /// project's `attributes` (target IDs as keys and values) and `remoteGlobalIDString`, an
    /// ID in another project.
    static let plainKeys: Set<String> = ["attributes", "remoteGlobalIDString"]
}

/// What a project file as it was written says that the value does not: the comment after each
/// ID and the objects written on one line. The writer keeps these for kinds its rules do not
/// know, and takes the project's name from the configuration-list comment.
struct PbxprojOriginal {
    /// The first comment after each ID, by ID.
    private(set) var comments: [String: String] = [:]
    /// The IDs of objects written on one line.
    private(set) var singleLine: Set<String> = []
    /// The project's name, from the comment on its configuration list
    /// (`Build configuration list for PBXProject "App"`).
    private(set) var projectName: String?

    init() {}

    /// Reads `text`, a project file in UTF-8; text that is not a project gives nothing.
    init(_ text: [UInt8]) {
        var index = 0
        let count = text.count
        while index < count {
            let lineEnd = text[index...].firstIndex(of: 0x0A) ?? count
            scan(text[index..<lineEnd])
            index = lineEnd + 1
        }
    }

    /// Records the `ID /* comment */` pairs of one line, and whether it defines an object on one
    /// line (`\t\tID /* comment */ = {isa = ...`).
    private mutating func scan(_ line: ArraySlice<UInt8>) {
        var position = line.startIndex
        while let open = Self.find([0x20, 0x2F, 0x2A, 0x20], in: line, from: position) {  // " /* "
            var start = open
            while start > line.startIndex, PbxprojText.isBare(line[start - 1]) { start -= 1 }
            guard let close = Self.find([0x20, 0x2A, 0x2F], in: line, from: open + 4) else { return }  // " */"
            if start < open {
                let id = String(decoding: line[start..<open], as: UTF8.self)
                let comment = String(decoding: line[(open + 4)..<close], as: UTF8.self)
                if comments[id] == nil { comments[id] = comment }
                let marker = "Build configuration list for PBXProject \""
                if projectName == nil, comment.hasPrefix(marker), comment.hasSuffix("\""), comment.count > marker.count
                {
                    projectName = String(comment.dropFirst(marker.count).dropLast())
                }
                if line[line.startIndex..<start].elementsEqual([0x09, 0x09]),
                    line[(close + 3)...].starts(with: " = {isa = ".utf8)
                {
                    singleLine.insert(id)
                }
            }
            position = close + 3
        }
        // An object written on one line without a comment: `\t\tID = {isa = ...`.
        guard line.starts(with: [0x09, 0x09]) else { return }
        var end = line.startIndex + 2
        while end < line.endIndex, PbxprojText.isBare(line[end]) { end += 1 }
        if end > line.startIndex + 2, line[end...].starts(with: " = {isa = ".utf8) {
            singleLine.insert(String(decoding: line[(line.startIndex + 2)..<end], as: UTF8.self))
        }
    }

    private static func find(_ pattern: [UInt8], in line: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard start < line.endIndex else { return nil }
        return line[start...].firstRange(of: pattern)?.lowerBound
    }
}

/// Strings as Xcode writes them in a project.
enum PbxprojText {
    /// A byte Xcode leaves unquoted: `[A-Za-z0-9_$/.]` (it quotes `:` and `-`).
    static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24, 0x2F, 0x2E: true
        default: false
        }
    }

    /// A string as Xcode writes it: bare when made of `[A-Za-z0-9_$/.]`, else quoted.
    static func quoted(_ string: String) -> String {
        let bare =
            !string.isEmpty && string.utf8.allSatisfy(isBare) && !string.contains("//") && !string.contains("/*")
        if bare { return string }
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": text += "\\\\"
            case "\"": text += "\\\""
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
