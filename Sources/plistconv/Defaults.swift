import ArgumentParser
import PlistKit
import PlistStore
import Synchronization
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `plistconv defaults`: macOS `defaults` over the PlistStore preferences store, through the
/// same locks as running apps.
struct Defaults: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "defaults",
        abstract: "Read and write preferences domains, as macOS defaults does.",
        discussion: """
            defaults [--container DIR] read [DOMAIN [KEY]] | read-type DOMAIN KEY | \
            write DOMAIN KEY VALUE | write DOMAIN PLIST | delete DOMAIN [KEY] | \
            rename DOMAIN OLD NEW | domains | find WORD | export DOMAIN FILE|- | import DOMAIN FILE|-

            VALUE is a property list in XML, OpenStep or JSON text (any other word is a string), \
            or -string S, -int[eger] N, -float X, -bool[ean] YES|NO|true|false|1|0, \
            -date 'YYYY-MM-DD HH:MM:SS +0000'|YYYY-MM-DDTHH:MM:SSZ, -data HEX, -array V..., \
            -array-add V..., -dict K V..., -dict-add K V...

            DOMAIN is a domain name, NSGlobalDomain (or -g) for the global domain, -app NAME for \
            the application whose desktop entry has that name or ID, or the path of a property \
            list file (with or without .plist; any word holding a /).

            The domains live in DIR/Library/Preferences with --container DIR (anywhere on the \
            line), else in the folder $PLIST_CONTAINER_ROOT names, else each in its own XDG \
            folder ($XDG_CONFIG_HOME/DOMAIN). -currentHost and -host are not supported. Exit \
            status 1, with one line per problem, when a domain or key does not exist, a value is \
            not valid, or a file cannot be read or written.
            """
    )

    /// Declared for the help only: `PlistConv.routes` hands `defaults`' command line to
    /// `run(_:)`, its own parser (`--container DIR` included), before ArgumentParser sees it.
    @Argument(
        parsing: .captureForPassthrough,
        help: """
            The verb and its arguments, and --container DIR anywhere: the container whose \
            Library/Preferences holds the domains.
            """)
    var words: [String] = []

    func run() throws {
        try Self.run(words)
    }

    /// Runs the command line `words` (after `defaults`), parsed here in time linear in their
    /// number: ArgumentParser takes time quadratic in the number of words it passes through,
    /// and `write KEY -array V...` may have tens of thousands.
    static func run(_ words: [String]) throws {
        var words = words
        let root =
            try Self.takeContainer(&words)
            ?? ProcessInfo.processInfo.environment[AppContainer.rootEnvironmentVariable].flatMap {
                $0.hasPrefix("/") ? $0 : nil
            }
        if ["--help", "-h", "help"].contains(words.first) { throw CleanExit.helpRequest(Self.self) }
        let output = DefaultsOutput()
        do {
            if let host = words.first, host == "-currentHost" || host == "-host" {
                throw DefaultsFailure(
                    message:
                        "\(host) is not supported: Linux has no per-host preferences (ByHost files), and no API of "
                        + "this package would read them; see docs/COMPATIBILITY.md")
            }
            guard let verb = words.first else {
                throw ValidationError("give a verb: read, write, delete, ... (see --help)")
            }
            var command = DefaultsCommand(root: root, arguments: Array(words.dropFirst()), output: output)
            try command.run(verb)
            output.flushErrors()
        } catch let error as DefaultsFailure {
            output.flushErrors(ending: error.message)
            throw ExitCode.failure
        } catch let error as PlistStoreError {
            output.flushErrors(ending: error.description)
            throw ExitCode.failure
        }
    }

    /// Takes `--container DIR` or `--container=DIR` out of `words`, wherever it is.
    static func takeContainer(_ words: inout [String]) throws -> String? {
        var found: String?
        var index = 0
        while index < words.count {
            if words[index] == "--container" {
                guard index + 1 < words.count else { throw ValidationError("--container needs a folder") }
                found = words[index + 1]
                words.removeSubrange(index...(index + 1))
            } else if words[index].hasPrefix("--container=") {
                found = String(words[index].dropFirst("--container=".count))
                words.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }
}

/// A failure with the message `defaults` prints, and exit status 1.
struct DefaultsFailure: Error {
    var message: String
}

/// Where the command's messages go: the errors the store reports while it works are kept and
/// printed once each, at the end, before the failure's own line (unless it is one of them).
final class DefaultsOutput: Sendable {
    private let errors = Mutex<[String]>([])

    var handler: @Sendable (PlistStoreError) -> Void {
        { [self] error in errors.withLock { $0.append(error.description) } }
    }

    func flushErrors(ending last: String? = nil) {
        var lines = errors.withLock { $0 }
        if let last { lines.append(last) }
        var printed: [String] = []
        for line in lines where !printed.contains(line) {
            printed.append(line)
            standardError(("plistconv defaults: " + line).escapingControlCharacters)
        }
    }
}

/// A domain named on the command line: where its file is, and how to name it in messages.
struct DefaultsDomain {
    /// The domain's name in the store (the global domain's is `.GlobalPreferences`).
    var name: String
    /// As `defaults` names it (`NSGlobalDomain`, or the path given).
    var display: String
    var container: AppContainer
}

/// One `defaults` command line, without the verb.
struct DefaultsCommand {
    var root: String?
    var arguments: [String]
    var output: DefaultsOutput

    mutating func run(_ verb: String) throws {
        switch verb {
        case "read": try read()
        case "read-type": try readType()
        case "write": try write()
        case "delete": try delete()
        case "rename": try rename()
        case "domains": try domains()
        case "find": try find()
        case "export": try export()
        case "import": try importDomain()
        default: throw ValidationError("unknown verb '\(verb)'")
        }
    }

    // MARK: Verbs

    private mutating func read() throws {
        guard !arguments.isEmpty else {
            var all: PlistDictionary = [:]
            for name in try domainNames() {
                all[displayName(name)] = .dictionary(try entries(of: domain(named: name)) ?? [:])
            }
            return print(.dictionary(all))
        }
        let domain = try takeDomain()
        guard let entries = try entries(of: domain) else {
            throw DefaultsFailure(message: "Domain \(domain.display) does not exist")
        }
        guard let key = arguments.first else { return print(.dictionary(entries)) }
        guard let value = entries[key] else {
            throw DefaultsFailure(message: "The domain/default pair of (\(domain.display), \(key)) does not exist")
        }
        print(value)
    }

    private mutating func readType() throws {
        let domain = try takeDomain()
        try count(1, "read-type DOMAIN KEY")
        guard let value = try entries(of: domain)?[arguments[0]] else {
            throw DefaultsFailure(
                message: "The domain/default pair of (\(domain.display), \(arguments[0])) does not exist")
        }
        let type =
            switch value {
            case .string: "string"
            case .integer: "integer"
            case .real: "float"
            case .bool: "boolean"
            case .date: "date"
            case .data: "data"
            case .array: "array"
            case .dictionary: "dictionary"
            case .uid: "uid"
            }
        Swift.print("Type is \(type)")
    }

    private mutating func write() throws {
        let domain = try takeDomain()
        guard !arguments.isEmpty else { throw ValidationError("usage: write DOMAIN KEY VALUE | write DOMAIN PLIST") }
        if arguments.count == 1 {
            guard case .dictionary(let entries) = Preferences.parseValue(arguments[0]) else {
                throw DefaultsFailure(message: "Could not parse: \(arguments[0]). Try single-quoting it.")
            }
            let store = try store(for: domain)
            return try store.setPersistentDomain(entries, forName: domain.name)
        }
        let key = arguments[0]
        // A slice: taking its first word is O(1), so lists of any length are read in linear time.
        var rest = arguments.dropFirst()
        let store = try store(for: domain)
        switch rest.first {
        case "-array-add":
            rest.removeFirst()
            var added: [Plist] = []
            while !rest.isEmpty { added.append(try Self.element(&rest)) }
            try store.update(key) { old throws(PlistStoreError) in
                guard let old else { return .array(added) }
                guard case .array(let elements) = old else {
                    throw PlistStoreError(
                        .invalidValue, "the value of '\(key)' has type \(old.typeName), not array: nothing was added",
                        path: domain.display)
                }
                return .array(elements + added)
            }
            return
        case "-dict-add":
            rest.removeFirst()
            let added = try Self.entries(&rest)
            try store.update(key) { old throws(PlistStoreError) in
                guard let old else { return .dictionary(added) }
                guard case .dictionary(var entries) = old else {
                    throw PlistStoreError(
                        .invalidValue,
                        "the value of '\(key)' has type \(old.typeName), not dictionary: nothing was added",
                        path: domain.display)
                }
                for (entryKey, value) in added { entries[entryKey] = value }
                return .dictionary(entries)
            }
            return
        case "-array":
            rest.removeFirst()
            var elements: [Plist] = []
            while !rest.isEmpty { elements.append(try Self.element(&rest)) }
            store.set(.array(elements), forKey: key)
        case "-dict":
            rest.removeFirst()
            store.set(.dictionary(try Self.entries(&rest)), forKey: key)
        default:
            let value = try Self.element(&rest)
            guard rest.isEmpty else { throw ValidationError("unexpected arguments: \(rest.joined(separator: " "))") }
            store.set(value, forKey: key)
        }
        try store.synchronize()
    }

    private mutating func delete() throws {
        let domain = try takeDomain()
        let store = try store(for: domain)
        guard let key = arguments.first else {
            guard try entries(of: domain) != nil else {
                throw DefaultsFailure(message: "Domain (\(domain.display)) not found.")
            }
            return try store.removePersistentDomain(forName: domain.name)
        }
        guard try entries(of: domain)?[key] != nil else {
            throw DefaultsFailure(message: "Domain (\(domain.display)) not found; defaults have not been changed.")
        }
        store.removeObject(forKey: key)
        try store.synchronize()
    }

    private mutating func rename() throws {
        let domain = try takeDomain()
        try count(2, "rename DOMAIN OLD NEW")
        let store = try store(for: domain)
        let (old, new) = (arguments[0], arguments[1])
        let missing = "Key \(old) does not exist in domain \(domain.display); leaving defaults unchanged"
        // Read and written under the domain's lock: no other writer's change to OLD is lost.
        try store.edit { entries throws(PlistStoreError) in
            guard let value = entries[old] else { throw PlistStoreError(.invalidValue, missing, path: domain.display) }
            entries[old] = nil
            entries[new] = value
        }
    }

    private func domains() throws {
        Swift.print(
            try domainNames().filter { $0 != Preferences.globalDomain }.joined(separator: ", ")
                .escapingControlCharacters)
    }

    private func find() throws {
        try count(1, "find WORD")
        let word = arguments[0].lowercased()
        for name in try domainNames() {
            let found = (try entries(of: domain(named: name)) ?? [:]).filter { key, value in
                key.lowercased().contains(word) || Self.contains(value, word)
            }
            guard !found.isEmpty else { continue }
            Swift.print("Found \(found.count) keys in domain '\(displayName(name))': ", terminator: "")
            print(.dictionary(found))
        }
    }

    private mutating func export() throws {
        let domain = try takeDomain()
        try count(1, "export DOMAIN FILE|-")
        guard let entries = try entries(of: domain) else {
            throw DefaultsFailure(message: "The domain \(domain.display) does not exist")
        }
        let path = arguments[0]
        do throws(PlistError) {
            try Terminal.output(try Plist.dictionary(entries).bytes(format: path == "-" ? .xml : .binary), to: path)
        } catch {
            throw DefaultsFailure(message: "\(path): \(Terminal.describing(error))")
        }
    }

    private mutating func importDomain() throws {
        let domain = try takeDomain()
        try count(1, "import DOMAIN FILE|-")
        let path = arguments[0]
        let value: Plist
        do throws(PlistError) {
            value = try Terminal.read(path).value
        } catch {
            throw DefaultsFailure(message: "\(path): \(Terminal.describing(error))")
        }
        guard case .dictionary(let entries) = value else {
            throw DefaultsFailure(message: "\(path): the top level is not a dictionary")
        }
        try store(for: domain).setPersistentDomain(entries, forName: domain.name)
    }

    // MARK: Domains

    /// Takes the domain (one word, or `-app NAME`) from the front of the arguments.
    private mutating func takeDomain() throws -> DefaultsDomain {
        guard let word = arguments.first else { throw ValidationError("give a domain") }
        arguments.removeFirst()
        if word == "-app" {
            guard let name = arguments.first else { throw ValidationError("-app needs an application's name") }
            arguments.removeFirst()
            return try domain(named: DesktopEntries.applicationID(named: name))
        }
        if word.contains("/") { return try fileDomain(word) }
        return try domain(
            named: ["NSGlobalDomain", "-g", "-globalDomain"].contains(word) ? Preferences.globalDomain : word)
    }

    /// The domain `name` in the container given, else in its XDG folder.
    private func domain(named name: String) throws -> DefaultsDomain {
        let container = try root.map { AppContainer(root: $0) } ?? AppContainer(appID: name)
        return DefaultsDomain(name: name, display: displayName(name), container: container)
    }

    /// The property-list file at `path` (`.plist` added when missing; `~/` is the home folder).
    private func fileDomain(_ path: String) throws -> DefaultsDomain {
        var full = path
        if full.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            full = home + full.dropFirst()
        }
        if !full.hasPrefix("/") { full = FileManager.default.currentDirectoryPath + "/" + full }
        if !full.hasSuffix(".plist") { full += ".plist" }
        let slash = full.lastIndex(of: "/")!
        let folder = slash == full.startIndex ? "/" : String(full[..<slash])
        let name = String(full[full.index(after: slash)...].dropLast(".plist".count))
        guard !name.isEmpty else { throw DefaultsFailure(message: "\(path): names no file") }
        return DefaultsDomain(name: name, display: path, container: AppContainer(preferencesFolder: folder))
    }

    private func displayName(_ name: String) -> String {
        name == Preferences.globalDomain ? "NSGlobalDomain" : name
    }

    private func store(for domain: DefaultsDomain) throws -> Preferences {
        try Preferences(
            domain: domain.name, container: domain.container, arguments: [], flushDelay: nil,
            errorHandler: output.handler)
    }

    /// The entries of `domain` as they are on disk, nil when it has no file. Changes nothing,
    /// even when the file is damaged.
    private func entries(of domain: DefaultsDomain) throws -> PlistDictionary? {
        try Preferences.entriesOnDisk(ofDomain: domain.name, in: domain.container)
    }

    /// The domains with a file.
    private func domainNames() throws -> [String] {
        try (root.map { AppContainer(root: $0) } ?? AppContainer(appID: "_")).domainNames()
    }

    private func count(_ expected: Int, _ usage: String) throws {
        guard arguments.count == expected else { throw ValidationError("usage: \(usage)") }
    }

    // MARK: Values

    /// The entries of a `-dict`: keys each followed by a value.
    private static func entries(_ rest: inout ArraySlice<String>) throws -> PlistDictionary {
        var entries: PlistDictionary = [:]
        while !rest.isEmpty {
            let entryKey = rest.removeFirst()
            guard !rest.isEmpty else {
                throw DefaultsFailure(message: "-dict needs a value after the key '\(entryKey)'")
            }
            entries[entryKey] = try element(&rest)
        }
        return entries
    }

    /// One value of a `write`: a type flag and its text, or property-list text.
    private static func element(_ rest: inout ArraySlice<String>) throws -> Plist {
        let first = rest.removeFirst()
        let flags = ["-string", "-int", "-integer", "-float", "-bool", "-boolean", "-date", "-data"]
        guard flags.contains(first) else { return Preferences.parseValue(first) }
        guard !rest.isEmpty else { throw DefaultsFailure(message: "\(first) needs a value") }
        let text = rest.removeFirst()
        func invalid(_ expected: String) -> DefaultsFailure {
            DefaultsFailure(message: "'\(text)' is not a valid \(first.dropFirst()) value (\(expected))")
        }
        switch first {
        case "-string": return .string(text)
        case "-int", "-integer":
            if let value = Int64(text) { return .integer(PlistInteger(value)) }
            if let value = UInt64(text) { return .integer(PlistInteger(value)) }
            throw invalid("a whole number")
        case "-float":
            guard let value = Double(text) else { throw invalid("a number") }
            return .real(value)
        case "-bool", "-boolean":
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: throw invalid("YES, NO, true, false, 1 or 0")
            }
        case "-date":
            guard let date = DefaultsText.date(text) else {
                throw invalid("'YYYY-MM-DD HH:MM:SS +0000', as read prints it, or ISO 8601, YYYY-MM-DDTHH:MM:SSZ")
            }
            return .date(date)
        default:
            var hex = text.filter { !$0.isWhitespace }
            if hex.hasPrefix("<"), hex.hasSuffix(">") { hex = String(hex.dropFirst().dropLast()) }
            guard hex.count % 2 == 0, hex.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
                throw invalid("pairs of hexadecimal digits")
            }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16)!)
                index = next
            }
            return .data(Data(bytes))
        }
    }

    private static func contains(_ value: Plist, _ word: String) -> Bool {
        switch value {
        case .string(let text): text.lowercased().contains(word)
        case .array(let elements): elements.contains { contains($0, word) }
        case .dictionary(let entries):
            entries.contains { $0.key.lowercased().contains(word) || contains($0.value, word) }
        default: false
        }
    }

    /// Prints `value` as macOS defaults does (``DefaultsText``).
    private func print(_ value: Plist) {
        Swift.print(DefaultsText.description(of: value))
    }
}

/// Finds applications by their XDG desktop entries (`-app NAME`), as macOS `defaults` finds
/// them by their bundles: the entry's file name without `.desktop` (its desktop file ID,
/// reverse-DNS by the specification's advice) is the domain.
enum DesktopEntries {
    /// The ID of the application whose desktop file ID or `Name=` (in any case) is `name`,
    /// looked for in `$XDG_DATA_HOME/applications`, then in each of `$XDG_DATA_DIRS`.
    static func applicationID(named name: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["HOME"] ?? ""
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        let wanted = name.lowercased()
        for folder in ([dataHome] + dataDirs).map({ $0 + "/applications" }) {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
                $0.hasSuffix(".desktop")
            }.sorted()
            for file in files {
                let id = String(file.dropLast(".desktop".count))
                if id.lowercased() == wanted { return id }
                guard let data = FileManager.default.contents(atPath: folder + "/" + file) else { continue }
                if entryName(String(decoding: data, as: UTF8.self))?.lowercased() == wanted { return id }
            }
        }
        throw DefaultsFailure(
            message:
                "Couldn't find an application named \"\(name)\" (no desktop entry has that name or ID); defaults unchanged"
        )
    }

    /// The `Name=` of a desktop entry's `[Desktop Entry]` group.
    static func entryName(_ text: String) -> String? {
        func trimmed(_ text: Substring) -> Substring {
            let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
            let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
            return text[start..<max(start, end)]
        }
        var inEntry = false
        for line in text.split(whereSeparator: \.isNewline).map(trimmed) {
            if line.hasPrefix("[") {
                inEntry = line == "[Desktop Entry]"
            } else if inEntry, let equals = line.firstIndex(of: "="), trimmed(line[..<equals]) == "Name" {
                return String(trimmed(line[line.index(after: equals)...]))
            }
        }
        return nil
    }
}

/// Writes `line` and a newline to standard error.
func standardError(_ line: String) {
    try? FileIO.write(Array((line + "\n").utf8), to: .standardError)
}
