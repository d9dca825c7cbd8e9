package import Synchronization

extension Preferences {
    /// What a change made through a store calls with that store. PlistFoundation sets it, when
    /// it is linked, to post `UserDefaults.didChangeNotification`; PlistStore itself does not
    /// import Foundation, so that a program that does not link PlistFoundation (plistconv) does
    /// not load Foundation, its internationalization and ICU.
    package static let changeNotificationPoster = Mutex<(@Sendable (Preferences) -> Void)?>(nil)

    /// Posts the change notification, when PlistFoundation installed its poster.
    func postChangeNotification() {
        Self.changeNotificationPoster.withLock { $0 }?(self)
    }
}
