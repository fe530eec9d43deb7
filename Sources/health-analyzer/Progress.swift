import Foundation
import HealthAnalysis
import HealthExport
import HealthTables

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
    private var estimator = ProgressEstimator()
    private let lock = NSLock()

    /// - Parameters:
    ///   - label: what is being done, e.g. `Reading export.zip`.
    ///   - enabled: false for no line at all (`inspect --quiet`).
    ///   - interrupted: what Ctrl-C says became of the work.
    init(label: String, unit: Unit = .bytes, enabled: Bool = true, interrupted: Interruption = .leavesNoReport) {
        self.label = label
        self.unit = unit
        isEnabled = enabled && Platform.standardErrorIsATerminal
        if isEnabled { Platform.onInterruption(say: interrupted.message) }
    }

    func update(_ done: Int64, _ total: Int64?) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        estimator.add(elapsed: elapsed, done: done, total: total)
        guard now.timeIntervalSince(last) >= 0.2 else { return }
        last = now
        let line = Self.text(
            label: label, unit: unit, done: done, total: total, elapsed: elapsed, rate: estimator.rate,
            secondsLeft: estimator.secondsLeft, width: terminalWidth())
        FileHandle.standardError.write(Data(("\r" + escapingControlCharacters(line) + "\u{1B}[K").utf8))
        Platform.setProgressLineDrawn(true)
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if Platform.isProgressLineDrawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        Platform.setProgressLineDrawn(false)
    }

    /// `30%, 0:03 left, Reading export.zip, 312 of 1,024 MB, 210 MB/s, 0:01 elapsed`: the fields
    /// in the order a reader wants them (how far, how long still, then what and how fast), as
    /// many whole fields as fit in `width - 1` columns, dropped from the end. The label is the
    /// one field that is shortened (with `…`) rather than dropped when at least 8 columns are
    /// left for it. Without a total (standard input) the line starts at the label. The time
    /// left is shown only once `secondsLeft` is known (a steady rate, `ProgressEstimator`).
    static func text(
        label: String, unit: Unit, done: Int64, total: Int64?, elapsed: Double, rate: Double?,
        secondsLeft: Double?, width: Int
    ) -> String {
        func amount(_ n: Int64) -> String {
            switch unit {
            case .bytes: return grouped(Int((Double(n) / 1_000_000).rounded()))
            case .records: return grouped(Int(n))
            }
        }
        let unitName = unit == .bytes ? "MB" : "records"
        var fields: [String] = []
        var labelIndex = 0
        if let total, total > 0 {
            fields.append("\(min(100, Int(100 * Double(done) / Double(total))))%")
            if let secondsLeft { fields.append("\(clock(secondsLeft)) left") }
            labelIndex = fields.count
            fields.append(label)
            fields.append("\(amount(done)) of \(amount(total)) \(unitName)")
        } else {
            fields.append(label)
            fields.append("\(amount(done)) \(unitName)")
        }
        if let rate, rate > 0 {
            fields.append(
                unit == .bytes
                    ? "\(grouped(Int((rate / 1_000_000).rounded()))) MB/s" : "\(grouped(Int(rate))) records/s")
        }
        fields.append("\(clock(elapsed)) elapsed")
        let limit = max(10, width - 1)
        var line = ""
        for (i, field) in fields.enumerated() {
            let separator = line.isEmpty ? "" : ", "
            if line.count + separator.count + field.count <= limit {
                line += separator + field
                continue
            }
            let room = limit - line.count - separator.count
            if i == labelIndex, room >= 8 { line += separator + field.prefix(room - 1) + "…" }
            break
        }
        return line.isEmpty ? String(fields[0].prefix(limit)) : line
    }

    /// `m:ss` or `h:mm:ss`.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        let pad = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return s >= 3600 ? "\(s / 3600):\(pad(s / 60 % 60)):\(pad(s % 60))" : "\(s / 60):\(pad(s % 60))"
    }

    private func terminalWidth() -> Int {
        if let columns = Platform.terminalColumns { return columns }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return columns
        }
        return 80
    }
}

/// What Ctrl-C (or SIGTERM) during a command says became of its work.
enum Interruption {
    /// Reading only (`inspect`): nothing was being written.
    case plain
    /// `report`: the report folder is swapped in whole, or not at all (`OutputFolder`).
    case leavesNoReport
    /// `import`: the input's transaction never committed; SQLite rolls it back.
    case rollsBackTheImport

    var message: StaticString {
        switch self {
        case .plain: return "health-analyzer: interrupted\n"
        case .leavesNoReport:
            return "health-analyzer: interrupted (no report written; a report folder is never left half-written)\n"
        case .rollsBackTheImport: return "health-analyzer: interrupted (the unfinished import is rolled back)\n"
        }
    }
}

/// The rate and the time left of a progress line, from (elapsed, done) samples. The rate is the
/// one over the last `window` seconds (not since the start, which holds the slow start: opening
/// the zip, the first buffers). The time left is shown only when it can be trusted: after
/// `minimumElapsed` seconds and `minimumFraction` of the work, and when the last two windows'
/// rates differ by at most `steadiness` (a run that took 8 s no longer starts at "0:14 left").
struct ProgressEstimator {
    var window = 2.0
    var minimumElapsed = 2.0
    var minimumFraction = 0.03
    var steadiness = 0.25

    private var samples: [(elapsed: Double, done: Int64)] = []
    /// Bytes (or records) per second over the last window, once a window has passed.
    private(set) var rate: Double?
    /// Seconds left at `rate`, once the rate is steady (see the type's description).
    private(set) var secondsLeft: Double?
    private var steady = false

    mutating func add(elapsed: Double, done: Int64, total: Int64?) {
        // One sample per tenth of a second, two windows' worth and the one just before them.
        if let last = samples.last, elapsed - last.elapsed < 0.1 { return }
        samples.append((elapsed, done))
        while samples.count > 2, elapsed - samples[1].elapsed >= 2 * window { samples.removeFirst() }
        func rate(from start: Double, to end: Double) -> Double? {
            guard let a = samples.last(where: { $0.elapsed <= start }),
                let b = samples.last(where: { $0.elapsed <= end }), b.elapsed - a.elapsed >= window / 2
            else { return nil }
            return Double(b.done - a.done) / (b.elapsed - a.elapsed)
        }
        let recent = rate(from: elapsed - window, to: elapsed)
        let before = rate(from: elapsed - 2 * window, to: elapsed - window)
        self.rate = recent ?? self.rate
        guard let total, total > 0, let current = self.rate, current > 0 else {
            secondsLeft = nil
            return
        }
        if !steady, let recent, let before, before > 0, elapsed >= minimumElapsed,
            Double(done) >= minimumFraction * Double(total), abs(recent - before) <= steadiness * before
        {
            steady = true
        }
        secondsLeft = steady ? Double(max(0, total - done)) / current : nil
    }
}
