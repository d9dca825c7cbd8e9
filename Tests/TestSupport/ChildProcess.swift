#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to its end with `posix_spawn` and `waitpid` on its own process id.
///
/// Foundation's `Process.waitUntilExit()` on Linux waits for a run loop to learn of the exit,
/// and a full test run (hundreds of child processes, several at once, some killed) once left a
/// test waiting forever for a `swiftc` that had already exited. Waiting on the process id
/// cannot miss the exit, and reaps no other child.
public enum ChildProcess {
    /// Runs `executable` with `arguments` in `directory`, standard input read from the file
    /// `stdin` (or /dev/null) and standard output and error written to the files `stdout` and
    /// `stderr` (created or truncated; /dev/null when nil). Returns the exit status, or 128 plus
    /// the signal that ended it.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil, stdin: String? = nil,
        stdout: String? = nil, stderr: String? = nil
    ) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Swift's Glibc module lacks posix_spawn_file_actions_addchdir_np: a shell changes folder
        // and then becomes the program.
        let command =
            directory.map { ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, $0, executable] + arguments }
            ?? [executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw SpawnError(executable: executable, code: spawned) }

        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw SpawnError(executable: executable, code: errno) }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// A program that could not be started or waited for.
    public struct SpawnError: Error, CustomStringConvertible {
        public var executable: String
        public var code: Int32
        public var description: String { "\(executable): \(String(cString: strerror(code)))" }
    }
}
