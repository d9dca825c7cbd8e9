/// A program made of one or more Swift blocks of a document (`Generated/`, from
/// `Scripts/doc-examples.py`).
struct DocExample: Sendable, CustomStringConvertible {
    /// The document, relative to the repository, and the line of the program's first code line.
    var file: String
    var line: Int
    /// Whether `DocExampleTests` runs it (a block fenced ```swift norun is only compiled).
    var runs: Bool
    var program: @Sendable () async throws -> Void

    var description: String { "\(file):\(line)" }
}
