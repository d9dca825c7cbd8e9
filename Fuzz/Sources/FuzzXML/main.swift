import FuzzSupport

// Seeds: xml

// XML property lists: whatever the reader accepts must survive every writer.
FuzzCheck.main { bytes throws(PlistError) in try Plist(xml: bytes, options: FuzzCheck.limits) }
