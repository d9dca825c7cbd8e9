import PlistKit

extension SyntheticData {
    /// An Xcode `project.pbxproj`-shaped value (strings only, as OpenStep holds them): 60,000
    /// objects keyed by 24-digit hex IDs (file references, build files, groups, build phases and
    /// configurations), about 8 MB as OpenStep text.
    package static func pbxproj() -> Plist {
        var random = SplitMix64(seed: 0x9B_5052)
        var objects: PlistDictionary = [:]
        let fileTypes = [
            "sourcecode.swift", "sourcecode.c.objc", "sourcecode.c.h", "text.plist.xml", "folder.assetcatalog",
        ]
        var fileIDs: [String] = []
        for index in 0..<24_000 {
            let id = random.hex(digits: 24).uppercased()
            let name = title(&random, words: 1...2).replacing(" ", with: "") + "\(index).swift"
            objects[id] = [
                "isa": "PBXFileReference", "lastKnownFileType": .string(random.pick(fileTypes)),
                "path": .string(name), "sourceTree": "<group>",
            ]
            fileIDs.append(id)
        }
        var buildFileIDs: [String] = []
        for fileID in fileIDs {
            let id = random.hex(digits: 24).uppercased()
            objects[id] = ["isa": "PBXBuildFile", "fileRef": .string(fileID)]
            buildFileIDs.append(id)
        }
        for start in stride(from: 0, to: fileIDs.count, by: 40) {
            objects[random.hex(digits: 24).uppercased()] = [
                "isa": "PBXGroup",
                "children": .array(fileIDs[start..<min(start + 40, fileIDs.count)].map { .string($0) }),
                "name": .string(title(&random, words: 1...3)), "sourceTree": "<group>",
            ]
        }
        for start in stride(from: 0, to: buildFileIDs.count, by: 2_000) {
            objects[random.hex(digits: 24).uppercased()] = [
                "isa": "PBXSourcesBuildPhase", "buildActionMask": "2147483647",
                "files": .array(buildFileIDs[start..<min(start + 2_000, buildFileIDs.count)].map { .string($0) }),
                "runOnlyForDeploymentPostprocessing": "0",
            ]
        }
        while objects.count < 60_000 {
            objects[random.hex(digits: 24).uppercased()] = [
                "isa": "XCBuildConfiguration",
                "buildSettings": [
                    "PRODUCT_NAME": "$(TARGET_NAME)", "SWIFT_VERSION": "6.0", "INFOPLIST_FILE": "Sources/Info.plist",
                    "OTHER_SWIFT_FLAGS": .array(["-D", .string("FLAG_\(random.below(1_000))")]),
                    "PRODUCT_BUNDLE_IDENTIFIER": .string("com.example.\(random.hex(digits: 6))"),
                ],
                "name": .string(random.chance(0.5) ? "Debug" : "Release"),
            ]
        }
        return [
            "archiveVersion": "1", "classes": [:], "objectVersion": "77",
            "objects": .dictionary(objects), "rootObject": .string(objects.keys[0]),
        ]
    }

    /// Arrays and dictionaries nested 500 deep (the readers' limit is 512), a few values at each level.
    package static func deep() -> Plist {
        var value: Plist = ["leaf": true]
        for level in (0..<500).reversed() {
            value =
                level.isMultiple(of: 2)
                ? ["level": Plist(level), "name": .string("node \(level)"), "child": value]
                : [Plist(level), value, "sibling"]
        }
        return value
    }
}
