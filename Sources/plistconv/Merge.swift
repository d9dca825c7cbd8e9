import ArgumentParser
import PlistKit
import PlistRepository

/// `plistconv merge BASE OURS THEIRS [-o OUT]`: a three-way merge by key path, as git's merge
/// driver (`plistconv merge %O %A %B -o %A`).
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration.plistconvCommand(
        "merge",
        abstract: "Merge two changed versions of a property list with their common base, by key path.",
        discussion: """
            Dictionaries merge key by key. Arrays of distinct strings (an Xcode project's children, \
            files, targets and build phases; URL schemes) merge by identity: what either side added \
            or removed is added or removed. Other arrays merge as diff3 merges lines, element by \
            element. In an Xcode project, an object one side removed while the merge still refers \
            to it is kept, and reported.

            The result keeps OURS's format and layout: a binary file stays binary; a text file that \
            plistconv's writer reproduces (XML as Foundation writes it, a project as Xcode writes \
            it) is written by it, so untouched parts keep their bytes; a file laid out by hand is \
            merged line by line when the lines merge to the same value, else it is written in \
            plistconv's layout and the merge exits 1 for a review. BASE may be empty (no common \
            ancestor).

            Each conflict (both sides changed one value differently) is listed on standard error by \
            its key path. A text file then holds git's conflict markers around the lines that \
            differ (<<<<<<< ours, =======, >>>>>>> theirs); a binary file holds our side (git keeps \
            both sides in its index).

            Exit status: 0 for a clean merge, 1 with conflicts, 2 on error (OUT untouched).
            As git's merge driver: git config merge.plist.driver 'plistconv merge %O %A %B -o %A'
            """
    )

    @Argument(help: "The common ancestor (an empty file when there is none).")
    var base: String

    @Argument(help: "Our version; the result keeps its format and layout.")
    var ours: String

    @Argument(help: "Their version.")
    var theirs: String

    @Option(name: [.short, .customLong("output")], help: "Write the result here (git: %A), else to standard output.")
    var output: String?

    func validate() throws {
        guard [base, ours, theirs].filter({ $0 == "-" }).count < 2 else {
            throw ValidationError("standard input can be read only once")
        }
    }

    func run() throws {
        let baseVersion = try read(base, mayBeEmpty: true)
        let oursVersion = try read(ours)
        let theirsVersion = try read(theirs)
        let destination = output ?? "-"
        let merged: PlistFileMerge
        do {
            merged = try PlistFileMerge(base: baseVersion, ours: oursVersion, theirs: theirsVersion)
            try Terminal.output(merged.bytes, to: destination)
        } catch {
            Terminal.report(error, file: Terminal.displayName(destination, isOutput: true))
            throw ExitCode(2)
        }
        for conflict in merged.conflicts {
            Terminal.writeError("plistconv: \(Terminal.displayName(ours, isOutput: false)): \(conflict.line)\n")
        }
        if let loss = merged.layoutLoss {
            Terminal.writeError(
                "plistconv: \(Terminal.displayName(ours, isOutput: false)): \(loss): the result is written in "
                    + "plistconv's layout; check it\n")
        }
        if !merged.conflicts.isEmpty || merged.layoutLoss != nil { throw ExitCode(1) }
    }

    /// The version in `file`; exit status 2 with the reason on standard error when it cannot be read.
    private func read(_ file: String) throws -> MergeVersion {
        guard let version = try read(file, mayBeEmpty: false) else { throw ExitCode(2) }
        return version
    }

    /// The version in `file`, or nil for an empty file when `mayBeEmpty` (no common ancestor);
    /// exit status 2 with the reason on standard error when it cannot be read.
    private func read(_ file: String, mayBeEmpty: Bool) throws -> MergeVersion? {
        do throws(PlistError) {
            let bytes = try Terminal.bytes(of: file)
            if bytes.isEmpty, mayBeEmpty { return nil }
            return try MergeVersion(bytes: bytes)
        } catch {
            Terminal.report(error, file: Terminal.displayName(file, isOutput: false))
            throw ExitCode(2)
        }
    }
}
