public import Foundation

/// Where the repository, its `Fixtures/` and the shared corpus (`../shared/corpus`) are.
public enum Paths {
    /// The repository's top folder.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The package's bundled sample files.
    public static let fixtures = repository.appendingPathComponent("Fixtures")
    /// The shared real-world corpus beside the repository.
    public static let corpus = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The bytes of the file at `url`.
    public static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }
}
