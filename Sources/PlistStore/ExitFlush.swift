import PlistKit
import Synchronization
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Preferences {
    /// Flushes the changes of every live store when the process receives SIGTERM, SIGHUP or
    /// SIGINT, then lets the signal end the process as it would have (its status says it was
    /// ended by that signal).
    ///
    /// A library installs no signal handler by itself: without this call those signals end the
    /// process at once and the changes not yet flushed are lost (see
    /// <doc:DurabilityAndConcurrency>). The call starts one thread, which waits for the signals;
    /// the handlers only wake it. A signal the process ignores when this is called (SIGHUP
    /// under `nohup`) stays ignored; a handler the process had for these signals is replaced.
    /// Call it once, early in `main`; later calls do nothing.
    /// - Throws: ``PlistStoreError/Code/io`` when the thread or its pipe cannot be made.
    public static func flushOnTerminationSignals() throws(PlistStoreError) {
        try ExitFlush.installSignalHandlers()
    }
}

/// Flushes the live stores when the process ends normally (`exit`, or a return from `main`),
/// through one `atexit` handler installed with the first store, and, once asked, when SIGTERM,
/// SIGHUP or SIGINT arrive.
enum ExitFlush {
    /// Weak, so that a store is still freed (and flushed by its deinit) when its owner lets it go.
    private static let stores = WeakRegistry<ObjectIdentifier, Preferences>()
    private static let installed: Bool = {
        atexit { ExitFlush.flushAll() }
        return true
    }()

    static func register(_ store: Preferences) {
        _ = installed
        stores.register(store, as: ObjectIdentifier(store))
    }

    static func unregister(_ store: Preferences) {
        stores.drop(ObjectIdentifier(store))
    }

    private static func flushAll() {
        for store in stores.objects { store.flushPending() }
    }

    // MARK: Signals

    /// The pipe from the signal handler to the thread that flushes: the handler writes the
    /// signal's number, the only thing it does (`write` is async-signal-safe; flushing takes
    /// locks and allocates, so it must not run in a handler).
    private static let signalWriter = Atomic<Int32>(-1)
    private static let signalReader = Atomic<Int32>(-1)
    private static let signalsInstalled = Mutex(false)
    static let terminationSignals = [SIGTERM, SIGHUP, SIGINT]

    static func installSignalHandlers() throws(PlistStoreError) {
        try signalsInstalled.withLock { done throws(PlistStoreError) in
            guard !done else { return }
            let pipe: (read: FileDescriptor, write: FileDescriptor)
            do throws(Errno) {
                pipe = try FileIO.pipe()
                // The handler never waits: a signal arriving with the pipe full (nobody reading)
                // is dropped, the flush it asks for being under way already.
                try FileIO.setBlocking(pipe.write, false)
            } catch {
                throw PlistStoreError(.io, "cannot make a pipe: \(error)", path: "")
            }
            signalReader.store(pipe.read.rawValue, ordering: .releasing)
            signalWriter.store(pipe.write.rawValue, ordering: .releasing)
            #if canImport(Darwin)
            var thread: pthread_t? = nil
            #else
            var thread = pthread_t()
            #endif
            // SAFETY: `thread` is a local that `pthread_create` fills before it returns; the
            // thread's function is a closure that captures nothing and ignores its argument (nil).
            let started = unsafe pthread_create(
                &thread, nil,
                { _ in
                    ExitFlush.waitForSignal()
                    return nil
                }, nil)
            guard started == 0 else {
                throw PlistStoreError(
                    .io, "cannot start the thread that flushes on signals: \(Errno(rawValue: started))", path: "")
            }
            #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
            #else
            pthread_detach(thread)
            #endif
            for signal in terminationSignals { installHandler(signal) }
            done = true
        }
    }

    /// Installs the handler for `signal` unless the process ignores it.
    private static func installHandler(_ signal: Int32) {
        var current = sigaction()
        // SAFETY: `current` is a local that `sigaction` fills; it keeps no pointer to it.
        guard unsafe sigaction(signal, nil, &current) == 0 else { return }
        let handler: @convention(c) (Int32) -> Void = { signal in
            // `errno` is the interrupted code's: kept as it was.
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: signal)
            // SAFETY: one byte from a local. The one system call not made through `FileIO`: a
            // signal handler may only call async-signal-safe functions, and `write` is one;
            // it never waits, the pipe being non-blocking.
            _ = unsafe write(ExitFlush.signalWriter.load(ordering: .relaxed), &byte, 1)
            errno = saved
        }
        var action = sigaction()
        // SAFETY (through `sigaction` below): the handler fields of `sigaction` are a C union,
        // read and written here as the handler without flags (`SA_SIGINFO` is never set), and
        // `sigemptyset` and `sigaction` are given pointers to these locals for the call only.
        // Comparing the handler with `SIG_IGN` compares the two function pointers' bits.
        #if canImport(Darwin)
        let ignored =
            unsafe unsafeBitCast(current.__sigaction_u.__sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
        unsafe action.__sigaction_u.__sa_handler = handler
        #else
        let ignored =
            unsafe unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
            == unsafeBitCast(SIG_IGN, to: Int.self)
        unsafe action.__sigaction_handler.sa_handler = handler
        #endif
        guard !ignored else { return }
        unsafe sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        _ = unsafe sigaction(signal, &action, nil)
    }

    /// The flushing thread: waits for a signal's number, flushes every live store, then
    /// restores the signal's default action and sends it again, which ends the process.
    private static func waitForSignal() {
        let fd = FileDescriptor(rawValue: signalReader.load(ordering: .acquiring))
        var byte: [UInt8] = [0]
        guard (try? FileIO.read(fd, into: &byte)) == 1 else { return }
        flushAll()
        let signal = Int32(byte[0])
        var action = sigaction()
        // SAFETY: as in `installHandler`: the handler field set to `SIG_DFL`, pointers to locals.
        #if canImport(Darwin)
        unsafe action.__sigaction_u.__sa_handler = SIG_DFL
        #else
        unsafe action.__sigaction_handler.sa_handler = SIG_DFL
        #endif
        unsafe sigemptyset(&action.sa_mask)
        _ = unsafe sigaction(signal, &action, nil)
        kill(getpid(), signal)
        // The default action of these signals ends the process; wait for it.
        while true { pause() }
    }
}
