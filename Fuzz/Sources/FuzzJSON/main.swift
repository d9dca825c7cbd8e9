import FuzzSupport

// Seeds: json

// JSON (RFC 8259 in UTF-8, UTF-16 or UTF-32, with the typed values): whatever the reader
// accepts must survive every writer.
FuzzCheck.main { bytes throws(PlistError) in try Plist(json: bytes, options: FuzzCheck.limits) }
