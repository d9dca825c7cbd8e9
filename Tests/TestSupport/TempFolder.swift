public import Foundation
import Testing

/// A fresh folder for one test, deleted by `remove()`. Its name holds a space, so that every path
/// the tests pass also checks that arguments are not split.
public struct TempFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("plistconv tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The names in the folder, hidden ones (such as temporary files) included, sorted.
    public func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() }

    @discardableResult
    public func write(_ bytes: [UInt8], to name: String, mode: Int = 0o644) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    public func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
    }

    public func mode(_ name: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path(name))
        return try #require(attributes[.posixPermissions] as? Int)
    }

    public func remove() {
        // Restore write access in case a test took it away, then delete everything.
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        try? FileManager.default.removeItem(at: url)
    }
}
