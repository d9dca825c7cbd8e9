import PlistKit

/// The limits of what plistconv reads, set once for the whole command line: `--max-values N`
/// and `--max-depth N` may stand anywhere before `--`, with any command (PlistBuddy's and
/// `defaults`' command lines included), and every command reads every input with them through
/// `Terminal` (docs/COMPATIBILITY.md, "Read limits").
///
/// Decision: they are the tool's, not one command's, so that a limit error can name the option
/// that raises it whatever command reported it; `PlistConv.main` takes them out of the command
/// line before any parser sees it.
struct ReadLimits: Equatable {
    /// The most values a whole read holds in memory (`PlistReadOptions.maxObjects`), which also
    /// bounds the bytes it reads into memory (`PlistInput.limit(for:)`): 2^24 by default.
    var maxValues = PlistReadOptions().maxObjects
    /// The deepest nesting read (and, by `convert`, written): 512 by default.
    var maxDepth = PlistReadOptions().maxDepth

    static let valuesOption = "--max-values"
    static let depthOption = "--max-depth"

    /// The limits of this process's command line (valid: `PlistConv.main` checked them first).
    static let current = (try? parse(Array(CommandLine.arguments.dropFirst())))?.limits ?? ReadLimits()

    /// The limits given in `arguments`, and `arguments` without them.
    /// - Throws: a message when a value is missing or not a positive whole number.
    static func parse(_ arguments: [String]) throws(UsageError) -> (limits: ReadLimits, rest: [String]) {
        var limits = ReadLimits()
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                rest += arguments[index...]
                break
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let (name, attached) = (parts[0], parts.count > 1 ? parts[1] : nil)
            guard name == valuesOption || name == depthOption else {
                rest.append(word)
                index += 1
                continue
            }
            let text = attached ?? (index + 1 < arguments.count ? arguments[index + 1] : nil)
            guard let text, let value = Int(text), value > 0 else {
                throw UsageError(message: "\(name) takes a positive whole number")
            }
            if name == valuesOption { limits.maxValues = value } else { limits.maxDepth = value }
            index += attached == nil ? 2 : 1
        }
        return (limits, rest)
    }

    struct UsageError: Error {
        let message: String
    }

    /// The options of a whole read into memory: at most `maxValues` values and the content
    /// that an input of `size` bytes can hold (at least the library's 1 GiB).
    func inMemory(forInputOf size: Int) -> PlistReadOptions {
        let defaults = PlistReadOptions()
        return PlistReadOptions(
            maxDepth: maxDepth, maxObjects: maxValues, maxContentBytes: max(defaults.maxContentBytes, size))
    }

    /// The most bytes a whole read takes into memory, whatever the input's size: 1 GiB of
    /// content and 64 bytes for each value allowed (2 GiB by default). Larger inputs are
    /// refused by their size, before anything is allocated.
    var inMemoryInputLimit: Int { PlistInput.limit(for: PlistReadOptions(maxObjects: maxValues)) }

    /// The options of a read that holds no values (streaming, lazy, checking): the in-memory
    /// limits raised to the input's size, so that a large file is not refused for its size
    /// alone, only for describing more than it holds (shared references counted at each use).
    func withoutValues(forInputOf size: Int) -> PlistReadOptions {
        var options = inMemory(forInputOf: size)
        options.maxObjects = max(maxValues, size)
        return options
    }

    /// What a command-line user does to raise the limit that `error` reports, in place of the
    /// library's hint (which names `PlistReadOptions`' properties); nil for other errors.
    static func hint(for code: PlistError.Code) -> String? {
        switch code {
        case .tooDeep: "raise it with \(depthOption)"
        case .tooManyObjects, .inputTooLarge: "raise it with \(valuesOption)"
        case .tooMuchContent: "plistconv's limit is the input's size, and at least 1 GiB"
        default: nil
        }
    }
}
