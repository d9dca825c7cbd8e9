import Benchmark
import BenchmarkInputs
import Foundation

/// How long the suite runs: in full, or briefly for CI when `PLIST_BENCH_SHORT=1` is set.
///
/// Short mode keeps every input at its real size (ratios only hold on real sizes) and runs fewer
/// iterations. Every benchmark has a warm-up iteration, as in the full suite: without one, the
/// first (cold) iteration was one of the five the p50 is taken from, and a single stall of this
/// VM in another one moved the p50 (a Codable XML decoding at 210 ms against its usual 165 ms).
struct RunMode {
    let isShort: Bool

    static let current = RunMode(isShort: ProcessInfo.processInfo.environment["PLIST_BENCH_SHORT"] == "1")

    func configuration(for file: InputFile) -> Benchmark.Configuration {
        let isSmall = file == .smallInfo
        return .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            warmupIterations: isSmall ? 10 : 1,
            maxDuration: .seconds(isShort ? 2 : 3),
            maxIterations: isSmall ? (isShort ? 500 : 10_000) : (isShort ? 5 : 100)
        )
    }
}
