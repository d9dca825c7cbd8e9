import ArgumentParser
import OrderedCollections
import PlistKit
import PlistStore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `plistconv defaults`: macOS `defaults` over the PlistStore preferences store, through the
/// same locks as running apps.
struct Defaults: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "defaults", _superCommandName: PlistConv.name,
        abstract: "Read and write preferences domains, as macOS defaults does.",
        discussion: """
            defaults [--container DIR] read [DOMAIN [KEY]] | read-type DOMAIN KEY | \
            write DOMAIN KEY VALUE | write DOMAIN PLIST | delete DOMAIN [KEY] | \
            rename DOMAIN OLD NEW | domains | find WORD | export DOMAIN FILE|- | import DOMAIN FILE|-

            VALUE is a property list in XML, OpenStep or JSON text (any other word is a string), \
            or -string S, -int[eger] N, -float X, -bool[ean] YES|NO|true|false|1|0, -date DATE, \
            -data HEX, -array V..., -array-add V..., -dict K V..., -dict-add K V... \
            DOMAIN NSGlobalDomain (or -g) is the global domain.

            The domains live in DIR/Library/Preferences with --container DIR, else in the \
            folder $PLIST_CONTAINER_ROOT names, else in each domain's own XDG folder \
            ($XDG_CONFIG_HOME/DOMAIN). Exit status 1 when a domain or key does not exist or a \
            file cannot be read or written.
            """
    )

    @Option(help: ArgumentHelp("The container whose Library/Preferences holds the domains.", valueName: "dir"))
    var container: String?

    @Argument(parsing: .captureForPassthrough, help: "The verb and its arguments.")
    var words: [String] = []

    func run() throws {
        // A write past a file-size limit fails with an error instead of killing the process.
        signal(SIGXFSZ, SIG_IGN)
        let root = container ?? ProcessInfo.processInfo.environment[AppContainer.rootEnvironmentVariable].flatMap {
            $0.hasPrefix("/") ? $0 : nil
        }
        if ["--help", "-h", "help"].contains(words.first) { throw CleanExit.helpRequest(self) }
        guard let verb = words.first else { throw ValidationError("give a verb: read, write, delete, ... (see --help)") }
        let command = DefaultsCommand(root: root, arguments: Array(words.dropFirst()))
        do {
            try command.run(verb)
        } catch let error as DefaultsFailure {
            standardError("plistconv defaults: " + error.message)
            throw ExitCode.failure
        }
    }
}

/// A failure with the message `defaults` prints.
struct DefaultsFailure: Error {
    var message: String
}

/// One `defaults` command line, without the verb.
struct DefaultsCommand {
    var root: String?
    var arguments: [String]

    func run(_ verb: String) throws {
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

    private func read() throws {
        guard let name = arguments.first else {
            var all: OrderedDictionary<String, Plist> = [:]
            for name in try domainNames() { all[name] = .dictionary(try entries(of: name) ?? [:]) }
            return print(.dictionary(all))
        }
        guard let entries = try entries(of: name) else { throw DefaultsFailure(message: "Domain \(name) does not exist") }
        guard arguments.count > 1 else { return print(.dictionary(entries)) }
        guard let value = entries[arguments[1]] else {
            throw DefaultsFailure(message: "The domain/default pair of (\(name), \(arguments[1])) does not exist")
        }
        print(value)
    }

    private func readType() throws {
        try count(2, "read-type DOMAIN KEY")
        guard let value = try entries(of: arguments[0])?[arguments[1]] else {
            throw DefaultsFailure(message: "The domain/default pair of (\(arguments[0]), \(arguments[1])) does not exist")
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

    private func write() throws {
        guard arguments.count >= 2 else { throw ValidationError("usage: write DOMAIN KEY VALUE | write DOMAIN PLIST") }
        let name = arguments[0]
        if arguments.count == 2 {
            guard case .dictionary(let entries) = Preferences.parseValue(arguments[1]) else {
                throw DefaultsFailure(message: "Could not parse: \(arguments[1]). Try single-quoting it.")
            }
            let store = try store(for: name)
            try store.setPersistentDomain(entries, forName: domainName(name))
            return try store.synchronize()
        }
        let key = arguments[1]
        var rest = Array(arguments.dropFirst(2))
        let store = try store(for: name)
        let value: Plist
        switch rest.first {
        case "-array", "-array-add":
            let add = rest.removeFirst() == "-array-add"
            var elements = add ? store.plist(forKey: key)?.array ?? [] : []
            while !rest.isEmpty { elements.append(try Self.element(&rest)) }
            value = .array(elements)
        case "-dict", "-dict-add":
            let add = rest.removeFirst() == "-dict-add"
            var entries = add ? store.plist(forKey: key)?.dictionary ?? [:] : [:]
            while !rest.isEmpty {
                let entryKey = rest.removeFirst()
                guard !rest.isEmpty else { throw ValidationError("-dict needs a value after the key '\(entryKey)'") }
                entries[entryKey] = try Self.element(&rest)
            }
            value = .dictionary(entries)
        default:
            value = try Self.element(&rest)
            guard rest.isEmpty else { throw ValidationError("unexpected arguments: \(rest.joined(separator: " "))") }
        }
        store.set(value, forKey: key)
        try store.synchronize()
    }

    private func delete() throws {
        guard let name = arguments.first else { throw ValidationError("usage: delete DOMAIN [KEY]") }
        let store = try store(for: name)
        guard arguments.count > 1 else {
            guard try entries(of: name) != nil else { throw DefaultsFailure(message: "Domain (\(name)) not found.") }
            try store.removePersistentDomain(forName: domainName(name))
            return try store.synchronize()
        }
        guard store.plist(forKey: arguments[1]) != nil, try entries(of: name)?[arguments[1]] != nil else {
            throw DefaultsFailure(message: "Domain (\(name)) not found.\nDefaults have not been changed.")
        }
        store.removeObject(forKey: arguments[1])
        try store.synchronize()
    }

    private func rename() throws {
        try count(3, "rename DOMAIN OLD NEW")
        let store = try store(for: arguments[0])
        guard let value = try entries(of: arguments[0])?[arguments[1]] else {
            throw DefaultsFailure(message: "Key \(arguments[1]) does not exist in domain \(arguments[0]); leaving defaults unchanged")
        }
        store.set(value, forKey: arguments[2])
        store.removeObject(forKey: arguments[1])
        try store.synchronize()
    }

    private func domains() throws {
        Swift.print(try domainNames().filter { $0 != Preferences.globalDomain }.joined(separator: ", "))
    }

    private func find() throws {
        try count(1, "find WORD")
        let word = arguments[0].lowercased()
        for name in try domainNames() {
            let found = (try entries(of: name) ?? [:]).filter { key, value in
                key.lowercased().contains(word) || Self.contains(value, word)
            }
            guard !found.isEmpty else { continue }
            Swift.print("Found \(found.count) keys in domain '\(displayName(name))': ", terminator: "")
            print(.dictionary(found))
        }
    }

    private func export() throws {
        try count(2, "export DOMAIN FILE|-")
        guard let entries = try entries(of: arguments[0]) else {
            throw DefaultsFailure(message: "The domain \(arguments[0]) does not exist")
        }
        let path = arguments[1]
        do throws(PlistError) {
            let bytes = try Plist.dictionary(entries).bytes(format: path == "-" ? .xml : .binary)
            if path == "-" { try PlistFile.write(bytes, toFileDescriptor: 1) } else { try PlistFile.write(bytes, to: path) }
        } catch {
            throw DefaultsFailure(message: "\(path): \(error)")
        }
    }

    private func importDomain() throws {
        try count(2, "import DOMAIN FILE|-")
        let path = arguments[1]
        let value: Plist
        do throws(PlistError) {
            value = path == "-" ? try Plist.read(fileDescriptor: 0).value : try Plist(contentsOf: path)
        } catch {
            throw DefaultsFailure(message: "\(path): \(error)")
        }
        guard case .dictionary(let entries) = value else {
            throw DefaultsFailure(message: "\(path): the top level is not a dictionary")
        }
        let store = try store(for: arguments[0])
        try store.setPersistentDomain(entries, forName: domainName(arguments[0]))
        try store.synchronize()
    }

    // MARK: Store access

    /// `NSGlobalDomain`, `-g` and `-globalDomain` are the global domain.
    private func domainName(_ name: String) -> String {
        ["NSGlobalDomain", "-g", "-globalDomain"].contains(name) ? Preferences.globalDomain : name
    }

    private func displayName(_ name: String) -> String {
        name == Preferences.globalDomain ? "NSGlobalDomain" : name
    }

    /// The container of `name`: the root given, else the domain's XDG container.
    private func container(for name: String) throws -> AppContainer {
        if let root { return AppContainer(root: root) }
        guard domainName(name) != Preferences.globalDomain else {
            throw DefaultsFailure(message: "the global domain belongs to a container: give --container DIR or set \(AppContainer.rootEnvironmentVariable)")
        }
        return try AppContainer(appID: name)
    }

    private func store(for name: String) throws -> Preferences {
        let store = try Preferences(
            domain: domainName(name), container: container(for: name), arguments: [], flushDelay: nil,
            errorHandler: { error in standardError("plistconv defaults: \(error)") })
        return store
    }

    /// The entries of the domain `name` as they are on disk now, nil when it has no file.
    private func entries(of name: String) throws -> OrderedDictionary<String, Plist>? {
        try store(for: name).persistentDomain(forName: domainName(name))
    }

    /// The domains with a file: in the container, or (XDG) the app folders holding their own
    /// domain.
    private func domainNames() throws -> [String] {
        if root != nil { return try store(for: "_").persistentDomainNames() }
        let sample = try AppContainer(appID: "_").location(of: .preferences)
        let parent = String(sample.dropLast(2))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: parent + "/" + $0 + "/" + $0 + ".plist") }.sorted()
    }

    private func count(_ expected: Int, _ usage: String) throws {
        guard arguments.count == expected else { throw ValidationError("usage: \(usage)") }
    }

    /// One value of a `write`: a type flag and its text, or property-list text.
    private static func element(_ rest: inout [String]) throws -> Plist {
        let first = rest.removeFirst()
        let flags = ["-string", "-int", "-integer", "-float", "-bool", "-boolean", "-date", "-data"]
        guard flags.contains(first) else { return Preferences.parseValue(first) }
        guard !rest.isEmpty else { throw ValidationError("\(first) needs a value") }
        let text = rest.removeFirst()
        func invalid() -> ValidationError { ValidationError("'\(text)' is not a valid \(first.dropFirst()) value") }
        switch first {
        case "-string": return .string(text)
        case "-int", "-integer":
            if let value = Int64(text) { return .integer(PlistInteger(value)) }
            if let value = UInt64(text) { return .integer(PlistInteger(value)) }
            throw invalid()
        case "-float":
            guard let value = Double(text) else { throw invalid() }
            return .real(value)
        case "-bool", "-boolean":
            switch text.lowercased() {
            case "yes", "true", "1": return .bool(true)
            case "no", "false", "0": return .bool(false)
            default: throw invalid()
            }
        case "-date":
            guard !text.contains("<"), !text.contains("&"), let value = try? Plist(xml: Array("<date>\(text)</date>".utf8)) else {
                throw invalid()
            }
            return value
        default:
            var hex = text.filter { !$0.isWhitespace }
            if hex.hasPrefix("<"), hex.hasSuffix(">") { hex = String(hex.dropFirst().dropLast()) }
            guard hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else { throw invalid() }
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
        case .dictionary(let entries): entries.contains { $0.key.lowercased().contains(word) || contains($0.value, word) }
        default: false
        }
    }

    /// Prints `value` as macOS defaults does: strings and numbers bare, Booleans as 1 or 0,
    /// everything else in OpenStep text.
    private func print(_ value: Plist) {
        switch value {
        case .string(let text): Swift.print(text)
        case .integer(let number): Swift.print(number)
        case .real(let number): Swift.print(number)
        case .bool(let flag): Swift.print(flag ? 1 : 0)
        default:
            var options = PlistWriteOptions()
            options.openStepValues = .strings
            let text = (try? value.bytes(format: .openStep, options: options)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
            Swift.print(text.hasSuffix("\n") ? String(text.dropLast()) : text)
        }
    }
}

/// Writes `line` and a newline to standard error.
private func standardError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
