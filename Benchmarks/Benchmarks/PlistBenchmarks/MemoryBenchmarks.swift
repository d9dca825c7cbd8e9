import Benchmark
import BenchmarkInputs
import PlistKit

/// `PlistCore/tree-binary/<input>`: the bytes the tree read from the binary input holds
/// (`memoryLeakedBytes`: bytes allocated and not freed during the read, as the allocator was
/// asked for them). Each tree is kept until the benchmark ends, so that its bytes count. The
/// process's peak resident memory moves with what earlier benchmarks left in the allocator; this
/// count does not. `plistconv lint` under `/usr/bin/time` gives a whole read's peak
/// (docs/PERFORMANCE.md).
func memoryBenchmarks() {
    for file in InputFile.allCases {
        Benchmark(
            "PlistCore/tree-binary/\(file.rawValue)",
            configuration: .init(metrics: [.memoryLeakedBytes], warmupIterations: 0, maxIterations: 3)
        ) { benchmark, input in
            for _ in benchmark.scaledIterations {
                input.trees.kept.append(try BenchFormat.binary.decode(input.bytes))
            }
        } setup: {
            (bytes: file.fixture.encoded[.binary]!, trees: Trees())
        }
    }
}

/// The trees the memory benchmarks read, kept so that their bytes count as not freed.
private final class Trees {
    var kept: [Plist] = []

    init() { kept.reserveCapacity(8) }
}
