import PlistKit

extension SyntheticData {
    /// An application's Info.plist, about 2 KB as binary.
    package static func smallInfo() -> Plist {
        [
            "BuildMachineOSBuild": "24A335",
            "CFBundleDevelopmentRegion": "en",
            "CFBundleDisplayName": "Plist Viewer",
            "CFBundleDocumentTypes": [
                [
                    "CFBundleTypeName": "Property List",
                    "CFBundleTypeRole": "Editor",
                    "LSHandlerRank": "Alternate",
                    "LSItemContentTypes": ["com.apple.property-list", "com.apple.xml-property-list"],
                    "NSDocumentClass": "PlistDocument",
                ],
                [
                    "CFBundleTypeName": "Strings File",
                    "CFBundleTypeRole": "Viewer",
                    "LSHandlerRank": "Alternate",
                    "LSItemContentTypes": ["com.apple.xcode.strings-text"],
                    "NSDocumentClass": "StringsDocument",
                ],
            ],
            "CFBundleExecutable": "Plist Viewer",
            "CFBundleIconFile": "AppIcon",
            "CFBundleIconName": "AppIcon",
            "CFBundleIdentifier": "org.example.plist-viewer",
            "CFBundleInfoDictionaryVersion": "6.0",
            "CFBundleName": "Plist Viewer",
            "CFBundlePackageType": "APPL",
            "CFBundleShortVersionString": "2.4.1",
            "CFBundleSignature": "????",
            "CFBundleSupportedPlatforms": ["MacOSX"],
            "CFBundleURLTypes": [
                [
                    "CFBundleURLName": "org.example.plist-viewer.open",
                    "CFBundleURLSchemes": ["plistviewer", "plist-viewer"],
                ]
            ],
            "CFBundleVersion": 2_417,
            "DTCompiler": "com.apple.compilers.llvm.clang.1_0",
            "DTPlatformBuild": "24A5327a",
            "DTPlatformName": "macosx",
            "DTPlatformVersion": "15.0",
            "DTSDKBuild": "24A5327a",
            "DTSDKName": "macosx15.0",
            "DTXcode": "1600",
            "DTXcodeBuild": "16A5230g",
            "ITSAppUsesNonExemptEncryption": false,
            "LSApplicationCategoryType": "public.app-category.developer-tools",
            "LSMinimumSystemVersion": "13.0",
            "NSAppTransportSecurity": [
                "NSAllowsArbitraryLoads": false,
                "NSExceptionDomains": [
                    "example.org": ["NSIncludesSubdomains": true, "NSExceptionMinimumTLSVersion": "TLSv1.2"]
                ],
            ],
            "NSHighResolutionCapable": true,
            "NSHumanReadableCopyright": "Copyright © 2025 Example. All rights reserved.",
            "NSMainStoryboardFile": "Main",
            "NSPrincipalClass": "NSApplication",
            "NSSupportsAutomaticTermination": true,
            "NSSupportsSuddenTermination": false,
            "UTExportedTypeDeclarations": [
                [
                    "UTTypeConformsTo": ["public.data", "public.content"],
                    "UTTypeDescription": "Plist Viewer Session",
                    "UTTypeIdentifier": "org.example.plist-viewer.session",
                    "UTTypeTagSpecification": ["public.filename-extension": ["pvsession"]],
                ]
            ],
        ]
    }
}
