// swift-tools-version: 6.2
import PackageDescription

let settings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The products of the dependencies that several targets use, named once.
let orderedCollections = Target.Dependency.product(name: "OrderedCollections", package: "swift-collections")
let systemPackage = Target.Dependency.product(name: "SystemPackage", package: "swift-system")
let propertyBased = Target.Dependency.product(name: "PropertyBased", package: "swift-property-based")

let package = Package(
    name: "swift-plist",
    platforms: [.macOS("26.0"), .iOS("26.0"), .tvOS("26.0"), .watchOS("26.0"), .visionOS("26.0")],
    products: [
        .library(name: "PlistKit", targets: ["PlistKit"]),
        .library(name: "PlistCore", targets: ["PlistCore"]),
        .library(name: "PlistStore", targets: ["PlistStore"]),
        .library(name: "PlistConfiguration", targets: ["PlistConfiguration"]),
        .library(name: "PlistFoundation", targets: ["PlistFoundation"]),
        .library(name: "PlistRepository", targets: ["PlistRepository"]),
        .executable(name: "plistconv", targets: ["plistconv"]),
    ],
    // swift-property-based and swift-log serve only test targets, and swift-docc-plugin only
    // `swift package generate-documentation`: SwiftPM resolves a dependency for a client only
    // when a product the client uses needs it, so a package depending on PlistKit fetches none
    // of the three (nor swift-argument-parser or swift-configuration unless it uses plistconv or
    // PlistConfiguration). Declaring them here is the only place SwiftPM allows.
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
                "PlistCore", "PlistXML", orderedCollections,
                systemPackage,
            ],
            swiftSettings: settings + [.strictMemorySafety()]
        ),
        .target(
            name: "PlistStore",
            // PlistCore is named, though PlistKit re-exports it, here and in PlistConfiguration:
            // DocC's combined documentation links the symbols of a target's direct dependencies.
            dependencies: [
                "PlistCore", "PlistKit", orderedCollections,
                systemPackage,
            ],
            swiftSettings: settings + [.strictMemorySafety()]
        ),
        // What needs Foundation itself, not only FoundationEssentials: `Plist(propertyListObject:)`
        // and the `UserDefaults.didChangeNotification` that `Preferences` posts. Apart, so that
        // a program that does not use them (plistconv) does not load Foundation and ICU.
        .target(
            name: "PlistFoundation",
            dependencies: ["PlistCore", "PlistKit", "PlistStore"],
            swiftSettings: settings + [.strictMemorySafety()]
        ),
        // A swift-configuration provider's snapshot backed by PlistKit's readers, apart so that
        // nothing else depends on swift-configuration.
        .target(
            name: "PlistConfiguration",
            dependencies: [
                "PlistCore", "PlistKit", .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: settings
        ),
        // Diff and three-way merge by key path, for `plistconv diff` and `merge` and for other tools.
        .target(
            name: "PlistRepository", dependencies: ["PlistCore", "PlistKit"],
            swiftSettings: settings + [.strictMemorySafety()]),
        .executableTarget(
            name: "plistconv",
            dependencies: [
                "PlistKit", "PlistStore", "PlistRepository",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                systemPackage,
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
                "PlistCore", "TestSupport", orderedCollections,
                propertyBased,
            ],
            swiftSettings: settings
        ),
        .testTarget(
            name: "PlistXMLTests",
            dependencies: [
                "PlistCore", "PlistXML", "TestSupport", propertyBased,
            ],
            swiftSettings: settings),
        // Encodes a large model in a process of its own, for `ThreadTests` to count its threads.
        .executableTarget(
            name: "plist-thread-probe", dependencies: ["PlistKit"], path: "Tests/ThreadProbe", swiftSettings: settings),
        .testTarget(
            name: "PlistKitTests",
            dependencies: [
                "PlistKit", "PlistFoundation", "TestSupport", "plist-thread-probe",
                systemPackage,
                propertyBased,
            ],
            swiftSettings: settings),
        // Writes, observes and crashes in processes of its own, for `PlistStoreTests`.
        .executableTarget(
            name: "plist-store-probe", dependencies: ["PlistStore", "PlistKit"], path: "Tests/StoreProbe",
            swiftSettings: settings),
        .testTarget(
            name: "PlistStoreTests",
            dependencies: [
                "PlistStore", "PlistKit", "PlistFoundation", "TestSupport", "plist-store-probe", "plistconv",
            ],
            swiftSettings: settings),
        .testTarget(
            name: "PlistConfigurationTests",
            dependencies: [
                "PlistConfiguration", "PlistKit", .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                systemPackage,
            ],
            swiftSettings: settings),
        .testTarget(
            name: "PlistRepositoryTests", dependencies: ["PlistRepository", "TestSupport"], swiftSettings: settings),
        .testTarget(
            name: "plistconvTests",
            dependencies: [
                "plistconv", "PlistRepository", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: settings
        ),
        // The Swift blocks of README.md and the DocC catalogs, one file per program
        // (Scripts/doc-examples.py writes Generated/), compiled as a client's code is: Swift 6
        // without the upcoming features that the package's own targets enable.
        .testTarget(
            name: "DocExampleTests",
            dependencies: [
                "PlistCore", "PlistKit", "PlistStore", "PlistConfiguration", "PlistFoundation", "PlistRepository",
                "TestSupport",
                orderedCollections,
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
