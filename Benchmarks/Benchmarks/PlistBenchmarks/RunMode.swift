import Benchmark
import BenchmarkInputs
import Foundation

/// How long the suite runs: in full, or briefly for CI when `PLIST_BENCH_SHORT=1` is set.
///
/// Short mode keeps every input at its real size (ratios only hold on real sizes) and runs fewer
/// iterations, with no warm-up for the large inputs.
struct RunMode {
    let isShort: Bool

    static let current = RunMode(isShort: ProcessInfo.processInfo.environment["PLIST_BENCH_SHORT"] == "1")

    func configuration(for file: InputFile) -> Benchmark.Configuration {
        let isSmall = file == .smallInfo
        return .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            warmupIterations: isSmall ? 10 : (isShort ? 0 : 1),
            maxDuration: .seconds(isShort ? 2 : 3),
            maxIterations: isSmall ? (isShort ? 500 : 10_000) : (isShort ? 5 : 100)
        )
    }
}
