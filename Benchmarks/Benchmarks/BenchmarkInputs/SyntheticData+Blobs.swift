import Foundation
import PlistKit

extension SyntheticData {
    /// 320 random data blobs of 1 KiB to 129 KiB, about 21 MB in all.
    package static func blobs() -> Plist {
        var random = SplitMix64(seed: 0xB_10B5)
        return .array((0..<320).map { _ in .data(Data(random.bytes(random.int(in: 1_024...132_096)))) })
    }
}
