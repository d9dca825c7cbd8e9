import PlistKit
import SystemPackage

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

/// macOS's PlistBuddy: `plistconv buddy [-c CMD]... [-x] FILE`, or plistconv run under the name
/// `PlistBuddy`. Its command line is PlistBuddy's (`-h` is its help, not ArgumentParser's), so
/// its route in `PlistConv.routes` hands it the arguments as they were given.
///
/// Decisions (docs/COMPATIBILITY.md, "PlistBuddy"): messages and exit statuses are PlistBuddy's
/// as its manual and its well-known output show them; with `-c`, every command runs, failures
/// are reported, and the file is saved at the end if anything changed; the file keeps its format.
enum Buddy {
    /// Runs PlistBuddy with `arguments` (without the program's name) and exits.
    static func main(_ arguments: [String]) -> Never {
        var commands: [String] = []
        var xml = false
        var followsLinks = true
        var file: String?
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "-c" where index + 1 < arguments.count:
                commands.append(arguments[index + 1])
                index += 1
            case "-x": xml = true
            case "-l": followsLinks = false
            case "-h":
                BuddyOutput.out(BuddyText.help)
                exit(EXIT_SUCCESS)
            case let argument where !argument.hasPrefix("-") && file == nil: file = argument
            default:
                BuddyOutput.out(BuddyText.usage)
                exit(EXIT_FAILURE)
            }
            index += 1
        }
        guard let file else {
            BuddyOutput.out(BuddyText.usage)
            exit(EXIT_FAILURE)
        }
        if !followsLinks, isLink(file) {
            BuddyOutput.error("Error Reading File: \(file)")
            exit(EXIT_FAILURE)
        }
        guard var session = BuddySession(path: file, xml: xml) else { exit(EXIT_FAILURE) }
        if commands.isEmpty {
            while true {
                BuddyOutput.out("Command: ")
                guard let line = readLine(strippingNewline: true), session.run(line) != .exit else { break }
            }
            exit(EXIT_SUCCESS)
        }
        var succeeded = true
        for command in commands {
            switch session.run(command) {
            case .succeeded: continue
            case .failed: succeeded = false
            case .exit: exit(succeeded ? EXIT_SUCCESS : EXIT_FAILURE)
            }
        }
        if session.isChanged, !session.save() { succeeded = false }
        exit(succeeded ? EXIT_SUCCESS : EXIT_FAILURE)
    }
}

/// Whether `path` is a symbolic link (which `-l` refuses to follow).
private func isLink(_ path: String) -> Bool {
    (try? FileIO.status(atPath: path, followsLink: false))?.kind == .symbolicLink
}

/// PlistBuddy's standard output and error, written at once (so that the two interleave in the
/// order they were written).
enum BuddyOutput {
    static func out(_ text: String) { out(Array(text.utf8)) }

    static func out(_ bytes: [UInt8]) { try? FileIO.write(bytes, to: .standardOutput) }

    /// A message on standard error, with a line feed.
    static func error(_ text: String) { Terminal.writeError(text + "\n") }
}

/// One PlistBuddy session: the file, its value as edited so far, and the commands.
struct BuddySession {
    enum Outcome { case succeeded, failed, exit }

    let path: String
    let xml: Bool
    private(set) var value: Plist = [:]
    /// The format the file is saved in: its own, XML for a new file.
    private var format: PlistFormat = .xml
    /// The file's text when it is OpenStep, whose layout a project keeps.
    private var original: [UInt8]?
    /// Whether `value` differs from what was last read or saved.
    private(set) var isChanged = false

    /// Reads the file (a missing file is a new, empty dictionary); nil, with the message, when
    /// it cannot be read.
    init?(path: String, xml: Bool) {
        self.path = path
        self.xml = xml
        guard revert() else { return nil }
    }

    /// Reads the file again, or starts a new dictionary when there is none.
    private mutating func revert() -> Bool {
        isChanged = false
        guard Terminal.exists(path) else {
            BuddyOutput.out("File Doesn't Exist, Will Create: \(path)\n")
            (value, format, original) = ([:], .xml, nil)
            return true
        }
        do throws(PlistError) {
            let document = try Terminal.read(path)
            (value, format, original) = (document.value, document.format, document.text)
            return true
        } catch {
            BuddyOutput.error(Self.readingError(path, error))
            return false
        }
    }

    /// Writes the value to the file in its format.
    mutating func save() -> Bool {
        do {
            let output = OutputFormat(format, file: path)
            try Terminal.output(try output.encode(value, file: path, original: original), to: path)
            isChanged = false
            return true
        } catch {
            Terminal.report(error, file: path)
            BuddyOutput.error("Cannot Write File")
            return false
        }
    }

    /// Runs one command line.
    mutating func run(_ line: String) -> Outcome {
        guard let words = BuddyText.words(line) else {
            BuddyOutput.error("Parse Error: Unclosed Quotes")
            return .failed
        }
        guard let verb = words.first else { return .succeeded }
        let arguments = Array(words.dropFirst())
        switch verb.lowercased() {
        case "help":
            BuddyOutput.out(BuddyText.help)
            return .succeeded
        case "exit", "quit", "bye": return .exit
        case "save":
            BuddyOutput.out("Saving...\n")
            return save() ? .succeeded : .failed
        case "revert":
            BuddyOutput.out("Reverting to last saved state...\n")
            return revert() ? .succeeded : .failed
        case "clear": return clear(arguments)
        case "print": return printEntry(arguments)
        case "set": return set(arguments)
        case "add": return add(arguments)
        case "copy": return copy(arguments)
        case "delete": return delete(arguments)
        case "merge": return merge(arguments)
        case "import": return importFile(arguments)
        default:
            BuddyOutput.error("Unrecognized Command")
            return .failed
        }
    }

    // MARK: Commands

    private mutating func clear(_ arguments: [String]) -> Outcome {
        let type = arguments.first ?? "dict"
        guard let kind = PlistType(buddyName: type) else {
            BuddyOutput.error("Unrecognized Type: \(type)")
            return .failed
        }
        value = kind.emptyValue
        isChanged = true
        return .succeeded
    }

    private func printEntry(_ arguments: [String]) -> Outcome {
        let entry = arguments.first ?? ""
        guard let found = try? value.value(at: BuddyEntry(entry).path) else {
            return fail("Print: Entry, \"\(entry)\", Does Not Exist")
        }
        if xml {
            guard let bytes = try? found.xmlBytes() else { return fail("Print: Cannot Print Entry, \"\(entry)\"") }
            BuddyOutput.out(bytes)
        } else {
            BuddyOutput.out(BuddyText.printed(found) + [0x0A])
        }
        return .succeeded
    }

    private mutating func set(_ arguments: [String]) -> Outcome {
        guard let entry = arguments.first else { return fail("Set: Missing Arguments") }
        let path = BuddyEntry(entry).path
        guard let old = try? value.value(at: path), !path.components.isEmpty else {
            return fail("Set: Entry, \"\(entry)\", Does Not Exist")
        }
        let kind = old.type
        guard kind.isSettable else { return fail("Set: Cannot Perform Set On Containers") }
        let text = arguments.dropFirst().joined(separator: " ")
        guard let new = parse(text, as: kind) else { return .failed }
        return change { (plist: inout Plist) throws(PlistError) in try plist.replace(new, at: path) }
    }

    private mutating func add(_ arguments: [String]) -> Outcome {
        guard arguments.count >= 2 else { return fail("Add: Missing Arguments") }
        let entry = arguments[0]
        guard let kind = PlistType(buddyName: arguments[1]) else { return fail("Unrecognized Type: \(arguments[1])") }
        guard let new = parse(arguments.dropFirst(2).joined(separator: " "), as: kind, orEmpty: arguments.count == 2)
        else { return .failed }
        return put(new, at: entry, command: "Add")
    }

    private mutating func copy(_ arguments: [String]) -> Outcome {
        guard arguments.count == 2 else { return fail("Copy: Missing Arguments") }
        guard let source = try? value.value(at: BuddyEntry(arguments[0]).path) else {
            return fail("Copy: Entry, \"\(arguments[0])\", Does Not Exist")
        }
        return put(source, at: arguments[1], command: "Copy")
    }

    private mutating func delete(_ arguments: [String]) -> Outcome {
        guard let entry = arguments.first else { return fail("Delete: Missing Arguments") }
        let path = BuddyEntry(entry).path
        guard !path.components.isEmpty, (try? value.value(at: path)) != nil else {
            return fail("Delete: Entry, \"\(entry)\", Does Not Exist")
        }
        return change { (plist: inout Plist) throws(PlistError) in try plist.remove(at: path) }
    }

    private mutating func merge(_ arguments: [String]) -> Outcome {
        guard let file = arguments.first else { return fail("Merge: Missing Arguments") }
        let source: Plist
        do throws(PlistError) { source = try Terminal.read(file).value } catch {
            return fail(Self.readingError(file, error))
        }
        let entry = arguments.dropFirst().joined(separator: " ")
        let path = BuddyEntry(entry).path
        guard let target = try? value.value(at: path) else { return fail("Merge: Entry, \"\(entry)\", Does Not Exist") }
        let merged: Plist
        switch (target, source) {
        case (.array(let elements), .array(let added)): merged = .array(elements + added)
        case (.array(let elements), _): merged = .array(elements + [source])
        case (.dictionary(var entries), .dictionary(let added)):
            for (key, addedValue) in added {
                if entries[key] != nil {
                    BuddyOutput.error("Duplicate Entry Was Skipped: \(key)")
                } else {
                    entries[key] = addedValue
                }
            }
            merged = .dictionary(entries)
        case (.dictionary, _): return fail("Merge: Can't Add \(source.type.buddyName ?? "array") Entries to dict")
        default: return fail("Merge: Specified Entry Must Be a Container")
        }
        return change { (plist: inout Plist) throws(PlistError) in try plist.replace(merged, at: path) }
    }

    private mutating func importFile(_ arguments: [String]) -> Outcome {
        guard arguments.count == 2 else { return fail("Import: Missing Arguments") }
        let bytes: [UInt8]
        do throws(PlistError) { bytes = try Terminal.bytes(of: arguments[1]) } catch {
            return fail(Self.readingError(arguments[1], error))
        }
        let data = Plist.data(.init(bytes))
        if (try? value.value(at: BuddyEntry(arguments[0]).path)) != nil {
            let path = BuddyEntry(arguments[0]).path
            return change { (plist: inout Plist) throws(PlistError) in try plist.replace(data, at: path) }
        }
        return put(data, at: arguments[0], command: "Import")
    }

    // MARK: Helpers

    /// Adds `new` at `entry`, which must not exist: dictionaries missing on the way are created,
    /// an index in an array inserts before it (an empty one, or one past the end, appends).
    private mutating func put(_ new: Plist, at entry: String, command: String) -> Outcome {
        let components = BuddyEntry(entry).path.components
        guard let last = components.last else { return fail("\(command): \"\(entry)\" Entry Already Exists") }
        var edited = value
        var parent = PlistKeyPath(components: [])
        for component in components.dropLast() {
            let next = PlistKeyPath(components: parent.components + [component])
            if (try? edited.value(at: next)) == nil {
                guard case .dictionary? = try? edited.value(at: parent) else {
                    return fail("\(command): Entry, \"\(entry)\", Does Not Exist")
                }
                try? edited.insert([:], at: next)
            }
            parent = next
        }
        switch try? edited.value(at: parent) {
        case .dictionary(let entries)?:
            guard entries[last] == nil else { return fail("\(command): \"\(entry)\" Entry Already Exists") }
        case .array(let elements)?:
            guard last.isEmpty || BuddyEntry.index(last) != nil else {
                return fail("\(command): Entry, \"\(entry)\", Does Not Exist")
            }
            let index = min(BuddyEntry.index(last) ?? elements.count, elements.count)
            try? edited.insert(new, at: PlistKeyPath(components: parent.components + [String(index)]))
            value = edited
            isChanged = true
            return .succeeded
        default:
            return fail("\(command): Can't Add Entry, \"\(entry)\", to Parent")
        }
        try? edited.insert(new, at: PlistKeyPath(components: parent.components + [last]))
        value = edited
        isChanged = true
        return .succeeded
    }

    /// Applies `edit` to the value.
    private mutating func change(_ edit: (inout Plist) throws(PlistError) -> Void) -> Outcome {
        do {
            try edit(&value)
            isChanged = true
            return .succeeded
        } catch {
            return fail(error.message)
        }
    }

    /// `text` as a value of `kind`; nil, with PlistBuddy's message, when it is not one. With
    /// `orEmpty` (Add without a value) an empty value of the kind.
    private func parse(_ text: String, as kind: PlistType, orEmpty: Bool = false) -> Plist? {
        if orEmpty { return kind.emptyValue }
        if let value = kind.value(text) { return value }
        BuddyOutput.error("Unrecognized \(kind.formatName) Format")
        return nil
    }

    /// PlistBuddy's line for a file it cannot read, with the reason after it, on one line.
    private static func readingError(_ path: String, _ error: PlistError) -> String {
        "Error Reading File: \(path): \(Terminal.describing(error))".escapingControlCharacters
    }

    private func fail(_ message: String) -> Outcome {
        BuddyOutput.error(message.escapingControlCharacters)
        return .failed
    }
}
