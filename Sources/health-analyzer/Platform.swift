#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The command line's calls into the C library (the terminal, signals, the process), in one
// file: the only file of the CLI that imports it (docs/architecture.md).

private func cExit(_ code: Int32) -> Never { exit(code) }
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
}
