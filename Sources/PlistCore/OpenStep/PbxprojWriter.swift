/// Writes an Xcode project (`project.pbxproj`) the way Xcode does: the `// !$*UTF8*$!` line,
/// `objects` in `/* Begin <isa> section */` blocks (sections by isa, objects by ID, both sorted),
/// `isa` first and the other keys sorted in each object, `PBXBuildFile` and `PBXFileReference`
/// objects on one line, and `/* name */` comments after the IDs of objects (a file's name or
/// path, `<file> in <phase>` for build files, `Build configuration list for <isa> "<name>"`...).
/// Strings are quoted unless they are made of `[A-Za-z0-9_$/:.]` only (Xcode quotes `-` too).
enum PbxprojWriter {
    static func write(_ value: Plist, projectName: String, options: PlistWriteOptions) throws(PlistError) -> [UInt8] {
        guard case .dictionary(let top) = value, case .dictionary(let objects)? = top["objects"] else {
            throw PlistError(
                .unrepresentable(keyPath: "objects", type: value.typeName, format: "an Xcode project"), at: 0)
        }
        var writer = ProjectWriter(
            objects: objects, projectName: projectName,
            out: try TextOutput(for: value, indentation: 0, options: options))
        writer.out += "// !$*UTF8*$!\n{\n"
        for (key, entry) in top {
            try writer.out.reserve(key.utf8.count + 4)
            writer.out += "\t" + ProjectWriter.quoted(key) + " = "
            if key == "objects" {
                try writer.objectSections()
            } else {
                try writer.value(entry, depth: 1)
            }
            writer.out += ";\n"
        }
        writer.out += "}\n"
        return writer.out.bytes
    }
}

private struct ProjectWriter {
    let objects: PlistDictionary
    let projectName: String
    var out: TextOutput
    /// The build phase each build file is in, by the build file's ID.
    let phaseOfBuildFile: [ExactKey: String]
    /// The object that uses each configuration list, by the list's ID.
    let ownerOfConfigurationList: [ExactKey: String]

    init(objects: PlistDictionary, projectName: String, out: TextOutput) {
        self.objects = objects
        self.projectName = projectName
        self.out = out
        var phases: [ExactKey: String] = [:]
        var owners: [ExactKey: String] = [:]
        for (id, object) in objects {
            if case .array(let files)? = object["files"] {
                for case .string(let file) in files { phases[ExactKey(file)] = id }
            }
            if case .string(let list)? = object["buildConfigurationList"] { owners[ExactKey(list)] = id }
        }
        phaseOfBuildFile = phases
        ownerOfConfigurationList = owners
    }

    mutating func objectSections() throws(PlistError) {
        out += "{\n"
        var sections: [ExactKey: [String]] = [:]
        for (id, object) in objects { sections[ExactKey(object["isa"]?.string ?? ""), default: []].append(id) }
        for isa in sections.keys.map(\.string).sorted(by: KeyOrder.precedesInUTF16) {
            out += "\n/* Begin \(isa) section */\n"
            for id in sections[ExactKey(isa)]!.sorted(by: KeyOrder.precedesInUTF16) {
                let object = objects[id]!
                try out.reserve(id.utf8.count + 8)
                out += "\t\t" + reference(id) + " = "
                if isa == "PBXBuildFile" || isa == "PBXFileReference", case .dictionary = object {
                    try singleLine(object, depth: 2)
                } else {
                    try value(object, depth: 2)
                }
                out += ";\n"
            }
            out += "/* End \(isa) section */\n"
        }
        out += "\t}"
    }

    /// `isa` first, then the other keys sorted.
    func ordered(_ entries: PlistDictionary) -> [(key: String, value: Plist)] {
        entries.sorted { a, b in
            if a.key == "isa" || b.key == "isa" { return a.key == "isa" && b.key != "isa" }
            return KeyOrder.precedesInUTF16(a.key, b.key)
        }
    }

    /// Writes `value`; object IDs get their comments when `annotates` (Xcode writes none in a
    /// project's `attributes`, nor for `remoteGlobalIDString`, an ID in another project).
    mutating func value(_ value: Plist, depth: Int, annotates: Bool = true) throws(PlistError) {
        try out.reserve(depth + Self.leastSize(of: value))
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .string(let string): out += annotates ? reference(string) : Self.quoted(string)
        case .array(let elements):
            try out.enter(depth: depth)
            out += "(\n"
            for element in elements {
                out += indent + "\t"
                try self.value(element, depth: depth + 1, annotates: annotates)
                out += ",\n"
            }
            out += indent + ")"
        case .dictionary(let entries):
            try out.enter(depth: depth)
            out += "{\n"
            for (key, entry) in ordered(entries) {
                try out.reserve(depth + 1 + key.utf8.count + 4)
                out += indent + "\t" + Self.quoted(key) + " = "
                let plain = !annotates || key == "attributes" || key == "remoteGlobalIDString"
                try self.value(entry, depth: depth + 1, annotates: !plain)
                out += ";\n"
            }
            out += indent + "}"
        default:
            throw PlistError(.unrepresentable(keyPath: "", type: value.typeName, format: "an Xcode project"), at: 0)
        }
    }

    /// Writes `value` on one line, as Xcode writes build files and file references; `depth`
    /// counts the containers around it.
    mutating func singleLine(_ value: Plist, depth: Int) throws(PlistError) {
        try out.reserve(Self.leastSize(of: value))
        switch value {
        case .array(let elements):
            try out.enter(depth: depth)
            out += "("
            for element in elements {
                try singleLine(element, depth: depth + 1)
                out += ", "
            }
            out += ")"
        case .dictionary(let entries):
            try out.enter(depth: depth)
            out += "{"
            for (key, entry) in ordered(entries) {
                try out.reserve(key.utf8.count + 5)
                out += Self.quoted(key) + " = "
                try singleLine(entry, depth: depth + 1)
                out += "; "
            }
            out += "}"
        case .string(let string): out += reference(string)
        default: break
        }
    }

    /// The fewest bytes `value` takes: its text or a bracket.
    static func leastSize(of value: Plist) -> Int {
        if case .string(let string) = value { string.utf8.count } else { 1 }
    }

    /// A string, with the `/* comment */` Xcode puts after the ID of an object that has one.
    func reference(_ string: String) -> String {
        guard objects[string] != nil, let comment = comment(for: string) else { return Self.quoted(string) }
        return string + " /* " + comment + " */"
    }

    /// The comment after `id`; `nested` when it goes inside a build file's comment, which then
    /// names no further build file (so that build files naming each other end).
    func comment(for id: String, nested: Bool = false) -> String? {
        guard let object = objects[id], let isa = object["isa"]?.string else { return nil }
        if nested, isa == "PBXBuildFile" { return nil }
        let name = object["name"]?.string
        switch isa {
        case "PBXProject": return "Project object"
        case "PBXBuildFile":
            let file = (object["fileRef"]?.string ?? object["productRef"]?.string).flatMap {
                comment(for: $0, nested: true)
            }
            let phase = phaseOfBuildFile[ExactKey(id)].flatMap { comment(for: $0, nested: true) }
            return "\(file ?? "(null)") in \(phase ?? "(null)")"
        case "XCConfigurationList":
            guard let owner = ownerOfConfigurationList[ExactKey(id)], let ownerObject = objects[owner] else {
                return nil
            }
            let ownerIsa = ownerObject["isa"]?.string ?? ""
            let ownerName = ownerIsa == "PBXProject" ? projectName : ownerObject["name"]?.string ?? ""
            return "Build configuration list for \(ownerIsa) \"\(ownerName)\""
        case "PBXSourcesBuildPhase": return name ?? "Sources"
        case "PBXFrameworksBuildPhase": return name ?? "Frameworks"
        case "PBXResourcesBuildPhase": return name ?? "Resources"
        case "PBXHeadersBuildPhase": return name ?? "Headers"
        case "PBXCopyFilesBuildPhase": return name ?? "CopyFiles"
        case "PBXShellScriptBuildPhase": return name ?? "ShellScript"
        case "PBXRezBuildPhase": return name ?? "Rez"
        case "PBXContainerItemProxy", "PBXTargetDependency": return isa
        case "XCSwiftPackageProductDependency": return object["productName"]?.string
        default: return name ?? object["path"]?.string
        }
    }

    /// A string as Xcode writes it: bare when made of `[A-Za-z0-9_$/:.]`, else quoted.
    static func quoted(_ string: String) -> String {
        let bare =
            !string.isEmpty
            && string.utf8.allSatisfy { byte in
                switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F, 0x24, 0x2F, 0x3A, 0x2E: true
                default: false
                }
            } && !string.contains("//") && !string.contains("/*")
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
