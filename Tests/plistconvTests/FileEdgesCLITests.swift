import Foundation
import PlistKit
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The edges around files (issue 43), run as real processes: outputs that are devices, FIFOs
/// or descriptors' names are written in place through the one output layer
/// (`FileIO.writeOutput`); inputs are sized, typed and read to their end by the one input
/// layer, with the same limits for every command; `defaults` takes long lists in linear time;
/// limit errors name plistconv's options; every error is one line. Each test failed on the code
/// before.
@Suite(.timeLimit(.minutes(10))) struct FileEdgesCLITests {
    /// A small binary property list, and its XML as `plistconv -f xml` writes it.
    static func sample(in folder: TempFolder) throws -> (input: String, xml: [UInt8]) {
        let input = folder.path("in.plist")
        try (["name": "sample", "list": [1, 2, 3], "flag": true] as Plist).write(to: input, format: .binary)
        let run = try Tool.run(["-f", "xml", input, "-o", "-"])
        #expect(run.status == 0, "\(run)")
        return (input, run.stdout)
    }

    /// Runs `script` with `sh -c`, the tool as `$0` (so that `"$0" ARGS` runs plistconv).
    static func shell(_ script: String, in folder: TempFolder) throws -> Output {
        try Tool.run(["-c", script, try Tool.location.get().path], in: folder.url, executable: "/bin/sh")
    }

    /// Makes a character device node at `path` as `/dev/null` (1, 3) or `/dev/full` (1, 7) are;
    /// false where nodes cannot be made (not root, or a file system mounted `nodev`).
    static func makeDevice(_ path: String, minor: UInt32) -> Bool {
        // Linux's encoding of device numbers below 256: major << 8 | minor.
        mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | minor)) == 0
    }

    static func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR
    }

    static func canMakeDevices() -> Bool {
        guard let folder = try? TempFolder() else { return false }
        defer { folder.remove() }
        // Opening a node fails on a file system mounted nodev.
        guard makeDevice(folder.path("probe"), minor: 3) else { return false }
        let fd = open(folder.path("probe"), O_WRONLY)
        defer { if fd >= 0 { close(fd) } }
        return fd >= 0
    }

    // MARK: - One way out

    /// Every command that writes a file, given a null device or a full device as its output
    /// (or a link to one): the node stays the device it was; the null device takes the bytes
    /// (exit 0), the full one refuses them with one line (exit 1). The code before renamed a
    /// regular file over the node, which run as root destroys `/dev/null`.
    @Test(.enabled(if: canMakeDevices(), "character device nodes cannot be made here (root and a dev mount needed)"))
    func devicesAreWrittenInPlace() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let (input, _) = try Self.sample(in: folder)
        let xml = folder.path("in.xml")
        #expect(try Tool.run(["-f", "xml", input, xml]).status == 0)
        #expect(Self.makeDevice(folder.path("null"), minor: 3) && Self.makeDevice(folder.path("full"), minor: 7))
        #expect(symlink(folder.path("null"), folder.path("link")) == 0)
        let home = folder.path("home")
        #expect(try Tool.run(["defaults", "--container", home, "write", "com.example.edges", "k", "v"]).status == 0)
        func commands(_ out: String) -> [[String]] {
            [
                ["-f", "xml", input, out], ["convert", "-f", "json", input, "-o", out],
                ["-f", "xml", "--stream", input, out], ["-f", "binary", "--stream", xml, out],
                ["merge", input, input, input, "-o", out], ["extract", "list", "xml1", input, "-o", out],
                ["replace", "name", "-string", "x", input, "-o", out],
                ["defaults", "--container", home, "export", "com.example.edges", out],
            ]
        }
        for node in ["null", "link"] {
            for command in commands(folder.path(node)) {
                let run = try Tool.run(command)
                #expect(run.status == 0 && run.stderr.isEmpty, "\(command): \(run)")
                #expect(Self.isCharacterDevice(folder.path("null")), "\(command) replaced the device")
            }
        }
        for command in commands(folder.path("full")) {
            let run = try Tool.run(command)
            #expect(run.status == (command[0] == "merge" ? 2 : 1), "\(command): \(run)")
            #expect(run.stderr.hasSuffix("No space left on device\n"), "\(command): \(run)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(command): \(run)")
            #expect(Self.isCharacterDevice(folder.path("full")), "\(command) replaced the device")
        }
        #expect(
            try folder.names() == ["full", "home", "in.plist", "in.xml", "link", "null"], "no temporary file left")
    }

    /// A FIFO as the output: its reader gets exactly the bytes a regular file gets, in memory and
    /// streaming; a FIFO that no process reads is refused at once with one line, not waited on.
    @Test func aFIFOOutputGoesToItsReader() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let (input, xml) = try Self.sample(in: folder)
        #expect(mkfifo(folder.path("fifo"), 0o600) == 0)
        // What each command gives a regular file or standard output: a merge of three equal
        // versions writes OURS as it is.
        let printed = try Tool.run(["print", input]).stdout
        let expected = [
            "\"$0\" -f xml in.plist fifo": xml, "\"$0\" -f xml --stream in.plist fifo": xml,
            "\"$0\" print in.plist > fifo": printed,
            "\"$0\" merge in.plist in.plist in.plist -o fifo": try folder.read("in.plist"),
        ]
        for command in [
            "\"$0\" -f xml in.plist fifo", "\"$0\" -f xml --stream in.plist fifo", "\"$0\" print in.plist > fifo",
            "\"$0\" merge in.plist in.plist in.plist -o fifo",
        ] {
            // The reader may not have opened the FIFO yet when the command looks for one: then
            // the command is refused, and tried again. If it never writes, opening the FIFO
            // read-write (which does not wait) gives the reader an end of file, so that `wait`
            // returns: `timeout` cannot, since a test runner's thread spawns with its signals
            // blocked and the children inherit that.
            let run = try Self.shell(
                """
                cat fifo > got & for try in $(seq 50); do \(command) 2>err; status=$?; \
                grep -q 'no process is reading' err || break; sleep 0.1; done; \
                [ $status -eq 0 ] || { exec 3<>fifo; exec 3>&-; }; cat err >&2; rm err; wait; exit $status
                """, in: folder)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(command): \(run)")
            #expect(try folder.read("got") == expected[command], "\(command)")
        }
        let noReader = try Tool.run(["-f", "xml", input, folder.path("fifo")])
        #expect(noReader.status == 1)
        #expect(noReader.stderr == "plistconv: \(folder.path("fifo")): a FIFO that no process is reading\n")
        #expect(try folder.names() == ["fifo", "got", "in.plist"])
    }

    /// `/dev/stdout` (and `/dev/fd/1`) write to the descriptor the shell opened: appended to a
    /// file opened with `>>`, into a pipe. The code before renamed a new file over the file
    /// behind standard output, which lost what `>>` appended to, and failed on a pipe.
    @Test func descriptorNamesWriteToTheOpenDescriptor() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let (_, xml) = try Self.sample(in: folder)
        for name in ["/dev/stdout", "/dev/fd/1"] {
            let appended = try Self.shell("echo first > out; \"$0\" -f xml in.plist \(name) >> out", in: folder)
            #expect(appended.status == 0, "\(name): \(appended)")
            #expect(try folder.read("out") == Array("first\n".utf8) + xml, "\(name)")
            let piped = try Self.shell("\"$0\" -f xml in.plist -o \(name) | cat", in: folder)
            #expect(piped.status == 0 && piped.stdout == xml, "\(name): \(piped)")
        }
    }

    // MARK: - One way in

    /// A 10 GiB sparse file that starts as a binary property list: every command refuses it from
    /// its size, at once, in one line that names the option raising the limit, within 1 GiB of
    /// data (`ulimit -d`). The code before aborted on allocating 10 GiB in most commands, and
    /// `merge`, `buddy` and `defaults` refused it with other words.
    @Test func aHugeSparseFileIsRefusedByItsSize() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let (input, _) = try Self.sample(in: folder)
        let sparse = folder.path("sparse")
        #expect(FileManager.default.createFile(atPath: sparse, contents: Data("bplist00".utf8)))
        #expect(truncate(sparse, 10 << 30) == 0)
        let message =
            "the input is larger than 2147483648 bytes, the most read into memory under the read limits "
            + "(raise it with --max-values)"
        for (command, status) in [
            (["-f", "binary", sparse, folder.path("o")], 1),
            (["-f", "binary", "--stream", sparse, folder.path("o")], 1),
            (["-f", "json", sparse, folder.path("o")], 1), (["lint", sparse], 1), (["print", sparse], 1),
            (["-p", sparse], 1), (["archive-print", sparse], 1), (["diff", sparse, input], 2),
            (["merge", sparse, input, input], 2), (["diff", "--textconv", sparse], 2),
        ] {
            let run = try Self.shell("ulimit -d 1048576 && exec \"$0\" \"$@\"", arguments: command, in: folder)
            #expect(run.status == Int32(status), "\(command): \(run)")
            #expect(run.stderr.contains(message) && run.stderr.split(separator: "\n").count == 1, "\(command): \(run)")
        }
        let buddy = try Self.shell("ulimit -d 1048576 && exec \"$0\" buddy -c Print sparse", in: folder)
        #expect(buddy.status == 1 && buddy.stderr == "Error Reading File: sparse: \(message)\n", "\(buddy)")
        let stdin = try Self.shell("ulimit -d 1048576 && exec \"$0\" lint - < sparse", in: folder)
        #expect(stdin.status == 1 && stdin.stderr == "plistconv: <stdin>: \(message)\n", "\(stdin)")
        let home = folder.path("home")
        let imported = try Self.shell(
            "ulimit -d 1048576 && exec \"$0\" defaults --container home import com.example.big sparse", in: folder)
        #expect(imported.status == 1 && imported.stderr.hasSuffix(message + "\n"), "\(imported) \(home)")
        #expect(imported.stderr.split(separator: "\n").count == 1)
    }

    /// A named FIFO whose writer comes just after plistconv opened it (a writer blocked in its
    /// own `open` is woken by ours) is read to its end by every command that opens it by name.
    /// The code before read it as "the input is empty": `merge` took it for a missing base, and
    /// PlistBuddy's `Import` stored empty data. (A regular file read to its size when opened:
    /// `InputTests.aFileIsReadToItsSizeWhenOpened`.)
    @Test func aNamedFIFOWithAWriterIsReadToItsEnd() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let (_, xml) = try Self.sample(in: folder)
        #expect(mkfifo(folder.path("fifo"), 0o600) == 0)
        let lint = try Self.shell(
            "(sleep 0.3; timeout 10 sh -c 'cat in.plist > fifo') & \"$0\" lint fifo; status=$?; wait; exit $status",
            in: folder)
        #expect(lint.status == 0 && lint.stdoutText == "fifo: OK\n", "\(lint)")
        let convert = try Self.shell(
            "(sleep 0.3; timeout 10 sh -c 'cat in.plist > fifo') & \"$0\" -f xml fifo -o -; status=$?; wait; exit $status",
            in: folder)
        #expect(convert.status == 0 && convert.stdout == xml, "\(convert)")
        // THEIRS changes a key that the base (through the FIFO) has: no conflict with a base.
        #expect(
            try Tool.run([
                "replace", "name", "-string", "theirs", folder.path("in.plist"), "-o", folder.path("theirs.plist"),
            ]).status == 0)
        let merge = try Self.shell(
            "(sleep 0.3; timeout 10 sh -c 'cat in.plist > fifo') & \"$0\" merge fifo in.plist theirs.plist -o merged.plist; status=$?; wait; exit $status",
            in: folder)
        #expect(merge.status == 0, "\(merge)")
        #expect(try Plist(contentsOf: folder.path("merged.plist"))["name"] == "theirs")
        let imported = try Self.shell(
            "(sleep 0.3; timeout 10 sh -c 'cat in.plist > fifo') & \"$0\" buddy -c 'Import blob fifo' target.plist; status=$?; wait; exit $status",
            in: folder)
        #expect(imported.status == 0, "\(imported)")
        let blob = try Plist(contentsOf: folder.path("target.plist"))["blob"]
        #expect(blob == .data(Data(try folder.read("in.plist"))))
    }

    // MARK: - Limits, budgets and messages

    /// A file read whole holds at most `--max-values` values (2^24 by default), whatever its
    /// size: past them it is refused, in one line that names the option; raised, it is read.
    /// Paths that hold no values (`lint --quick`, `extract` of binary files) read it as before.
    @Test func theValueBudgetNamesItsOption() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = folder.path("many.plist")
        try Plist.array((0..<5_000).map { .dictionary(["id": .integer(PlistInteger($0)), "kind": "item"]) })
            .write(to: file, format: .binary)
        let limited = try Tool.run(["--max-values", "1000", "lint", file])
        #expect(limited.status == 1, "\(limited)")
        #expect(
            limited.stderr
                == "plistconv: \(file): byte 99789: more than 1000 values, counting shared references each time "
                + "(raise it with --max-values)\n")
        #expect(try Tool.run(["lint", "--max-values=20000", file]).stdoutText == "\(file): OK\n")
        #expect(try Tool.run(["--max-values", "1000", "lint", "--quick", file]).status == 0)
        #expect(try Tool.run(["--max-values", "1000", "extract", "4999.id", "raw", file]).stdoutText == "4999\n")
        let deep = try Tool.run(["--max-depth", "1", "-f", "json", file, "-o", "-"])
        #expect(
            deep.stderr.hasSuffix("containers are nested deeper than the limit of 1 (raise it with --max-depth)\n"),
            "\(deep)")
        let usage = try Tool.run(["lint", "--max-values", "none", file])
        #expect(usage.status == 64 && usage.stderr == "plistconv: --max-values takes a positive whole number\n")
        let buddy = try Tool.run(["--max-values", "1000", "buddy", "-c", "Print :0:kind", file])
        #expect(buddy.status == 1 && buddy.stderr.contains("(raise it with --max-values)"), "\(buddy)")
    }

    /// Every error of PlistBuddy and `defaults` is one line: a file PlistBuddy cannot read, and a
    /// domain name too long for a file name, were two; a domain name with a line feed, a
    /// carriage return or an escape is refused (it listed across two lines in `domains`).
    @Test func errorsAreOneLineAndDomainNamesHoldNoControls() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let zero = try Tool.run(["buddy", "-c", "Print", "/dev/zero"])
        #expect(zero.status == 1)
        #expect(
            zero.stderr
                == "Error Reading File: /dev/zero: a character device (only files, pipes and terminals are read)\n")
        let home = folder.path("home")
        let long = try Tool.run([
            "defaults", "--container", home, "write", String(repeating: "x", count: 300), "k", "v",
        ])
        #expect(long.status == 1 && long.stderr.split(separator: "\n").count == 1, "\(long)")
        #expect(long.stderr.contains("at most 215 bytes"))
        for control in ["\n", "\r", "\u{1B}"] {
            let run = try Tool.run(["defaults", "--container", home, "write", "a\(control)b", "k", "v"])
            #expect(run.status == 1 && run.stderr.hasSuffix(": a name may not hold control characters\n"), "\(run)")
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
        }
        #expect(try Tool.run(["defaults", "--container", home, "domains"]).stdoutText == "\n")
    }

    /// `defaults write` with tens of thousands of items finishes, with every item, for every verb
    /// that takes a list (8,000 took 5.4 s and 50,000 over 10 s in a release build before:
    /// quadratic in the words; 20,000 then ran past `Tool.run`'s one minute in a debug build).
    @Test func defaultsListsOfManyItems() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let home = folder.path("home")
        let count = 20_000
        let items = (0..<count).flatMap { ["-int", String($0)] }
        let pairs = (0..<count).flatMap { ["k\($0)", "-int", String($0)] }
        for (key, words) in [
            ("a", ["-array"] + items), ("b", ["-array-add"] + items), ("c", ["-dict"] + pairs),
            ("d", ["-dict-add"] + pairs),
        ] {
            let run = try Tool.run(["defaults", "--container", home, "write", "com.example.many", key] + words)
            #expect(run.status == 0, "\(key): \(run)")
        }
        let file = folder.path("home/Library/Preferences/com.example.many.plist")
        let value = try Plist(contentsOf: file)
        for key in ["a", "b"] {
            #expect(value[key]?.array?.count == count && value[key]?[count - 1] == .integer(PlistInteger(count - 1)))
        }
        for key in ["c", "d"] { #expect(value[key]?.dictionary?.count == count && value[key]?["k7"] == 7) }
    }

    /// `diff` shows values that differ as different: NaNs with other payloads (which both printed
    /// `nan`) and dates a microsecond apart (which printed alike).
    @Test func diffShowsValuesThatPrintAlikeExactly() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let date = Date(timeIntervalSinceReferenceDate: 599_529_600)
        let first = folder.path("a.plist")
        let second = folder.path("b.plist")
        try (["v": .real(Double(bitPattern: 0x7FF8_0000_0000_0001)), "d": .date(date)] as Plist).write(
            to: first, format: .binary)
        try (["v": .real(Double(bitPattern: 0x7FF8_0000_0000_0002)), "d": .date(date + 0.000001)] as Plist)
            .write(to: second, format: .binary)
        let run = try Tool.run(["diff", first, second])
        #expect(run.status == 1)
        let lines = run.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.contains("changed  v: nan (bits 0x7ff8000000000001) → nan (bits 0x7ff8000000000002)"), "\(run)")
        let dates = try #require(lines.first { $0.hasPrefix("changed  d: ") }).dropFirst("changed  d: ".count)
        let sides = dates.split(separator: " → ").map(String.init)
        #expect(sides.count == 2 && sides[0] != sides[1], "\(run)")
    }

    /// An element with a namespace prefix is no property-list element, as Foundation and plistlib
    /// say, on every read path (it read as the element without its prefix).
    @Test func namespacedElementsAreRefused() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let file = try folder.write(Array("<plist><x:true xmlns:x=\"y\"/></plist>".utf8), to: "ns.plist")
        for command in [
            ["lint", file], ["-f", "json", file, "-o", "-"],
            ["-f", "binary", "--stream", file, "-o", folder.path("o")],
        ] {
            let run = try Tool.run(command)
            #expect(run.status == 1 && run.stderr.hasSuffix("unknown element <x:true>\n"), "\(command): \(run)")
        }
        // A default namespace on <plist> is an attribute that both oracles ignore.
        let plain = try folder.write(Array("<plist xmlns=\"urn:z\"><true/></plist>".utf8), to: "plain.plist")
        #expect(try Plist(contentsOf: plain) == true)
    }
}

extension FileEdgesCLITests {
    /// Runs `script` with `sh -c`, the tool as `$0` and `arguments` as `$@`.
    static func shell(_ script: String, arguments: [String], in folder: TempFolder) throws -> Output {
        try Tool.run(["-c", script, try Tool.location.get().path] + arguments, in: folder.url, executable: "/bin/sh")
    }
}
