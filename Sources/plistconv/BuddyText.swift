import PlistKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A PlistBuddy entry: key names and array indexes separated by colons, with or without the
/// leading colon (`:CFBundleURLTypes:0:CFBundleURLSchemes`). An empty entry, or `:`, is the
/// whole file; an empty last component names the end of an array (`Add :Items: string x`),
/// except after an empty key: `::` is one empty key, as PlistBuddy reads it, and `:Key::` the
/// empty key in `Key`.
struct BuddyEntry {
    let path: PlistKeyPath

    init(_ text: String) {
        let body = text.hasPrefix(":") ? text.dropFirst() : Substring(text)
        var components = body.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        if components.count >= 2, components.suffix(2).allSatisfy(\.isEmpty) { components.removeLast() }
        path = PlistKeyPath(components: body.isEmpty ? [] : components)
    }

    /// `component` as an array index: decimal digits only.
    static func index(_ component: String) -> Int? {
        guard !component.isEmpty, component.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(component)
    }
}

/// PlistBuddy's names for the types: string, array, dict, bool, real, integer, date, data.
extension PlistType {
    /// The type a command names (in any case), or nil (`uid` has no PlistBuddy name).
    init?(buddyName name: String) {
        guard let type = Self.allCases.first(where: { $0.buddyName == name.lowercased() }) else { return nil }
        self = type
    }

    /// PlistBuddy's name: plutil's, but `dict` and `real`; nil for `uid`.
    var buddyName: String? {
        switch self {
        case .dictionary: "dict"
        case .real: "real"
        case .uid: nil
        default: rawValue
        }
    }

    /// Whether `Set` can change a value of this type in place (not a container, nor a UID).
    var isSettable: Bool { self != .array && self != .dictionary && self != .uid }

    /// The word in "Unrecognized ... Format".
    var formatName: String {
        switch self {
        case .integer: "Integer"
        case .real: "Real"
        case .date: "Date"
        default: buddyName ?? rawValue
        }
    }

    /// What `Clear TYPE` leaves, and `Add ENTRY TYPE` adds without a value.
    var emptyValue: Plist {
        switch self {
        case .string: ""
        case .array: []
        case .dictionary: [:]
        case .bool: false
        case .real: 0.0
        case .integer: 0
        case .date: .date(Date())
        case .data: .data(Data())
        case .uid: .uid(0)
        }
    }

    /// `text` as a value of this type, as PlistBuddy reads it; nil when it is not one.
    /// Booleans are true for `true`, `yes` and `1` (in any case) and false otherwise; integers
    /// are decimal, or hexadecimal after `0x`; data is the text's bytes.
    func value(_ text: String) -> Plist? {
        switch self {
        case .string: return .string(text)
        case .array: return []
        case .dictionary: return [:]
        case .bool: return .bool(["true", "yes", "1"].contains(text.lowercased()))
        case .real: return Double(text).map(Plist.real)
        case .integer:
            let digits = text.lowercased()
            let negative = digits.hasPrefix("-")
            let unsigned = negative || digits.hasPrefix("+") ? String(digits.dropFirst()) : digits
            let magnitude = unsigned.hasPrefix("0x") ? UInt64(unsigned.dropFirst(2), radix: 16) : UInt64(unsigned)
            guard let magnitude else { return nil }
            if !negative { return .integer(PlistInteger(magnitude)) }
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return .integer(PlistInteger(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)))
        case .date: return BuddyDate.parse(text).map(Plist.date)
        case .data: return .data(Data(text.utf8))
        case .uid: return nil
        }
    }
}

/// Dates as PlistBuddy writes and reads them: `Mon Jan 13 12:00:00 UTC 2025`, in the local
/// time zone (`TZ`).
enum BuddyDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `date` as `%a %b %d %H:%M:%S %Z %Y` in local time.
    static func text(_ date: Date) -> String {
        // A date `time_t` cannot hold (NaN, infinite, beyond ±2^62 s) is printed as its number.
        guard let whole = Int64(exactly: date.timeIntervalSince1970.rounded(.down)), abs(whole) < 1 << 62 else {
            return "\(date.timeIntervalSinceReferenceDate)"
        }
        return Platform.localTime(whole, "%a %b %d %H:%M:%S %Z %Y") ?? date.description
    }

    /// A date written as PlistBuddy prints it (`Mon Jan 13 12:00:00 UTC 2025`, the zone
    /// before or after the year), as C's `%c` (`Mon Jan 13 12:00:00 2025`), as `%D`
    /// (`01/13/25`), or in ISO 8601 (`2025-01-13T12:00:00Z`). The time is local unless the zone
    /// is `UTC` or `GMT` (other zone names are read as local time, as PlistBuddy reads them).
    static func parse(_ text: String) -> Date? {
        if case .date(let date)? = Plist.date(xmlText: text) { return date }
        let words = text.split(separator: " ").map(String.init)
        var parts = Platform.CalendarFields()
        var utc = false
        if words.count == 1 {
            let numbers = words[0].split(separator: "/").compactMap { Int32($0) }
            guard numbers.count == 3, (1...12).contains(numbers[0]), (1...31).contains(numbers[1]) else { return nil }
            parts.month = numbers[0] - 1
            parts.day = numbers[1]
            parts.yearsSince1900 =
                numbers[2] < 69 ? numbers[2] + 100 : numbers[2] < 100 ? numbers[2] : numbers[2] - 1900
        } else {
            guard words.count == 5 || words.count == 6, weekdays.contains(words[0]),
                let month = months.firstIndex(of: words[1]), let day = Int32(words[2]), (1...31).contains(day)
            else { return nil }
            let clock = words[3].split(separator: ":").compactMap { Int32($0) }
            guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]),
                (0...60).contains(clock[2])
            else { return nil }
            var rest = Array(words.dropFirst(4))
            if rest.count == 2 {
                let zone = Int32(rest[0]) == nil ? rest.removeFirst() : rest.removeLast()
                utc = zone == "UTC" || zone == "GMT"
            }
            guard let year = Int32(rest[0]), year > Int32.min + 1900 else { return nil }
            (parts.month, parts.day, parts.yearsSince1900) = (Int32(month), day, year - 1900)
            (parts.hour, parts.minute, parts.second) = (clock[0], clock[1], clock[2])
        }
        return Date(timeIntervalSince1970: Double(Platform.seconds(of: parts, utc: utc)))
    }
}

/// PlistBuddy's command lines, help and printed values.
enum BuddyText {
    /// The words of a command line: split at spaces, `'...'` and `"..."` quote (inside double
    /// quotes, `\"` and `\\` are escapes), a backslash outside quotes takes the next character
    /// as it is. Nil when a quote is not closed.
    static func words(_ line: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if open == "\"", character == "\\" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                inWord = true
                if character == "\"" || character == "'" {
                    quote = character
                } else if character == "\\" {
                    escaped = true
                } else {
                    current.append(character)
                }
            }
        }
        guard quote == nil else { return nil }
        if escaped { current.append("\\") }
        if inWord { words.append(current) }
        return words
    }

    /// `value` as PlistBuddy's Print shows it (without the last line feed): `Dict {` and
    /// `Array {` blocks indented by four spaces, `key = value`, strings and data as they are,
    /// reals with six decimals, dates in local time.
    static func printed(_ value: Plist, indent: String = "") -> [UInt8] {
        let inner = indent + "    "
        switch value {
        case .dictionary(let entries):
            var text = Array("Dict {\n".utf8)
            for (key, element) in entries {
                text += Array((inner + key + " = ").utf8) + printed(element, indent: inner) + [0x0A]
            }
            return text + Array((indent + "}").utf8)
        case .array(let elements):
            var text = Array("Array {\n".utf8)
            for element in elements { text += Array(inner.utf8) + printed(element, indent: inner) + [0x0A] }
            return text + Array((indent + "}").utf8)
        case .string(let string): return Array(string.utf8)
        case .data(let data): return [UInt8](data)
        case .integer(let integer): return Array(integer.description.utf8)
        case .real(let real): return Array(sixDecimals(real).utf8)
        case .bool(let bool): return Array((bool ? "true" : "false").utf8)
        case .date(let date): return Array(BuddyDate.text(date).utf8)
        case .uid(let uid): return Array(String(uid).utf8)
        }
    }

    /// C's `%f`.
    private static func sixDecimals(_ real: Double) -> String { Platform.formatted(real, "%f") }

    static let usage = """
        Usage: PlistBuddy [-cxh] <file.plist>
            -c "<command>" execute command, otherwise run in interactive mode
            -x output will be in the form of an xml plist where appropriate
            -h print the complete help info, with command guide

        """

    static let help = """
        Commands (names in any case):
            Help                      this text
            Exit                      leave; changes are not saved
            Save                      write the changes to the file
            Revert                    read the file again, dropping the changes
            Clear [<Type>]            replace everything with an empty value of Type (dict)
            Print [<Entry>]           show the value at Entry, or the whole file
            Set <Entry> <Value>       change the value at Entry (not a container), keeping its type
            Add <Entry> <Type> [<Value>]
                                      add Entry; in an array, insert before the index given
                                      (an empty last component appends)
            Copy <EntrySrc> <EntryDst>
                                      copy the value at EntrySrc to the new EntryDst
            Delete <Entry>            remove Entry
            Merge <file> [<Entry>]    add the entries of file to the dictionary or array at Entry
            Import <Entry> <file>     set Entry to the bytes of file, as data

        Entries: key names and array indexes (from 0) separated by colons, such as
            :CFBundleShortVersionString
            :CFBundleURLTypes:0:CFBundleURLSchemes

        Types: string, array, dict, bool, real, integer, date, data

        With -c the commands run in order, each failure is reported, and the file is saved at
        the end if anything changed; the exit status is 1 if a command failed. Without -c,
        commands are read from standard input. The file keeps its format.

        """
}
