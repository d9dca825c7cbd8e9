import PlistKit
import TestSupport

/// The small real Xcode project in `Fixtures/repository/project.pbxproj` (a Cocoa app named
/// Testproject), and edits to it as Xcode makes them, for the merge tests.
enum TestProject {
    static let name = "Testproject"
    static let mainGroup = "65541A8F16D13B8C00A968D5"
    static let sourceGroup = "65541AA116D13B8C00A968D5"
    static let productsGroup = "65541A9916D13B8C00A968D5"
    static let sourcesPhase = "65541A9416D13B8C00A968D5"
    static let project = "65541A9016D13B8C00A968D5"

    /// The fixture's bytes, as its author's Xcode wrote them.
    static func fixtureBytes() throws -> [UInt8] { try Paths.bytes(Fixtures.url("repository/project.pbxproj")) }

    /// The fixture's value.
    static func value() throws -> Plist { try Plist(bytes: try fixtureBytes()) }

    /// `project` as Xcode writes it.
    static func bytes(_ project: Plist) throws -> [UInt8] { try project.pbxprojBytes(projectName: name) }

    /// Adds the object `object` under `id`.
    static func add(_ object: Plist, id: String, to project: inout Plist) throws {
        try project.insert(object, at: PlistKeyPath(components: ["objects", id]))
    }

    /// Appends `element` to the array `key` of the object `id`.
    static func append(_ element: String, to key: String, of id: String, in project: inout Plist) throws {
        try project.append(.string(element), toArrayAt: PlistKeyPath(components: ["objects", id, key]))
    }

    /// A source file: its reference in `group`, and its build file in the app's Sources phase.
    static func addSourceFile(
        _ name: String, reference: String, buildFile: String, group: String = sourceGroup, to project: inout Plist
    ) throws {
        try add(
            [
                "isa": "PBXFileReference", "lastKnownFileType": "sourcecode.c.objc", "path": .string(name),
                "sourceTree": "<group>",
            ], id: reference, to: &project)
        try add(["isa": "PBXBuildFile", "fileRef": .string(reference)], id: buildFile, to: &project)
        try append(reference, to: "children", of: group, in: &project)
        try append(buildFile, to: "files", of: sourcesPhase, in: &project)
    }

    /// A group in the main group.
    static func addGroup(_ name: String, id: String, to project: inout Plist) throws {
        try add(
            ["isa": "PBXGroup", "children": [], "name": .string(name), "sourceTree": "<group>"], id: id, to: &project)
        try append(id, to: "children", of: mainGroup, in: &project)
    }

    /// An app-extension target with its product, build phase and configurations; `ids` are six
    /// new object IDs.
    static func addTarget(_ name: String, ids: [String], to project: inout Plist) throws {
        let (target, product, phase, list, debug, release) = (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5])
        try add(
            [
                "isa": "PBXFileReference", "explicitFileType": "wrapper.app-extension", "includeInIndex": "0",
                "path": .string(name + ".appex"), "sourceTree": "BUILT_PRODUCTS_DIR",
            ], id: product, to: &project)
        try append(product, to: "children", of: productsGroup, in: &project)
        try add(
            [
                "isa": "PBXSourcesBuildPhase", "buildActionMask": "2147483647", "files": [],
                "runOnlyForDeploymentPostprocessing": "0",
            ], id: phase, to: &project)
        for (id, configuration) in [(debug, "Debug"), (release, "Release")] {
            try add(
                [
                    "isa": "XCBuildConfiguration", "buildSettings": ["PRODUCT_NAME": "$(TARGET_NAME)"],
                    "name": .string(configuration),
                ], id: id, to: &project)
        }
        try add(
            [
                "isa": "XCConfigurationList", "buildConfigurations": [.string(debug), .string(release)],
                "defaultConfigurationIsVisible": "0", "defaultConfigurationName": "Release",
            ], id: list, to: &project)
        try add(
            [
                "isa": "PBXNativeTarget", "buildConfigurationList": .string(list), "buildPhases": [.string(phase)],
                "buildRules": [], "dependencies": [], "name": .string(name), "productName": .string(name),
                "productReference": .string(product), "productType": "com.apple.product-type.app-extension",
            ],
            id: target, to: &project)
        try append(target, to: "targets", of: TestProject.project, in: &project)
    }

    /// Branch one's edits: a source file and a group.
    static func ourEdits(_ project: inout Plist) throws {
        try addSourceFile(
            "Feature.m", reference: "A10000000000000000000001", buildFile: "A10000000000000000000002", to: &project)
        try addGroup("Feature", id: "A10000000000000000000003", to: &project)
    }

    /// Branch two's edits: another source file in the same group and phase, and a target.
    static func theirEdits(_ project: inout Plist) throws {
        try addSourceFile(
            "Other.m", reference: "B10000000000000000000001", buildFile: "B10000000000000000000002", to: &project)
        try addTarget("Widget", ids: (3...8).map { "B1000000000000000000000\($0)" }, to: &project)
    }
}

/// `Fixtures/xcode/packages.pbxproj`, a project with Swift packages as Xcode writes it, and the
/// same project before its packages were added, for the merge tests.
enum PackagesProject {
    /// The fixture's text.
    static func text() throws -> String {
        String(decoding: try Paths.bytes(Fixtures.url("xcode/packages.pbxproj")), as: UTF8.self)
    }

    /// The key path of the project's `SDKROOT` setting (`iphoneos` in the fixture).
    static let sdk = PlistKeyPath(components: ["objects", "A10000000000000000000081", "buildSettings", "SDKROOT"])

    /// `project` as Xcode writes it.
    static func bytes(_ project: Plist) throws -> [UInt8] { try project.pbxprojBytes(projectName: "Packages") }

    /// The fixture without its packages, products and the build files that link them.
    static func withoutPackages() throws -> Plist {
        var project = try Plist(bytes: Array(try text().utf8))
        for id in ["12", "13", "61", "62", "63", "71", "72", "73"] {
            try project.remove(at: PlistKeyPath(components: ["objects", "A100000000000000000000" + id]))
        }
        try project.replace(
            [], at: PlistKeyPath(components: ["objects", "A10000000000000000000051", "packageProductDependencies"]))
        try project.replace([], at: PlistKeyPath(components: ["objects", "A10000000000000000000031", "files"]))
        try project.remove(at: PlistKeyPath(components: ["objects", "A10000000000000000000001", "packageReferences"]))
        return project
    }
}
