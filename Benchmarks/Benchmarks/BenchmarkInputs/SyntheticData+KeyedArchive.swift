import PlistKit

extension SyntheticData {
    /// An `NSKeyedArchiver`-shaped dictionary whose `$objects` holds 150,000 entries: class
    /// descriptions, strings, numbers, bare UIDs and small objects whose values are UIDs.
    package static func keyedArchive() -> Plist {
        var random = SplitMix64(seed: 0xA_4C41)
        let count = 150_000
        let classes = [
            "NSMutableDictionary", "NSMutableArray", "NSMutableString", "NSDate", "NSURL", "NSUUID",
            "NSColor", "NSFont", "NSValue", "NSAttributedString", "DocumentNode", "LayerStyle",
        ]
        var objects: [Plist] = ["$null"]
        for name in classes {
            objects.append(["$classname": .string(name), "$classes": [.string(name), "NSObject"]])
        }
        func reference() -> Plist { .uid(UInt64(random.int(in: 1...(count - 1)))) }
        while objects.count < count {
            switch random.below(100) {
            case 0..<40:
                objects.append(.string(title(&random, words: 1...4) + " \(objects.count)"))
            case 40..<50:
                objects.append(reference())
            case 50..<58:
                objects.append(random.chance(0.5) ? Plist(random.below(100_000)) : .real(random.unit() * 1_000))
            default:
                var object: PlistDictionary = [
                    "$class": .uid(UInt64(random.int(in: 1...classes.count)))
                ]
                for key in objectKeys.shuffledPrefix(random.int(in: 1...4), &random) {
                    object[key] = reference()
                }
                objects.append(.dictionary(object))
            }
        }
        return [
            "$archiver": "NSKeyedArchiver",
            "$version": 100_000,
            "$top": ["root": .uid(UInt64(classes.count + 1))],
            "$objects": .array(objects),
        ]
    }

    private static let objectKeys = [
        "NS.string", "NS.objects", "NS.keys", "NS.time", "NS.base", "NS.relative", "name", "identifier",
        "children", "parent", "frame", "style", "attributes", "value",
    ]
}

extension Array {
    /// The first `count` elements of a partial Fisher-Yates shuffle.
    fileprivate func shuffledPrefix(_ count: Int, _ random: inout SplitMix64) -> ArraySlice<Element> {
        var elements = self
        for index in 0..<count {
            elements.swapAt(index, index + random.below(elements.count - index))
        }
        return elements.prefix(count)
    }
}
