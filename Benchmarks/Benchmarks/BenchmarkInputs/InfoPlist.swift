/// A Codable model of the `small-info` input, for `PropertyListDecoder`/`PropertyListEncoder`.
package struct InfoPlist: Codable, Sendable {
    var buildMachineOSBuild: String
    var developmentRegion: String
    var displayName: String
    var documentTypes: [DocumentType]
    var executable: String
    var iconFile: String
    var iconName: String
    var identifier: String
    var infoDictionaryVersion: String
    var name: String
    var packageType: String
    var shortVersion: String
    var signature: String
    var supportedPlatforms: [String]
    var urlTypes: [URLType]
    var version: Int
    var compiler: String
    var platformBuild: String
    var platformName: String
    var platformVersion: String
    var sdkBuild: String
    var sdkName: String
    var xcode: String
    var xcodeBuild: String
    var usesNonExemptEncryption: Bool
    var applicationCategoryType: String
    var minimumSystemVersion: String
    var appTransportSecurity: AppTransportSecurity
    var highResolutionCapable: Bool
    var copyright: String
    var mainStoryboardFile: String
    var principalClass: String
    var supportsAutomaticTermination: Bool
    var supportsSuddenTermination: Bool
    var exportedTypes: [ExportedType]

    enum CodingKeys: String, CodingKey {
        case buildMachineOSBuild = "BuildMachineOSBuild"
        case developmentRegion = "CFBundleDevelopmentRegion"
        case displayName = "CFBundleDisplayName"
        case documentTypes = "CFBundleDocumentTypes"
        case executable = "CFBundleExecutable"
        case iconFile = "CFBundleIconFile"
        case iconName = "CFBundleIconName"
        case identifier = "CFBundleIdentifier"
        case infoDictionaryVersion = "CFBundleInfoDictionaryVersion"
        case name = "CFBundleName"
        case packageType = "CFBundlePackageType"
        case shortVersion = "CFBundleShortVersionString"
        case signature = "CFBundleSignature"
        case supportedPlatforms = "CFBundleSupportedPlatforms"
        case urlTypes = "CFBundleURLTypes"
        case version = "CFBundleVersion"
        case compiler = "DTCompiler"
        case platformBuild = "DTPlatformBuild"
        case platformName = "DTPlatformName"
        case platformVersion = "DTPlatformVersion"
        case sdkBuild = "DTSDKBuild"
        case sdkName = "DTSDKName"
        case xcode = "DTXcode"
        case xcodeBuild = "DTXcodeBuild"
        case usesNonExemptEncryption = "ITSAppUsesNonExemptEncryption"
        case applicationCategoryType = "LSApplicationCategoryType"
        case minimumSystemVersion = "LSMinimumSystemVersion"
        case appTransportSecurity = "NSAppTransportSecurity"
        case highResolutionCapable = "NSHighResolutionCapable"
        case copyright = "NSHumanReadableCopyright"
        case mainStoryboardFile = "NSMainStoryboardFile"
        case principalClass = "NSPrincipalClass"
        case supportsAutomaticTermination = "NSSupportsAutomaticTermination"
        case supportsSuddenTermination = "NSSupportsSuddenTermination"
        case exportedTypes = "UTExportedTypeDeclarations"
    }

    struct DocumentType: Codable, Sendable {
        var typeName: String
        var role: String
        var handlerRank: String
        var contentTypes: [String]
        var documentClass: String

        enum CodingKeys: String, CodingKey {
            case typeName = "CFBundleTypeName"
            case role = "CFBundleTypeRole"
            case handlerRank = "LSHandlerRank"
            case contentTypes = "LSItemContentTypes"
            case documentClass = "NSDocumentClass"
        }
    }

    struct URLType: Codable, Sendable {
        var name: String
        var schemes: [String]

        enum CodingKeys: String, CodingKey {
            case name = "CFBundleURLName"
            case schemes = "CFBundleURLSchemes"
        }
    }

    struct AppTransportSecurity: Codable, Sendable {
        var allowsArbitraryLoads: Bool
        var exceptionDomains: [String: ExceptionDomain]

        enum CodingKeys: String, CodingKey {
            case allowsArbitraryLoads = "NSAllowsArbitraryLoads"
            case exceptionDomains = "NSExceptionDomains"
        }
    }

    struct ExceptionDomain: Codable, Sendable {
        var includesSubdomains: Bool
        var minimumTLSVersion: String

        enum CodingKeys: String, CodingKey {
            case includesSubdomains = "NSIncludesSubdomains"
            case minimumTLSVersion = "NSExceptionMinimumTLSVersion"
        }
    }

    struct ExportedType: Codable, Sendable {
        var conformsTo: [String]
        var description: String
        var identifier: String
        var tagSpecification: [String: [String]]

        enum CodingKeys: String, CodingKey {
            case conformsTo = "UTTypeConformsTo"
            case description = "UTTypeDescription"
            case identifier = "UTTypeIdentifier"
            case tagSpecification = "UTTypeTagSpecification"
        }
    }
}
