// swift-tools-version: 6.2
import PackageDescription

// libFuzzer targets for the readers, built apart from the main package with
// `swift build -c release -Xswiftc -sanitize=fuzzer,address` (see run.sh). Adding a reader is
// one file, Sources/Fuzz<Name>/main.swift, and one line below.
let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"],
        swiftSettings: settings)
}

let package = Package(
    name: "swift-plist-fuzz",
    platforms: [.macOS("26.0")],
    dependencies: [
        .package(name: "swift-plist", path: "..")
    ],
    targets: [
        .target(name: "CFuzzDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzDriver", .product(name: "PlistKit", package: "swift-plist"),
            ],
            swiftSettings: settings
        ),
        fuzzTarget("FuzzBinary"),
        fuzzTarget("FuzzXML"),
        fuzzTarget("FuzzOpenStep"),
        fuzzTarget("FuzzJSON"),
        fuzzTarget("FuzzCodable"),
        fuzzTarget("FuzzPaths"),
    ],
    swiftLanguageModes: [.v6]
)
