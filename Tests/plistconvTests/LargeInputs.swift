import Foundation
import TestSupport
import Testing

/// The benchmarks' generator of large inputs (`Benchmarks/large-inputs.py`), scaled down.
enum LargeInputs {
    /// Writes a file of `records` records (`format` is `binary` or `xml`; `blob` nil for the
    /// generator's default size) to `path`; returns the generator's exit status.
    static func write(_ format: String, to path: String, records: Int, blob: Int? = nil, depth: Int) throws -> Int32 {
        let blobSize = blob.map { ["--blob", String($0)] } ?? []
        return try ChildProcess.run(
            try #require(Oracles.python3).path,
            [
                Paths.repository.appendingPathComponent("Benchmarks/large-inputs.py").path, format, path,
                "--records", String(records), "--depth", String(depth),
            ] + blobSize)
    }
}
