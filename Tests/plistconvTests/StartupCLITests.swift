import Foundation
import TestSupport
import Testing

/// What starting `plistconv` loads (issue 47 item 3): git runs it once per file per revision,
/// so what the loader maps is paid on every run. Before, plistconv linked Foundation itself (for
/// `Plist(propertyListObject:)` and the preferences' change notification), which loads
/// FoundationInternationalization and ICU's code and data.
@Suite struct StartupCLITests {
    #if os(Linux)
    @Test func loadsFoundationEssentialsButNotFoundationOrICU() throws {
        let tool = try Tool.location.get().path
        // What the dynamic loader would map for the program, as `ldd` lists it.
        let output = try Tool.run(["-c", #"LD_TRACE_LOADED_OBJECTS=1 exec "$0""#, tool], executable: "/bin/sh")
        let libraries = output.stdoutText
        // The tests' build links the Swift libraries dynamically: they are listed.
        #expect(libraries.contains("libFoundationEssentials"), "\(output)")
        for name in ["libFoundation.so", "libFoundationInternationalization", "ICU"] {
            #expect(!libraries.contains(name), "\(name) in \(libraries)")
        }
    }
    #endif
}
