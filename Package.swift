// swift-tools-version: 6.2
import PackageDescription

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "swift-plist",
    platforms: [.macOS("26.0"), .iOS("26.0"), .tvOS("26.0"), .watchOS("26.0"), .visionOS("26.0")],
    products: [
        .library(name: "PlistKit", targets: ["PlistKit"]),
        .library(name: "PlistCore", targets: ["PlistCore"]),
        .executable(name: "plistconv", targets: ["plistconv"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "PlistCore",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: settings + [.strictMemorySafety(), .treatAllWarnings(as: .error)]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(
            name: "PlistXML",
            dependencies: ["PlistCore", "CLibXML2"],
            swiftSettings: settings + [.strictMemorySafety()]
        ),
        .target(
            name: "PlistKit",
            dependencies: [
                "PlistCore", "PlistXML", .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: settings + [.strictMemorySafety()]
        ),
        .executableTarget(
            name: "plistconv",
            dependencies: [
                "PlistKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: settings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["PlistCore", .product(name: "OrderedCollections", package: "swift-collections")],
            path: "Tests/TestSupport",
            swiftSettings: settings
        ),
        .testTarget(
            name: "PlistCoreTests",
            dependencies: [
                "PlistCore", "TestSupport", .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "PlistXMLTests",
            dependencies: [
                "PlistCore", "PlistXML", "TestSupport", .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: settings),
        // Encodes a large model in a process of its own, for `ThreadTests` to count its threads.
        .executableTarget(
            name: "plist-thread-probe", dependencies: ["PlistKit"], path: "Tests/ThreadProbe", swiftSettings: settings),
        .testTarget(
            name: "PlistKitTests",
            dependencies: [
                "PlistKit", "TestSupport", "plist-thread-probe",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "plistconvTests",
            dependencies: [
                "plistconv", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)
