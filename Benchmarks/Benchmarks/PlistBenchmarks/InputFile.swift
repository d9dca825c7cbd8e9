/// The benchmark inputs; each is generated on first use and kept for the rest of the run.
enum InputFile: String, CaseIterable {
    case itunesLibrary = "itunes-library"
    case numbers
    case stringsUnicode = "strings-unicode"
    case blobs
    case keyedArchiveLike = "keyed-archive-like"
    case smallInfo = "small-info"

    var fixture: Fixture {
        switch self {
        case .itunesLibrary: Self.itunesLibraryFixture
        case .numbers: Self.numbersFixture
        case .stringsUnicode: Self.stringsUnicodeFixture
        case .blobs: Self.blobsFixture
        case .keyedArchiveLike: Self.keyedArchiveLikeFixture
        case .smallInfo: Self.smallInfoFixture
        }
    }

    // Static stored properties are initialized lazily and exactly once, even across threads.
    private static let itunesLibraryFixture = Fixture(SyntheticData.itunesLibrary())
    private static let numbersFixture = Fixture(SyntheticData.numbers())
    private static let stringsUnicodeFixture = Fixture(SyntheticData.unicodeStrings())
    private static let blobsFixture = Fixture(SyntheticData.blobs())
    private static let keyedArchiveLikeFixture = Fixture(SyntheticData.keyedArchive())
    private static let smallInfoFixture = Fixture(SyntheticData.smallInfo())
}
