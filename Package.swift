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
        .library(name: "PlistStore", targets: ["PlistStore"]),
        .library(name: "PlistConfiguration", targets: ["PlistConfiguration"]),
        .executable(name: "plistconv", targets: ["plistconv"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["Reloading"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
    ],
    targets: [
        .target(
            name: "PlistCore",
            swiftSettings: settings + [.strictMemorySafety(), .treatAllWarnings(as: .error)]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .target(
            name: "PlistXML",
            dependencies: ["PlistCore", "CLibXML2", .product(name: "ExtrasBase64", package: "swift-extras-base64")],
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
        .target(
            name: "PlistStore",
            dependencies: [
                "PlistKit", .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: settings + [.strictMemorySafety()]
        ),
        // A swift-configuration provider's snapshot backed by PlistKit's readers, apart so that
        // nothing else depends on swift-configuration.
        .target(
            name: "PlistConfiguration",
            dependencies: ["PlistKit", .product(name: "Configuration", package: "swift-configuration")],
            swiftSettings: settings
        ),
        .executableTarget(
            name: "plistconv",
            dependencies: [
                "PlistKit", "PlistStore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: settings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["PlistCore"],
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
                "PlistCore", "PlistXML", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: settings),
        // Encodes a large model in a process of its own, for `ThreadTests` to count its threads.
        .executableTarget(
            name: "plist-thread-probe", dependencies: ["PlistKit"], path: "Tests/ThreadProbe", swiftSettings: settings),
        .testTarget(
            name: "PlistKitTests",
            dependencies: [
                "PlistKit", "TestSupport", "plist-thread-probe",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: settings),
        // Writes, observes and crashes in processes of its own, for `PlistStoreTests`.
        .executableTarget(
            name: "plist-store-probe", dependencies: ["PlistStore", "PlistKit"], path: "Tests/StoreProbe",
            swiftSettings: settings),
        .testTarget(
            name: "PlistStoreTests",
            dependencies: [
                "PlistStore", "PlistKit", "TestSupport", "plist-store-probe", "plistconv",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "PlistConfigurationTests",
            dependencies: [
                "PlistConfiguration", "PlistKit", .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: settings),
        .testTarget(
            name: "plistconvTests",
            dependencies: [
                "plistconv", "TestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: settings
        ),
    ],
    swiftLanguageModes: [.v6]
)
