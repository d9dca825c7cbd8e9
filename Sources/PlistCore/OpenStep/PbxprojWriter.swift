/// Writes an Xcode project (`project.pbxproj`) the way Xcode does: the `// !$*UTF8*$!` line,
/// `objects` in `/* Begin <isa> section */` blocks (sections by isa, objects by ID, both sorted),
/// `isa` first and the other keys sorted in each object, and `/* name */` comments after the IDs
/// of objects. Which kinds go on one line and which comment each kind gets are the tables of
/// `PbxprojRules`; an object of a kind they do not know keeps the line and comment `original`
/// gave it. Strings are quoted unless they are made of `[A-Za-z0-9_$/.]` only.
enum PbxprojWriter {
    static func write(
        _ value: Plist, projectName: String, original: PbxprojOriginal, options: PlistWriteOptions
    ) throws(PlistError) -> [UInt8] {
        guard case .dictionary(let top) = value, case .dictionary(let objects)? = top["objects"] else {
            throw PlistError(
                .unrepresentable(keyPath: "objects", type: value.typeName, format: "an Xcode project"), at: 0)
        }
        var writer = ProjectWriter(
            objects: objects, top: top, projectName: projectName, original: original,
            out: try TextOutput(for: value, indentation: 0, options: options))
        writer.out += "// !$*UTF8*$!\n{\n"
        for (key, entry) in top {
            try writer.out.reserve(key.utf8.count + 4)
            writer.out += "\t" + PbxprojText.quoted(key) + " = "
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
    let original: PbxprojOriginal
    let objectVersion: Int
    var out: TextOutput
    /// The build phase each build file is in, by the build file's ID.
    let phaseOfBuildFile: [ExactKey: String]
    /// The objects that use each configuration list, by the list's ID.
    let ownersOfConfigurationList: [ExactKey: [String]]
    /// The synchronized folder of each exception set, by the set's ID.
    let folderOfExceptionSet: [ExactKey: String]
    /// The target of each build phase, by the phase's ID.
    let targetOfPhase: [ExactKey: String]

    init(
        objects: PlistDictionary, top: PlistDictionary, projectName: String, original: PbxprojOriginal,
        out: TextOutput
    ) {
        self.objects = objects
        self.projectName = projectName
        self.original = original
        self.out = out
        objectVersion = top["objectVersion"]?.string.flatMap { Int($0) } ?? 0
        var phases: [ExactKey: String] = [:]
        var owners: [ExactKey: [String]] = [:]
        var folders: [ExactKey: String] = [:]
        var targets: [ExactKey: String] = [:]
        for (id, object) in objects {
            if case .array(let files)? = object["files"] {
                for case .string(let file) in files { phases[ExactKey(file)] = id }
            }
            if case .array(let sets)? = object["exceptions"] {
                for case .string(let set) in sets { folders[ExactKey(set)] = id }
            }
            if case .array(let buildPhases)? = object["buildPhases"] {
                for case .string(let phase) in buildPhases { targets[ExactKey(phase)] = id }
            }
            if case .string(let list)? = object["buildConfigurationList"] {
                owners[ExactKey(list), default: []].append(id)
            }
        }
        phaseOfBuildFile = phases
        ownersOfConfigurationList = owners
        folderOfExceptionSet = folders
        targetOfPhase = targets
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
                if case .dictionary = object, writesOnOneLine(id, isa: isa) {
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

    /// Whether the object `id` goes on one line: as its kind's rule says, or for a kind the
    /// rules do not know, as it was in the original file.
    func writesOnOneLine(_ id: String, isa: String) -> Bool {
        switch PbxprojRules.kinds[isa]?.line {
        case .single: true
        case .multiple: false
        case .singleBelow(let version): objectVersion < version
        case nil: original.singleLine.contains(id)
        }
    }

    /// `isa` first, then the other keys sorted.
    func ordered(_ entries: PlistDictionary) -> [(key: String, value: Plist)] {
        entries.sorted { a, b in
            if a.key == "isa" || b.key == "isa" { return a.key == "isa" && b.key != "isa" }
            return KeyOrder.precedesInUTF16(a.key, b.key)
        }
    }

    /// Writes `value`; object IDs get their comments when `annotates` (not under
    /// `PbxprojRules.plainKeys`).
    mutating func value(_ value: Plist, depth: Int, annotates: Bool = true) throws(PlistError) {
        try out.reserve(depth + Self.leastSize(of: value))
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .string(let string): out += annotates ? reference(string) : PbxprojText.quoted(string)
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
                out += indent + "\t" + PbxprojText.quoted(key) + " = "
                try self.value(entry, depth: depth + 1, annotates: annotates && !PbxprojRules.plainKeys.contains(key))
                out += ";\n"
            }
            out += indent + "}"
        default:
            throw PlistError(.unrepresentable(keyPath: "", type: value.typeName, format: "an Xcode project"), at: 0)
        }
    }

    /// Writes `value` on one line, as Xcode writes build files and file references; `depth`
    /// counts the containers around it.
    mutating func singleLine(_ value: Plist, depth: Int, annotates: Bool = true) throws(PlistError) {
        try out.reserve(Self.leastSize(of: value))
        switch value {
        case .array(let elements):
            try out.enter(depth: depth)
            out += "("
            for element in elements {
                try singleLine(element, depth: depth + 1, annotates: annotates)
                out += ", "
            }
            out += ")"
        case .dictionary(let entries):
            try out.enter(depth: depth)
            out += "{"
            for (key, entry) in ordered(entries) {
                try out.reserve(key.utf8.count + 5)
                out += PbxprojText.quoted(key) + " = "
                try singleLine(entry, depth: depth + 1, annotates: annotates && !PbxprojRules.plainKeys.contains(key))
                out += "; "
            }
            out += "}"
        case .string(let string): out += annotates ? reference(string) : PbxprojText.quoted(string)
        default:
            throw PlistError(.unrepresentable(keyPath: "", type: value.typeName, format: "an Xcode project"), at: 0)
        }
    }

    /// The fewest bytes `value` takes: its text or a bracket.
    static func leastSize(of value: Plist) -> Int {
        if case .string(let string) = value { string.utf8.count } else { 1 }
    }

    /// A string, with the `/* comment */` Xcode puts after the ID of an object that has one.
    /// An ID no object has (a dangling reference) keeps the comment the original file gave it.
    func reference(_ string: String) -> String {
        let comment = objects[string] != nil ? comment(for: string) : original.comments[string]
        guard let comment else { return PbxprojText.quoted(string) }
        return PbxprojText.quoted(string) + " /* " + comment + " */"
    }

    /// The comment after `id`: its kind's rule, or for a kind the rules do not know, the comment
    /// the original file had (without one, the object's name or path). `nested` when it goes
    /// inside a build file's comment, which then names no further build file (so that build
    /// files naming each other end).
    func comment(for id: String, nested: Bool = false) -> String? {
        guard let object = objects[id], let isa = object["isa"]?.string else { return nil }
        let name = object["name"]?.string
        guard let rule = PbxprojRules.kinds[isa]?.comment else {
            return original.comments[id] ?? (original.comments.isEmpty ? name ?? object["path"]?.string : nil)
        }
        switch rule {
        case .text(let text): return text
        case .isa: return isa
        case .name(let fallback): return name ?? fallback
        case .nameOrPath: return name ?? object["path"]?.string
        case .product:
            guard let product = object["productName"]?.string else { return nil }
            return product.hasPrefix("plugin:") ? String(product.dropFirst("plugin:".count)) : product
        case .buildFile:
            if nested { return nil }
            let file = (object["fileRef"]?.string ?? object["productRef"]?.string).flatMap {
                comment(for: $0, nested: true)
            }
            let phase = phaseOfBuildFile[ExactKey(id)].flatMap { comment(for: $0, nested: true) }
            // A build file in no phase keeps the comment it had (Xcode names the phase it was in).
            if phase == nil, let kept = original.comments[id] { return kept }
            return "\(file ?? "(null)") in \(phase ?? "(null)")"
        case .configurationList:
            // A list several objects use (which Xcode never writes) keeps the comment it had.
            guard let owners = ownersOfConfigurationList[ExactKey(id)],
                let owner = owners.min(by: KeyOrder.precedesInUTF16),
                let ownerObject = objects[owner]
            else { return original.comments[id] }
            if owners.count > 1, let kept = original.comments[id] { return kept }
            let ownerIsa = ownerObject["isa"]?.string ?? ""
            let ownerName = ownerIsa == "PBXProject" ? projectName : ownerObject["name"]?.string ?? ""
            return "Build configuration list for \(ownerIsa) \"\(ownerName)\""
        case .remotePackage:
            guard let url = object["repositoryURL"]?.string else { return isa }
            let last = url.split(separator: "/").last.map(String.init) ?? url
            let stem = last.lastIndex(of: ".").map { String(last[..<$0]) } ?? last
            return "\(isa) \"\(stem.isEmpty ? last : stem)\""
        case .localPackage:
            return "\(isa) \"\(object["relativePath"]?.string ?? "")\""
        case .exceptionSet:
            guard objectVersion >= 77 else { return isa }
            let folder = folderOfExceptionSet[ExactKey(id)].flatMap { comment(for: $0, nested: true) } ?? ""
            if let phase = object["buildPhase"]?.string {
                let target = targetOfPhase[ExactKey(phase)].flatMap { comment(for: $0, nested: true) } ?? ""
                let phaseName = comment(for: phase, nested: true) ?? ""
                return "Exceptions for \"\(folder)\" folder in \"\(phaseName)\" phase from \"\(target)\" target"
            }
            let target = object["target"]?.string.flatMap { comment(for: $0, nested: true) } ?? ""
            return "Exceptions for \"\(folder)\" folder in \"\(target)\" target"
        }
    }
}
