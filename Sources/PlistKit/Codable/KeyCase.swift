/// Key conversions between Swift's `camelCase` and `snake_case`, as Foundation's JSON coders
/// do them.
enum KeyCase {
    /// `myURLValue` → `my_url_value`: an underscore before each word (an uppercase letter after
    /// a lowercase one, or the last uppercase letter of a run followed by a lowercase one),
    /// everything lowercased.
    static func snakeCase(fromCamelCase key: String) -> String {
        guard !key.isEmpty else { return key }
        let characters = Array(key)
        var result = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    result += "_"
                }
            }
            result += character.lowercased()
        }
        return result
    }

    /// `my_url_value` → `myUrlValue`: words after the first capitalized, underscores dropped;
    /// leading and trailing underscores kept.
    static func camelCase(fromSnakeCase key: String) -> String {
        guard key.contains("_") else { return key }
        let leading = key.prefix { $0 == "_" }
        let trailing = key.reversed().prefix { $0 == "_" }
        guard leading.count < key.count else { return key }
        let core = key.dropFirst(leading.count).dropLast(trailing.count)
        let words = core.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = words.first else { return key }
        if words.count == 1 { return String(leading) + first + String(trailing) }
        let joined =
            first.lowercased()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return String(leading) + joined + String(trailing)
    }
}
