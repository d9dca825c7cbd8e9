import Foundation
import PlistKit

/// Builds the benchmark inputs from fixed seeds, so no large file is kept in the repository.
package enum SyntheticData {
    /// 2001-01-01 00:00:00 UTC plus `seconds`: whole seconds, as Apple's tools store most dates.
    package static func date(_ seconds: Int) -> Plist {
        .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    }

    /// Words for titles and names, a few of them non-ASCII.
    package static let words = [
        "Love", "Night", "Heart", "Dream", "Fire", "Rain", "Summer", "Blue", "Golden", "River", "Light",
        "Shadow", "Dance", "Song", "Home", "Road", "Sky", "Moon", "Sun", "Star", "Ocean", "City", "Time",
        "Forever", "Wild", "Silent", "Electric", "Broken", "Sweet", "Lonely", "Midnight", "Morning",
        "Paradise", "Thunder", "Angel", "Ghost", "Diamond", "Echo", "Glass", "Highway", "Island",
        "Kingdom", "Memory", "Mirror", "Neon", "Paper", "Radio", "Secret", "Storm", "Velvet", "Winter",
        "Wonder", "Young", "Free", "Lost", "Crazy", "Little", "Big", "Black", "White", "Red", "Green",
        "Alive", "Away", "Again", "Tonight", "Tomorrow", "Yesterday", "Everything", "Nothing", "Girl",
        "Boy", "World", "Fever", "Gravity", "Harbor", "Horizon", "Lullaby", "Machine", "Northern",
        "Orchestra", "Parade", "Revolution", "Satellite", "Symphony", "Tide", "Wolves", "Youth",
        "Café", "Noël", "Mañana", "Über", "Señorita", "Déjà Vu", "Göteborg", "Sinfonía", "Ça Va",
        "Łódź", "東京", "夜空", "Сон", "Σελήνη", "사랑", "Ærø",
    ]

    /// One to a few words from `words`, separated by spaces.
    package static func title(_ random: inout SplitMix64, words range: ClosedRange<Int>) -> String {
        (0..<random.int(in: range)).map { _ in random.pick(words) }.joined(separator: " ")
    }
}
