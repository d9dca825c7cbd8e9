import FuzzSupport

// Seeds: binary

// Binary property lists: whatever the reader accepts must survive every writer.
FuzzCheck.main { bytes throws(PlistError) in try Plist(binary: bytes, options: FuzzCheck.limits) }
