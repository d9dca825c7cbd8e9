import FuzzSupport

// Seeds:
// (The shared corpus has no JSON: the seeds are in Fuzz/Seeds/FuzzJSON.)

// JSON text: whatever the reader accepts must survive every writer (typed JSON included).
FuzzCheck.main { bytes throws(PlistError) in
    let value = try Plist(json: bytes, options: FuzzCheck.limits)
    FuzzCheck.checkJSON(value)
    return value
}
