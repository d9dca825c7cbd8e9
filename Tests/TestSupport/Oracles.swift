public import Foundation
public import Testing

/// The external programs some tests compare this package with, and whether each is installed.
/// A test that needs one is marked with its trait below, so that it is skipped, with the reason
/// and how to install it, where the program is missing. `.ci/run` installs them all.
public enum Oracles {
    /// `python3` (for Python's `plistlib` and `json`).
    public static let python3 = find("python3")
    /// libplist's `plistutil` (Debian: `apt-get install libplist-utils`).
    public static let plistutil = find("plistutil")
    /// The Swift compiler, for the tests that compile generated Swift source.
    public static let swiftc = find("swiftc")
    /// The shared folder's `tools/plist_oracle.py` (CPython's plistlib with CoreFoundation's
    /// checks), when it and `python3` are there.
    public static let plistOracle: URL? = {
        let script = Paths.shared.appendingPathComponent("tools/plist_oracle.py")
        return python3 != nil && FileManager.default.fileExists(atPath: script.path) ? script : nil
    }()

    /// The executable `name` on the `PATH`, if any.
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs only where the shared corpus is (`PLIST_SHARED`, else `shared` beside the repository).
    public static var needsCorpus: Self {
        .enabled(if: Corpus.isAvailable, Comment(rawValue: Corpus.unavailableReason))
    }

    /// Runs only where `python3` is installed.
    public static var needsPython3: Self {
        .enabled(if: Oracles.python3 != nil, "needs python3 on the PATH (Debian: apt-get install python3)")
    }

    /// Runs only where the plistlib oracle can run: `python3` and the shared folder's tools.
    public static var needsPlistOracle: Self {
        .enabled(
            if: Oracles.plistOracle != nil,
            Comment(
                rawValue: "needs python3 and the shared folder's tools/plist_oracle.py: set PLIST_SHARED to the "
                    + "shared folder (none at \(Paths.shared.path))"))
    }

    /// Runs only where libplist's `plistutil` is installed.
    public static var needsPlistutil: Self {
        .enabled(if: Oracles.plistutil != nil, "needs libplist's plistutil (Debian: apt-get install libplist-utils)")
    }

    /// Runs only where the Swift compiler is on the `PATH`.
    public static var needsSwiftc: Self {
        .enabled(if: Oracles.swiftc != nil, "needs swiftc on the PATH")
    }
}
