import Foundation
import PlistStore
import Synchronization

// `Preferences` posts `UserDefaults.didChangeNotification` with the store as its object, as
// `UserDefaults` posts it after a change made in the process, so that observer code written for
// `UserDefaults` works unchanged. PlistStore does not import Foundation: the poster is installed
// when this module is loaded (a load-time initializer), so linking PlistFoundation is all it takes.

/// Installs the poster; the system's loader calls it once, before `main`.
private func installChangeNotificationPoster() {
    Preferences.changeNotificationPoster.withLock { poster in
        poster = { store in
            NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store)
        }
    }
}

#if canImport(Darwin)
@used @section("__DATA,__mod_init_func")
private let loadTimeInitializer: @convention(c) () -> Void = installChangeNotificationPoster
#elseif os(Windows)
@used @section(".CRT$XCU")
private let loadTimeInitializer: @convention(c) () -> Void = installChangeNotificationPoster
#else
@used @section(".init_array")
private let loadTimeInitializer: @convention(c) () -> Void = installChangeNotificationPoster
#endif
