import Foundation
import PlistKit

extension SyntheticData {
    /// An iTunes "Library.xml"-shaped dictionary: 20,000 tracks and 40 playlists, about 10 MB as binary.
    package static func itunesLibrary() -> Plist {
        var random = SplitMix64(seed: 0x1_7E5)
        let artists = (0..<900).map { _ in artistName(&random) }
        var tracks: PlistDictionary = [:]
        var trackIDs: [Int] = []
        var trackID = 1_000
        while trackIDs.count < 20_000 {
            let album = Album(&random, artists: artists)
            for number in 1...album.trackCount where trackIDs.count < 20_000 {
                tracks[String(trackID)] = track(id: trackID, number: number, album: album, &random)
                trackIDs.append(trackID)
                trackID += 2
            }
        }
        let playlists = (0..<40).map { playlist(index: $0, trackIDs: trackIDs, &random) }
        return [
            "Major Version": 1,
            "Minor Version": 1,
            "Date": date(752_000_000),
            "Application Version": "12.13.2.3",
            "Features": 5,
            "Show Content Ratings": true,
            "Music Folder": .string(musicFolder),
            "Library Persistent ID": .string(random.hex(digits: 16)),
            "Tracks": .dictionary(tracks),
            "Playlists": .array(playlists),
        ]
    }

    private static let musicFolder = "file:///Users/alex/Music/iTunes/iTunes%20Media/"

    private static let genres = [
        "Rock", "Pop", "Alternative", "Jazz", "Classical", "Electronic", "Hip-Hop/Rap", "R&B/Soul", "Country",
        "Blues", "Folk", "Metal", "Reggae", "Soundtrack", "Singer/Songwriter", "Dance", "World", "Latin",
        "Ambient", "Indie Rock", "Punk", "Funk", "J-Pop", "K-Pop", "Chanson", "Musique Québécoise",
    ]

    /// A file kind, the extension of local files (Apple Music tracks are remote, with no file) and a bit rate.
    private typealias Kind = (kind: String, fileExtension: String?, bitRate: Int)

    private static let kinds: [Kind] = [
        ("MPEG audio file", "mp3", 192),
        ("MPEG audio file", "mp3", 320),
        ("AAC audio file", "m4a", 256),
        ("Purchased AAC audio file", "m4a", 256),
        ("Apple Lossless audio file", "m4a", 1_411),
        ("Apple Music AAC audio file", nil, 256),
        ("Protected AAC audio file", "m4p", 128),
    ]

    /// The tracks of one album share its artist, title, genre, year and kind.
    private struct Album {
        let artist: String
        let title: String
        let genre: String
        let year: Int
        let kind: Kind
        let trackCount: Int
        let isCompilation: Bool
        let composer: String?

        init(_ random: inout SplitMix64, artists: [String]) {
            isCompilation = random.chance(0.05)
            artist = isCompilation ? "Various Artists" : random.pick(artists)
            title = SyntheticData.title(&random, words: 1...4)
            genre = random.pick(SyntheticData.genres)
            year = random.int(in: 1960...2024)
            kind = random.pick(SyntheticData.kinds)
            trackCount = random.int(in: 6...18)
            composer = random.chance(0.4) ? random.pick(artists) : nil
        }
    }

    private static func artistName(_ random: inout SplitMix64) -> String {
        switch random.below(4) {
        case 0: "The " + title(&random, words: 1...2) + "s"
        case 1: title(&random, words: 1...1) + " & the " + title(&random, words: 1...1) + "s"
        default: title(&random, words: 2...3)
        }
    }

    private static func track(id: Int, number: Int, album: Album, _ random: inout SplitMix64) -> Plist {
        let name = title(&random, words: 1...5)
        let artist = album.isCompilation ? random.pick(words) + " " + random.pick(words) : album.artist
        let added = random.int(in: 150_000_000...740_000_000)
        var track: PlistDictionary = [
            "Track ID": Plist(id),
            "Size": Plist(random.int(in: 2_000_000...15_000_000)),
            "Total Time": Plist(random.int(in: 90_000...600_000)),
            "Disc Number": 1,
            "Disc Count": 1,
            "Track Number": Plist(number),
            "Track Count": Plist(album.trackCount),
            "Year": Plist(album.year),
            "Date Modified": date(added + random.int(in: 0...20_000_000)),
            "Date Added": date(added),
            "Bit Rate": Plist(album.kind.bitRate),
            "Sample Rate": Plist(album.kind.bitRate == 1_411 ? 48_000 : 44_100),
            "Normalization": Plist(random.int(in: 200...12_000)),
            "Artwork Count": 1,
        ]
        if random.chance(0.7) {
            let played = added + random.int(in: 0...30_000_000)
            track["Play Count"] = Plist(random.int(in: 1...250))
            track["Play Date"] = Plist(played + 3_061_152_000)  // the HFS epoch, 1904
            track["Play Date UTC"] = date(played)
        }
        if random.chance(0.2) {
            track["Skip Count"] = Plist(random.int(in: 1...12))
            track["Skip Date"] = date(added + random.int(in: 0...30_000_000))
        }
        if random.chance(0.05) {
            track["Loved"] = true
        }
        if album.isCompilation {
            track["Compilation"] = true
        }
        track["Persistent ID"] = .string(random.hex(digits: 16))
        track["Track Type"] = album.kind.fileExtension == nil ? "Remote" : "File"
        if album.kind.fileExtension != nil {
            track["File Folder Count"] = 5
            track["Library Folder Count"] = 1
        }
        track["Name"] = .string(name)
        track["Artist"] = .string(artist)
        if album.isCompilation || random.chance(0.5) {
            track["Album Artist"] = .string(album.artist)
        }
        if let composer = album.composer {
            track["Composer"] = .string(composer)
        }
        track["Album"] = .string(album.title)
        track["Genre"] = .string(album.genre)
        track["Kind"] = .string(album.kind.kind)
        if random.chance(0.25) {
            track["Comments"] = .string("Ripped \(title(&random, words: 2...6).lowercased()) edition")
        }
        if let fileExtension = album.kind.fileExtension {
            let path = "Music/\(album.artist)/\(album.title)/\(String(format: "%02d", number)) \(name).\(fileExtension)"
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            track["Location"] = .string(musicFolder + encoded)
        }
        return .dictionary(track)
    }

    private static func playlist(index: Int, trackIDs: [Int], _ random: inout SplitMix64) -> Plist {
        var playlist: PlistDictionary
        let members: [Int]
        switch index {
        case 0:
            playlist = ["Master": true, "Name": "Library", "Visible": false]
            members = trackIDs
        case 1:
            playlist = ["Name": "Music", "Distinguished Kind": 4, "Music": true]
            members = trackIDs
        case 2...5:
            playlist = [
                "Name": .string(["Recently Added", "Top 25 Most Played", "Recently Played", "90’s Music"][index - 2]),
                "Smart Info": .data(Data(random.bytes(130))),
                "Smart Criteria": .data(Data(random.bytes(random.int(in: 200...600)))),
            ]
            members = (0..<random.int(in: 25...400)).map { _ in random.pick(trackIDs) }
        default:
            playlist = ["Name": .string(title(&random, words: 1...3))]
            members = (0..<random.int(in: 10...300)).map { _ in random.pick(trackIDs) }
        }
        playlist["Playlist ID"] = Plist(100_000 + index * 7)
        playlist["Playlist Persistent ID"] = .string(random.hex(digits: 16))
        playlist["All Items"] = true
        playlist["Playlist Items"] = .array(members.map { ["Track ID": Plist($0)] })
        return .dictionary(playlist)
    }
}
