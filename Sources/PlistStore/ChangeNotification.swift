#if canImport(Foundation)
import Foundation
#endif

extension Preferences {
    /// Posts `UserDefaults.didChangeNotification` with this store as its object, where
    /// Foundation is present, as `UserDefaults` posts it after a change made in the process:
    /// observer code written for `UserDefaults` works unchanged with a `Preferences` object.
    func postChangeNotification() {
        #if canImport(Foundation)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: self)
        #endif
    }
}
