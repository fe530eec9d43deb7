import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A progress line on standard error, shown only when standard error is a terminal (silent in
/// cron jobs and pipes): what is done, the rate, the elapsed and the remaining time, cut to
/// the terminal's width. Redraws at most every 0.2 s. `finish()` clears it; so does Ctrl-C
/// (SIGINT) or SIGTERM, before the process ends with the signal.
final class ProgressLine: @unchecked Sendable {
    enum Unit {
        /// Bytes of input (shown in MB).
        case bytes
        /// Records replayed from an archive.
        case records
    }

    let label: String
    let unit: Unit
    let isEnabled: Bool
    private let started = Date()
    private var last = Date.distantPast
    private let lock = NSLock()

    /// - Parameters:
    ///   - label: what is being done, e.g. `Reading export.zip`.
    ///   - enabled: false for no line at all (`inspect --quiet`).
    init(label: String, unit: Unit = .bytes, enabled: Bool = true) {
        self.label = label
        self.unit = unit
        isEnabled = enabled && isatty(2) != 0
        if isEnabled { installClearingSignalHandlers() }
    }

    func update(_ done: Int64, _ total: Int64?) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(last) >= 0.2 else { return }
        last = now
        let line = Self.text(
            label: label, unit: unit, done: done, total: total, elapsed: now.timeIntervalSince(started),
            width: terminalWidth())
        FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
        progressLineIsDrawn = 1
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if progressLineIsDrawn != 0 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        progressLineIsDrawn = 0
    }

    /// `Reading export.zip: 312 of 1,024 MB (30%), 210 MB/s, 0:01 elapsed, 0:03 left`, with
    /// the least important parts dropped (then the rest cut) to fit `width - 1` columns.
    static func text(label: String, unit: Unit, done: Int64, total: Int64?, elapsed: Double, width: Int) -> String {
        func amount(_ n: Int64) -> String {
            switch unit {
            case .bytes: return group(Int((Double(n) / 1_000_000).rounded()))
            case .records: return group(Int(n))
            }
        }
        let unitName = unit == .bytes ? "MB" : "records"
        var head = "\(label): \(amount(done))"
        if let total, total > 0 {
            head += " of \(amount(total)) \(unitName) (\(Int(100 * Double(done) / Double(total)))%)"
        } else {
            head += " \(unitName)"
        }
        var parts = [head]
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        if rate > 0 {
            parts.append(
                unit == .bytes ? "\(group(Int((rate / 1_000_000).rounded()))) MB/s" : "\(group(Int(rate))) records/s")
        }
        parts.append("\(clock(elapsed)) elapsed")
        if let total, total > done, rate > 0 { parts.append("\(clock(Double(total - done) / rate)) left") }
        let limit = max(10, width - 1)
        // Drop the rate first, then the elapsed time, keeping what is done and what is left.
        var order = parts
        for drop in [1, 1] where order.joined(separator: ", ").count > limit && order.count > drop + 1 {
            order.remove(at: drop)
        }
        let line = order.joined(separator: ", ")
        return line.count > limit ? String(line.prefix(limit)) : line
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        let pad = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(pad(s / 60 % 60)):\(pad(s % 60))" : "\(s / 60):\(pad(s % 60))"
    }

    private func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(2, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 80
    }
}

/// 1 while a progress line is on the terminal; read by the signal handler.
nonisolated(unsafe) private var progressLineIsDrawn: sig_atomic_t = 0

/// On SIGINT / SIGTERM: clear the progress line, say what became of the work, then end with the
/// signal as if unhandled (an import in progress is rolled back by SQLite: its transaction never
/// committed; a report's folder is swapped in one step, `OutputFolder`).
private func installClearingSignalHandlers() {
    for signalNumber in [SIGINT, SIGTERM] {
        signal(signalNumber) { received in
            if progressLineIsDrawn != 0 {
                let clear: StaticString = "\r\u{1B}[K"  // static bytes: no allocation in a handler
                _ = write(2, clear.utf8Start, clear.utf8CodeUnitCount)
            }
            let said: StaticString = """
                health-analyzer: interrupted (an unfinished import is rolled back; \
                a report folder is never left half-written)

                """
            _ = write(2, said.utf8Start, said.utf8CodeUnitCount)
            signal(received, SIG_DFL)
            raise(received)
        }
    }
}
