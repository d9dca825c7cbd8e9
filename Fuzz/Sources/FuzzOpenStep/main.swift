import FuzzSupport

// Seeds: openstep strings

// OpenStep, GNUstep and .strings text: whatever the reader accepts must survive every writer.
FuzzCheck.main { bytes throws(PlistError) in try Plist(openStep: bytes, options: FuzzCheck.limits) }
