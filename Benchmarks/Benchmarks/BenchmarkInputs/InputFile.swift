/// The benchmark inputs; each is generated on first use and kept for the rest of the run.
package enum InputFile: String, CaseIterable {
    case itunesLibrary = "itunes-library"
    case numbers
    case stringsUnicode = "strings-unicode"
    case blobs
    case keyedArchiveLike = "keyed-archive-like"
    case smallInfo = "small-info"
    case pbxprojLike = "pbxproj-like"
    case deep

    package var fixture: Fixture {
        switch self {
        case .itunesLibrary: Self.itunesLibraryFixture
        case .numbers: Self.numbersFixture
        case .stringsUnicode: Self.stringsUnicodeFixture
        case .blobs: Self.blobsFixture
        case .keyedArchiveLike: Self.keyedArchiveLikeFixture
        case .smallInfo: Self.smallInfoFixture
        case .pbxprojLike: Self.pbxprojLikeFixture
        case .deep: Self.deepFixture
        }
    }

    // Static stored properties are initialized lazily and exactly once, even across threads.
    private static let itunesLibraryFixture = Fixture(SyntheticData.itunesLibrary(), .itunesLibrary)
    private static let numbersFixture = Fixture(SyntheticData.numbers(), .numbers)
    private static let stringsUnicodeFixture = Fixture(SyntheticData.unicodeStrings(), .stringsUnicode)
    private static let blobsFixture = Fixture(SyntheticData.blobs(), .blobs)
    private static let keyedArchiveLikeFixture = Fixture(SyntheticData.keyedArchive(), .keyedArchiveLike)
    private static let smallInfoFixture = Fixture(SyntheticData.smallInfo(), .smallInfo)
    private static let pbxprojLikeFixture = Fixture(SyntheticData.pbxproj(), .pbxprojLike)
    private static let deepFixture = Fixture(SyntheticData.deep(), .deep)
}
