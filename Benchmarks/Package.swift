// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "swift-plist-benchmarks",
    platforms: [.macOS("26.0")],
    dependencies: [
        .package(name: "swift-plist", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkInputs",
            dependencies: [
                .product(name: "PlistKit", package: "swift-plist")
            ],
            path: "Benchmarks/BenchmarkInputs",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "PlistBenchmarks",
            dependencies: [
                "BenchmarkInputs",
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "PlistKit", package: "swift-plist"),
                .product(name: "PlistStore", package: "swift-plist"),
            ],
            path: "Benchmarks/PlistBenchmarks",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "plist-bench-inputs",
            dependencies: [
                "BenchmarkInputs", .product(name: "PlistKit", package: "swift-plist"),
            ],
            path: "Tools/plist-bench-inputs",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
