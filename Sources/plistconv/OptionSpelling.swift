import ArgumentParser

/// The spellings of the options that both command-line parsers read: `QuickCommandLine` matches
/// words against them, and `Convert` and `Lint` take their ArgumentParser names from them, so a
/// spelling is written once. (`QuickCommandLineTests` checks that the two parsers agree.)
struct OptionSpelling: Sendable {
    /// The one-letter name (`-f`), if any.
    let short: Character?
    /// The long name without its dashes (`format` for `--format`), if any.
    let long: String?

    static let format = Self(short: "f", long: "format")
    static let output = Self(short: "o", long: "output")
    static let `extension` = Self(short: "e", long: "extension")
    static let readable = Self(short: "r", long: "readable")
    static let stringify = Self(short: nil, long: "stringify")
    static let stream = Self(short: nil, long: "stream")
    static let silent = Self(short: "s", long: nil)
    static let quick = Self(short: nil, long: "quick")
    /// Hidden: `CommandSpelling` adds it when the command word was left out.
    static let inputOutput = Self(short: nil, long: "input-output")
    /// Hidden: `CommandSpelling` adds it for libplist's `plistutil -i` spelling.
    static let libplist = Self(short: nil, long: "libplist")

    /// The names ArgumentParser declares.
    var names: NameSpecification {
        var names: [NameSpecification.Element] = []
        if let short { names.append(.customShort(short)) }
        if let long { names.append(.customLong(long)) }
        return NameSpecification(names)
    }

    /// Whether `word` is one of the spellings (`-f` or `--format`).
    func matches(_ word: String) -> Bool {
        if let short, word == "-\(short)" { return true }
        if let long, word == "--\(long)" { return true }
        return false
    }

    /// The spelling used in messages and to count repeats: the long one if there is one.
    var name: String { long.map { "--\($0)" } ?? "-\(short!)" }
}
