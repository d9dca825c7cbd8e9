import Foundation

/// A Codable model of the `itunes-library` input, for `PropertyListDecoder`/`PropertyListEncoder`.
package struct ITunesLibrary: Codable, Sendable {
    var majorVersion: Int
    var minorVersion: Int
    var date: Date
    var applicationVersion: String
    var features: Int
    var showContentRatings: Bool
    var musicFolder: String
    var libraryPersistentID: String
    var tracks: [String: Track]
    var playlists: [Playlist]

    enum CodingKeys: String, CodingKey {
        case majorVersion = "Major Version"
        case minorVersion = "Minor Version"
        case date = "Date"
        case applicationVersion = "Application Version"
        case features = "Features"
        case showContentRatings = "Show Content Ratings"
        case musicFolder = "Music Folder"
        case libraryPersistentID = "Library Persistent ID"
        case tracks = "Tracks"
        case playlists = "Playlists"
    }

    struct Track: Codable, Sendable {
        var trackID: Int
        var size: Int
        var totalTime: Int
        var discNumber: Int
        var discCount: Int
        var trackNumber: Int
        var trackCount: Int
        var year: Int
        var dateModified: Date
        var dateAdded: Date
        var bitRate: Int
        var sampleRate: Int
        var normalization: Int
        var artworkCount: Int
        var playCount: Int?
        var playDate: Int?
        var playDateUTC: Date?
        var skipCount: Int?
        var skipDate: Date?
        var loved: Bool?
        var compilation: Bool?
        var persistentID: String
        var trackType: String
        var fileFolderCount: Int?
        var libraryFolderCount: Int?
        var name: String
        var artist: String
        var albumArtist: String?
        var composer: String?
        var album: String
        var genre: String
        var kind: String
        var comments: String?
        var location: String?

        enum CodingKeys: String, CodingKey {
            case trackID = "Track ID"
            case size = "Size"
            case totalTime = "Total Time"
            case discNumber = "Disc Number"
            case discCount = "Disc Count"
            case trackNumber = "Track Number"
            case trackCount = "Track Count"
            case year = "Year"
            case dateModified = "Date Modified"
            case dateAdded = "Date Added"
            case bitRate = "Bit Rate"
            case sampleRate = "Sample Rate"
            case normalization = "Normalization"
            case artworkCount = "Artwork Count"
            case playCount = "Play Count"
            case playDate = "Play Date"
            case playDateUTC = "Play Date UTC"
            case skipCount = "Skip Count"
            case skipDate = "Skip Date"
            case loved = "Loved"
            case compilation = "Compilation"
            case persistentID = "Persistent ID"
            case trackType = "Track Type"
            case fileFolderCount = "File Folder Count"
            case libraryFolderCount = "Library Folder Count"
            case name = "Name"
            case artist = "Artist"
            case albumArtist = "Album Artist"
            case composer = "Composer"
            case album = "Album"
            case genre = "Genre"
            case kind = "Kind"
            case comments = "Comments"
            case location = "Location"
        }
    }

    struct Playlist: Codable, Sendable {
        var master: Bool?
        var name: String
        var visible: Bool?
        var distinguishedKind: Int?
        var music: Bool?
        var smartInfo: Data?
        var smartCriteria: Data?
        var playlistID: Int
        var playlistPersistentID: String
        var allItems: Bool
        var playlistItems: [Item]

        enum CodingKeys: String, CodingKey {
            case master = "Master"
            case name = "Name"
            case visible = "Visible"
            case distinguishedKind = "Distinguished Kind"
            case music = "Music"
            case smartInfo = "Smart Info"
            case smartCriteria = "Smart Criteria"
            case playlistID = "Playlist ID"
            case playlistPersistentID = "Playlist Persistent ID"
            case allItems = "All Items"
            case playlistItems = "Playlist Items"
        }
    }

    struct Item: Codable, Sendable {
        var trackID: Int

        enum CodingKeys: String, CodingKey {
            case trackID = "Track ID"
        }
    }
}
