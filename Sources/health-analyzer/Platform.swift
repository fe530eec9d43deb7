#if canImport(Glibc)
    // @preconcurrency: `stdout`, a C global, is read once (`standardOutputStream`).
    @preconcurrency import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The command line's calls into the C library (the terminal, signals, the process), in one
// file: the only file of the CLI that imports it (docs/architecture.md).

private func cExit(_ code: Int32) -> Never { exit(code) }

/// The C library's `stdout` (a global `FILE *` it owns; read on the main thread, before any
/// other thread prints).
private func standardOutputStream() -> UnsafeMutablePointer<FILE>? { stdout }
private func cSleep(_ seconds: UInt32) { _ = sleep(seconds) }

/// The message the signal handler writes (static bytes: no allocation in a handler).
nonisolated(unsafe) private var interruptionMessage: StaticString = "health-analyzer: interrupted\n"

/// 1 while a progress line is on the terminal; read by the signal handler.
nonisolated(unsafe) private var progressLineIsDrawn: sig_atomic_t = 0

/// The terminal, the signals and the process, as the command line uses them.
enum Platform {
    /// Whether standard error is a terminal (not a pipe, a file or cron's mail).
    static var standardErrorIsATerminal: Bool { isatty(2) != 0 }

    /// The width of the terminal on standard error in columns (`TIOCGWINSZ`), or nil when it
    /// is not a terminal or does not say.
    static var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Ends the process with `code`.
    static func exit(_ code: Int32) -> Never { cExit(code) }

    /// Sleeps `seconds` (the tests' pause hook).
    static func sleep(seconds: UInt32) { cSleep(seconds) }

    /// Ends the process at once with SIGKILL (the tests' kill hook: no cleanup runs).
    static func killSelf() { kill(getpid(), SIGKILL) }

    /// Whether a progress line is drawn on standard error, so that a signal clears it first.
    static func setProgressLineDrawn(_ drawn: Bool) { progressLineIsDrawn = drawn ? 1 : 0 }
    static var isProgressLineDrawn: Bool { progressLineIsDrawn != 0 }

    /// On SIGINT and SIGTERM from now on: clear a drawn progress line, write `message` (what
    /// became of the work) to standard error, then end with the signal as if unhandled.
    static func onInterruption(say message: StaticString) {
        interruptionMessage = message
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { received in
                if progressLineIsDrawn != 0 {
                    let clear: StaticString = "\r\u{1B}[K"  // static bytes: no allocation in a handler
                    _ = write(2, clear.utf8Start, clear.utf8CodeUnitCount)
                }
                let said = interruptionMessage
                _ = write(2, said.utf8Start, said.utf8CodeUnitCount)
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// Standard output written line by line even to a pipe or a file (a scheduler's log keeps
    /// every line printed before a kill).
    static func lineBufferStandardOutput() {
        setvbuf(standardOutputStream(), nil, _IOLBF, 0)
    }

    /// From now on, SIGINT and SIGTERM are received by a thread of their own (blocked in every
    /// other thread: call this before any thread starts): it writes `message` to standard
    /// error, runs `cleanUp` (in a thread, so it may lock and remove files), then ends the
    /// process with the signal as if unhandled (status 128 + the signal in a shell).
    static func onTermination(say message: StaticString, cleanUp: @escaping @Sendable () -> Void) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let box = TerminationWork(message: message, cleanUp: cleanUp, signals: set)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(box).toOpaque()
        pthread_create(
            &thread, nil,
            { context in
                let work = Unmanaged<TerminationWork>.fromOpaque(context!).takeRetainedValue()
                var signals = work.signals
                var received: Int32 = 0
                while sigwait(&signals, &received) != 0 {}
                _ = write(2, work.message.utf8Start, work.message.utf8CodeUnitCount)
                work.cleanUp()
                signal(received, SIG_DFL)
                var one = sigset_t()
                sigemptyset(&one)
                sigaddset(&one, received)
                pthread_sigmask(SIG_UNBLOCK, &one, nil)
                raise(received)
                return nil
            }, context)
        pthread_detach(thread)
    }
}

/// What the termination thread does (`Platform.onTermination`).
private final class TerminationWork: @unchecked Sendable {
    let message: StaticString
    let cleanUp: @Sendable () -> Void
    let signals: sigset_t

    init(message: StaticString, cleanUp: @escaping @Sendable () -> Void, signals: sigset_t) {
        self.message = message
        self.cleanUp = cleanUp
        self.signals = signals
    }
}
