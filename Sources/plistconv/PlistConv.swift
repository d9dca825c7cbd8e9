import ArgumentParser

/// The `plistconv` command: converts, checks, prints and edits property lists.
@main
struct PlistConv: ParsableCommand {
    /// The tool's name, which every command names as its super command
    /// (`CommandConfiguration.plistconvCommand`).
    static let name = "plistconv"

    static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Convert, check, print and edit property lists (binary, XML, OpenStep, JSON).",
        discussion: """
            Exit status: 0 on success, 1 when an input is not a valid property list or a file \
            cannot be read or written (with one line per failure on standard error: \
            "plistconv: FILE: reason, with its line:column or byte offset"), 64 for a usage error. \
            diff and merge exit as diff and git's merge drivers do: 0, 1 for differences or \
            conflicts, 2 for trouble (a usage error included).

            plutil's spellings work too: -convert FMT, -lint, -p, -extract KEYPATH FMT, -type \
            KEYPATH, -insert/-replace KEYPATH -TYPE VALUE, -remove KEYPATH, -create FMT, -help, and \
            -o, -e, -s, -r, -n, -expect, -append. So do libplist's: plistutil -i IN [-o OUT] \
            [-f bin|xml|json|openstep], -p FILE. `--` ends the options, so that files and key paths \
            may start with -.

            Read limits, with any command: --max-values N, the most values a file read whole may \
            hold in memory (default 16777216; it also bounds the bytes read into memory, 64 per \
            value and 1 GiB), and --max-depth N, the deepest nesting read and written (default 512). \
            Commands that do not hold a file's values (extract and type of binary files, lint \
            --quick, --stream) read files of any size.

            plistconv buddy [-c COMMAND]... [-x] FILE is macOS's PlistBuddy (so is plistconv run \
            under the name PlistBuddy): plistconv buddy -h lists its commands.
            """,
        subcommands: [
            Convert.self, Lint.self, Print.self, Extract.self, TypeOf.self, Insert.self, Replace.self,
            Remove.self, Create.self, ArchivePrint.self, Defaults.self, Diff.self, Merge.self,
        ],
        defaultSubcommand: Convert.self
    )

    static func main() {
        Platform.reportFileSizeLimitAsError()
        // The read limits are the whole command line's (`ReadLimits.current` reads them again).
        let given: [String]
        do throws(ReadLimits.UsageError) {
            given = try ReadLimits.parse(Array(CommandLine.arguments.dropFirst())).rest
        } catch {
            Terminal.writeError("plistconv: \(error.message)\n")
            exit(withError: ExitCode.validationFailure)
        }
        let program = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
        let spelled = CommandSpelling.normalized(given)
        for route in routes {
            if let run = route.take(program, route.spelling == .given ? CommandSpelling.Line(words: given) : spelled) {
                run()
            }
        }
    }

    /// Every way into plistconv's command line, in the order they are tried: the first route
    /// that takes the command line (without the read limits: `ReadLimits`) runs it and exits.
    /// The tools with a command line of their own take it as it was given; the rest take it in
    /// plistconv's spelling, to which `CommandSpelling` rewrites plutil's and libplist's.
    static let routes: [Route] = [
        // PlistBuddy's command line (its -h is its help), under its name or after `buddy`.
        Route(program: "PlistBuddy") { Buddy.main($0) },
        Route(word: "buddy", spelling: .given) { Buddy.main($0) },
        // defaults' own parser: ArgumentParser's pass-through takes time quadratic in the
        // number of words, and `write KEY -array V...` may have tens of thousands.
        Route(word: "defaults", spelling: .given) { words in
            do { try Defaults.run(words) } catch { Defaults.exit(withError: error) }
            Defaults.exit()
        },
        // The common convert and lint lines and git's textconv, without ArgumentParser's
        // reflection.
        Route { line in QuickCommandLine.parse(line).map { command in { command.runAndExit() } } },
        // diff and merge exit as diff and git's merge drivers do.
        Route(word: "diff", spelling: .plistconv) { runExitingAsDiff(Diff.self, $0) },
        Route(word: "merge", spelling: .plistconv) { runExitingAsDiff(Merge.self, $0) },
        // Any other command, parsed by its own command alone (start-up is most of a small
        // file's conversion).
        Route(parsingWithArgumentParser: { words in
            parseNamedCommand(words).map { parsed in
                {
                    var command = parsed
                    do { try command.run() } catch { exit(withError: error) }
                    exit()
                }
            }
        }),
        // Help, usage errors and the rest: ArgumentParser's whole command tree.
        Route(parsingWithArgumentParser: { words in
            {
                main(words)
                exit()
            }
        }),
    ]

    /// Runs `command` (diff or merge) on `arguments` with diff's exit statuses: a usage error is
    /// 2, as any other error of theirs, not ArgumentParser's 64 (git and scripts read 2 as
    /// "trouble" and 1 as "differences" or "conflicts").
    static func runExitingAsDiff(_ command: any ParsableCommand.Type, _ arguments: [String]) -> Never {
        do {
            var parsed = try command.parseAsRoot(arguments)
            try parsed.run()
            command.exit()
        } catch {
            guard command.exitCode(for: error) == .validationFailure else { command.exit(withError: error) }
            Terminal.writeError(command.fullMessage(for: error) + "\n")
            command.exit(withError: ExitCode(2))
        }
    }

    /// `arguments` parsed by the command their first word names alone, or nil when that command
    /// does not accept them as they are (help, a usage error), which the whole tree then reports.
    ///
    /// Start-up is most of a small file's conversion, and parsing against the whole command tree
    /// costs several times more than against the one command: it builds every command's
    /// arguments, by reflection.
    static func parseNamedCommand(_ arguments: [String]) -> (any ParsableCommand)? {
        guard let verb = arguments.first,
            let command = configuration.subcommands.first(where: { $0.configuration.commandName == verb })
        else { return nil }
        // A request for help parses as a help command: the whole tree gives the full help.
        guard let parsed = try? command.parseAsRoot(Array(arguments.dropFirst())), type(of: parsed) == command
        else { return nil }
        return parsed
    }
}

extension CommandConfiguration {
    /// The configuration of one of plistconv's commands. It names the tool as the command's
    /// super command, so that a command parsed alone (`PlistConv.parseNamedCommand(_:)`) is not
    /// taken for a whole tool: ArgumentParser then skips its check for
    /// `--generate-completion-script`, which parses two more commands by reflection, a large part
    /// of a small conversion's start-up. The whole tree, which is rooted at `PlistConv`, still
    /// answers that option. (ArgumentParser spells the parameter with an underscore; this is the
    /// one place that uses it.)
    static func plistconvCommand(
        _ name: String, abstract: String, usage: String? = nil, discussion: String = ""
    ) -> CommandConfiguration {
        CommandConfiguration(
            commandName: name, _superCommandName: PlistConv.name, abstract: abstract, usage: usage,
            discussion: discussion)
    }
}

/// One way into the command line: which command lines it takes, and what runs them.
struct Route: Sendable {
    /// How a route reads the command line.
    enum Spelling {
        /// As it was given: PlistBuddy's and `defaults`' command lines are their own.
        case given
        /// In plistconv's spelling (`CommandSpelling.normalized`).
        case plistconv
    }

    let spelling: Spelling
    /// What runs the command line and exits, given the name the tool runs under and the command
    /// line, if this route takes it.
    let take: @Sendable (_ program: String, _ line: CommandSpelling.Line) -> (() -> Never)?

    /// The command line of the tool run under the name `program`.
    init(program: String, run: @escaping @Sendable (_ words: [String]) -> Never) {
        spelling = .given
        take = { name, line in name == program ? { run(line.words) } : nil }
    }

    /// The command lines whose first word is `word`; `run` takes the words after it.
    init(word: String, spelling: Spelling, run: @escaping @Sendable (_ words: [String]) -> Never) {
        self.spelling = spelling
        take = { _, line in line.words.first == word ? { run(Array(line.words.dropFirst())) } : nil }
    }

    /// The command lines in plistconv's spelling that `parse` takes.
    init(parse: @escaping @Sendable (_ line: CommandSpelling.Line) -> (() -> Never)?) {
        spelling = .plistconv
        take = { _, line in parse(line) }
    }

    /// The command lines in plistconv's spelling that `parse` takes with ArgumentParser: while
    /// it parses and runs them, `Convert.spelling` is the line's, which decides what a
    /// conversion's files mean.
    init(parsingWithArgumentParser parse: @escaping @Sendable (_ words: [String]) -> (() -> Never)?) {
        spelling = .plistconv
        take = { _, line in
            Convert.$spelling.withValue(line.conversion) { parse(line.words) }.map { run in
                { Convert.$spelling.withValue(line.conversion) { run() } }
            }
        }
    }
}
