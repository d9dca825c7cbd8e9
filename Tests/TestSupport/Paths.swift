public import Foundation

/// Where the repository, its `Fixtures/` and the shared folder (the corpus and the oracle
/// tools, `../shared` unless `PLIST_SHARED` names another) are.
public enum Paths {
    /// The repository's top folder.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The package's bundled sample files.
    public static let fixtures = repository.appendingPathComponent("Fixtures")
    /// The shared folder: the folder `PLIST_SHARED` names, else `shared` beside the repository.
    public static let shared =
        ProcessInfo.processInfo.environment["PLIST_SHARED"].map { URL(fileURLWithPath: $0) }
        ?? repository.deletingLastPathComponent().appendingPathComponent("shared")
    /// The shared real-world corpus.
    public static let corpus = shared.appendingPathComponent("corpus")

    /// The bytes of the file at `url`.
    public static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}
