import HealthExport

/// All runs of one phase.
struct PhaseSummary {
    var phase: Phase
    var runs: [RunResult]
    /// Set when the phase did not run (not implemented yet).
    var skippedBecause: String?

    var measured: Bool { skippedBecause == nil && !runs.isEmpty }
    var bestSeconds: Double { runs.map(\.seconds).min() ?? .nan }
    var medianSeconds: Double { median(runs.map(\.seconds)) }
    var bestCPUSeconds: Double { runs.map(\.cpuSeconds).min() ?? .nan }
    var bytes: Int64 { runs.first?.bytes ?? 0 }
    var bestMBps: Double { Double(bytes) / 1e6 / bestSeconds }
    var medianMBps: Double { Double(bytes) / 1e6 / medianSeconds }
    /// The highest peak RSS of any run, in bytes.
    var peakRSSBytes: Int64 { (runs.map(\.peakRSSKiB).max() ?? 0) * 1024 }
    /// The child's own peak RSS before the phase (lowest of the runs), in bytes.
    var floorRSSBytes: Int64 { (runs.map(\.startPeakRSSKiB).min() ?? 0) * 1024 }
    var items: Int64 { runs.first?.items ?? 0 }
    var elements: Int64? { runs.first?.elements }
    /// True when every run read the same bytes and counted the same items.
    var runsAgree: Bool { runs.allSatisfy { $0.bytes == bytes && $0.items == items && $0.elements == elements } }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// A target printed next to the figures.
struct Target {
    enum Verdict: String {
        case pass = "PASS"
        case fail = "FAIL"
        case skip = "SKIP"
    }
    var name: String
    var verdict: Verdict
    /// The measured value, nil when skipped.
    var value: Double?
    var limit: Double
    var shown: String
}

/// What one benchmark run found.
struct Report {
    static let readerRatioTarget = 0.7
    static let readerRSSTargetBytes = 64e6
    /// Issue 6: `report` with N threads at most 0.6 x the bare pass's wall time (XML input) and
    /// at most 1.0 x from a zip; peak RSS at most 128 MB on any export.
    static let reportWallTarget = 0.6
    static let reportZipWallTarget = 1.0
    static let reportRSSTargetBytes = 128e6
    /// Issue 7: first import <= 2.5 x report's wall time, re-import <= 1 x the first import
    /// adding 0 rows, <= 60 bytes per record on disk, peak RSS <= 128 MB.
    static let importOverReportTarget = 2.5
    static let reimportOverImportTarget = 1.0
    static let archiveBytesPerRecordTarget = 60.0
    static let importRSSTargetBytes = 128e6

    var inputPath: String
    var inputBytes: Int64
    var generated: Bool
    var repeats: Int
    var libxml2Version: String
    /// Parser threads of the N-thread phases.
    var threads = 1
    /// Size of `<input>.zip` with --zip.
    var zipBytes: Int64?
    var warmupSeconds: Double?
    /// The 1-minute load average before the first run and after the last.
    var loadBefore: Double?
    var loadAfter: Double?
    var phases: [PhaseSummary] = []

    /// Load above this before the runs means other processes were competing for the cores.
    static let busyLoad = 1.0

    func summary(_ phase: Phase) -> PhaseSummary? { phases.first { $0.phase == phase } }

    /// Throughput of `phase` over the bare pass's, by wall time (best, median) and by the best
    /// CPU time (less disturbed than wall time when other processes compete for the cores).
    func ratio(_ phase: Phase) -> (best: Double, median: Double, bestCPU: Double)? {
        guard let p = summary(phase), p.measured, let bare = summary(.bare), bare.measured else { return nil }
        return (
            p.bestMBps / bare.bestMBps, p.medianMBps / bare.medianMBps,
            (Double(p.bytes) / p.bestCPUSeconds) / (Double(bare.bytes) / bare.bestCPUSeconds)
        )
    }

    /// Best wall time of `phase` over the bare pass's best wall time (both on the same XML
    /// bytes; a zip phase reads the zip of that XML).
    func wallRatio(_ phase: Phase) -> Double? {
        guard let p = summary(phase), p.measured, let bare = summary(.bare), bare.measured else { return nil }
        return p.bestSeconds / bare.bestSeconds
    }

    var targets: [Target] {
        func skipped(_ phase: Phase, _ name: String, _ limit: Double) -> Target {
            Target(
                name: name, verdict: .skip, value: nil, limit: limit,
                shown: summary(phase)?.skippedBecause ?? "not measured")
        }
        func rss(_ phase: Phase, _ subject: String, _ limit: Double) -> Target {
            let name = "\(subject) peak RSS <= \(fixed(limit / 1e6, 0)) MB"
            guard let p = summary(phase), p.measured else { return skipped(phase, name, limit / 1e6) }
            let value = Double(p.peakRSSBytes)
            return Target(
                name: name, verdict: value <= limit ? .pass : .fail, value: value / 1e6, limit: limit / 1e6,
                shown: "\(fixed(value / 1e6, 1)) MB")
        }
        func wall(_ phase: Phase, _ subject: String, _ limit: Double) -> Target {
            let name = "\(subject) wall <= \(fixed(limit, 2)) x bare wall"
            guard let r = wallRatio(phase) else { return skipped(phase, name, limit) }
            return Target(
                name: name, verdict: r <= limit ? .pass : .fail, value: r, limit: limit,
                shown: "\(fixed(r, 3)) x (\(fixed(summary(phase)!.bestSeconds, 3)) s)")
        }
        var out: [Target] = []
        let n = "\(threads) thread\(threads == 1 ? "" : "s")"
        if let r = ratio(.reader), let p = summary(.reader) {
            let value = Double(p.peakRSSBytes)
            out.append(
                Target(
                    name: "HealthExport read (1 thread) throughput >= \(fixed(Report.readerRatioTarget, 2)) x bare",
                    verdict: r.best >= Report.readerRatioTarget ? .pass : .fail, value: r.best,
                    limit: Report.readerRatioTarget, shown: "\(fixed(r.best, 3)) x (median \(fixed(r.median, 3)) x)"))
            out.append(
                Target(
                    name: "HealthExport read (1 thread) peak RSS < \(fixed(Report.readerRSSTargetBytes / 1e6, 0)) MB",
                    verdict: value < Report.readerRSSTargetBytes ? .pass : .fail, value: value / 1e6,
                    limit: Report.readerRSSTargetBytes / 1e6, shown: "\(fixed(value / 1e6, 1)) MB"))
        }
        out.append(wall(.reportThreads, "report (\(n))", Report.reportWallTarget))
        if summary(.reportZipThreads) != nil {
            out.append(wall(.reportZipThreads, "report from zip (\(n))", Report.reportZipWallTarget))
        }
        for phase in phases.map(\.phase) where phase.isReport {
            out.append(rss(phase, phase.title, Report.reportRSSTargetBytes))
        }
        return out + archiveTargets
    }

    /// Consistency checks: every phase read the whole file, runs agree, bare and reader saw the same elements.
    var checks: [(ok: Bool, text: String)] {
        var out: [(Bool, String)] = []
        for p in phases where p.measured {
            if p.bytes != inputBytes, p.phase.isReader || p.phase.isReport || p.phase == .bare {
                out.append((false, "\(p.phase.title) read \(grouped(p.bytes)) bytes of \(grouped(inputBytes))"))
            }
            if !p.runsAgree { out.append((false, "\(p.phase.title): runs read or counted different amounts")) }
        }
        for phase in [Phase.readerThreads, .readerZipThreads] {
            if let one = summary(.reader)?.elements, let p = summary(phase), p.measured, let n = p.elements {
                out.append(
                    one == n
                        ? (true, "\(phase.title) saw the same \(grouped(n)) elements as one thread")
                        : (false, "\(phase.title) saw \(grouped(n)) elements, one thread \(grouped(one))"))
            }
        }
        if let bare = summary(.bare)?.elements, let reader = summary(.reader)?.elements {
            out.append(
                bare == reader
                    ? (true, "bare pass and reader saw the same \(grouped(bare)) elements")
                    : (false, "bare pass saw \(grouped(bare)) elements, the reader \(grouped(reader))"))
        }
        if phases.allSatisfy({ !$0.measured || $0.bytes == inputBytes }) {
            out.append((true, "every run read all \(grouped(inputBytes)) bytes"))
        }
        if let load = loadBefore, load > Report.busyLoad {
            out.append(
                (
                    false,
                    "load average was \(fixed(load, 2)) before the runs: other processes may have competed for the cores,"
                        + " so wall times are pessimistic (compare the CPU-time ratio)"
                ))
        }
        return out
    }

    // MARK: Terminal

    func renderText() -> String {
        var lines: [String] = []
        lines.append("health-benchmarks: \(inputPath)")
        lines.append(
            "  input    \(grouped(inputBytes)) bytes (\(fixed(Double(inputBytes) / 1e6, 1)) MB)"
                + (generated ? ", generated by this run" : ""))
        lines.append(
            "  setup    libxml2 \(libxml2Version), 512 KiB chunks; \(repeats) run\(repeats == 1 ? "" : "s") per phase,"
                + " each in its own process")
        if let before = loadBefore {
            lines.append(
                "  load     \(fixed(before, 2)) before the runs, \(loadAfter.map { fixed($0, 2) } ?? "?") after"
                    + " (1-minute load average)")
        }
        if let w = warmupSeconds {
            lines.append(
                "  warm-up  read(2) of the whole file: \(fixed(w, 3)) s (\(fixed(Double(inputBytes) / 1e6 / w, 0)) MB/s)"
            )
        }
        lines.append("")
        let titleWidth = max(44, phases.map(\.phase.title.count).max() ?? 0)
        lines.append(
            pad("Benchmark", titleWidth, right: false) + pad("best s", 10) + pad("median s", 10) + pad("best MB/s", 11)
                + pad("median MB/s", 13) + pad("peak RSS MB", 13) + "  items")
        for p in phases {
            let title = pad(p.phase.title, titleWidth, right: false)
            guard p.measured else {
                lines.append(title + "  skipped: \(p.skippedBecause ?? "no runs")")
                continue
            }
            lines.append(
                title + pad(fixed(p.bestSeconds, 3), 10) + pad(fixed(p.medianSeconds, 3), 10)
                    + pad(fixed(p.bestMBps, 1), 11) + pad(fixed(p.medianMBps, 1), 13)
                    + pad(fixed(Double(p.peakRSSBytes) / 1e6, 1), 13) + "  \(grouped(p.items)) \(p.phase.itemName)")
        }
        let floors = phases.filter(\.measured).map { Double($0.floorRSSBytes) / 1e6 }
        if let lo = floors.min(), let hi = floors.max() {
            lines.append(
                "(peak RSS is the whole child process; before its phase it stood at "
                    + (lo == hi ? "\(fixed(lo, 1)) MB" : "\(fixed(lo, 1))-\(fixed(hi, 1)) MB") + ")")
        }
        lines.append("")
        lines.append(
            pad("Throughput over bare", titleWidth, right: false) + pad("best", 10) + pad("median", 10)
                + pad("best by CPU time", 18) + pad("wall over bare", 16))
        for phase in phases.map(\.phase) where phase != .bare {
            let title = pad("  " + phase.title, titleWidth, right: false)
            if let r = ratio(phase), let w = wallRatio(phase) {
                lines.append(
                    title + pad(fixed(r.best, 3), 10) + pad(fixed(r.median, 3), 10) + pad(fixed(r.bestCPU, 3), 18)
                        + pad(fixed(w, 3), 16))
            } else {
                lines.append(title + pad("-", 10) + pad("-", 10) + pad("-", 18) + pad("-", 16))
            }
        }
        lines.append("")
        lines.append("Targets (best run's throughput, highest peak RSS of any run)")
        let targetWidth = targets.map(\.name.count).max() ?? 0
        for t in targets {
            lines.append("  \(t.verdict.rawValue)  " + pad(t.name, targetWidth, right: false) + "  \(t.shown)")
        }
        lines.append("")
        lines.append("Checks")
        for c in checks { lines.append("  \(c.ok ? "ok  " : "WARN")  \(c.text)") }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    func renderJSON() -> String {
        func phaseJSON(_ p: PhaseSummary) -> String {
            var fields = [
                "\"id\": \(jsonString(p.phase.rawValue))", "\"name\": \(jsonString(p.phase.title))",
            ]
            if let why = p.skippedBecause {
                fields.append("\"skipped\": \(jsonString(why))")
                return "{" + fields.joined(separator: ", ") + "}"
            }
            fields += [
                "\"bytes\": \(p.bytes)", "\"items\": \(p.items)", "\"item_kind\": \(jsonString(p.phase.itemName))",
                "\"elements\": \(p.elements.map(String.init) ?? "null")",
                "\"best_seconds\": \(jsonNumber(p.bestSeconds))", "\"median_seconds\": \(jsonNumber(p.medianSeconds))",
                "\"best_cpu_seconds\": \(jsonNumber(p.bestCPUSeconds))",
                "\"best_mb_per_s\": \(jsonNumber(p.bestMBps, 3))",
                "\"median_mb_per_s\": \(jsonNumber(p.medianMBps, 3))",
                "\"peak_rss_bytes\": \(p.peakRSSBytes)", "\"floor_rss_bytes\": \(p.floorRSSBytes)",
            ]
            let runs = p.runs.map {
                "{\"seconds\": \(jsonNumber($0.seconds, 9)), \"cpu_seconds\": \(jsonNumber($0.cpuSeconds, 6)), "
                    + "\"mb_per_s\": \(jsonNumber($0.megabytesPerSecond, 3)), "
                    + "\"peak_rss_kib\": \($0.peakRSSKiB), \"start_peak_rss_kib\": \($0.startPeakRSSKiB), "
                    + "\"ru_maxrss_kib\": \($0.ruMaxRSSKiB)}"
            }
            fields.append("\"runs\": [" + runs.joined(separator: ", ") + "]")
            return "{" + fields.joined(separator: ", ") + "}"
        }
        var ratios: [String] = []
        for phase in phases.map(\.phase) where phase != .bare {
            if let r = ratio(phase) {
                ratios.append(
                    "\(jsonString(phase.rawValue)): {\"best\": \(jsonNumber(r.best, 4)), \"median\": \(jsonNumber(r.median, 4)), \"best_cpu\": \(jsonNumber(r.bestCPU, 4))}"
                )
            } else {
                ratios.append("\(jsonString(phase.rawValue)): null")
            }
        }
        let targetsJSON = targets.map {
            "{\"name\": \(jsonString($0.name)), \"verdict\": \(jsonString($0.verdict.rawValue)), "
                + "\"value\": \($0.value.map { jsonNumber($0, 4) } ?? "null"), \"limit\": \(jsonNumber($0.limit, 4))}"
        }
        let checksJSON = checks.map { "{\"ok\": \($0.ok), \"text\": \(jsonString($0.text))}" }
        return """
            {
              "input": {"path": \(jsonString(inputPath)), "bytes": \(inputBytes), "generated": \(generated)},
              "libxml2": \(jsonString(libxml2Version)),
              "chunk_bytes": 524288,
              "threads": \(threads),
              "zip_bytes": \(zipBytes.map(String.init) ?? "null"),
              "repeat": \(repeats),
              "warmup_seconds": \(warmupSeconds.map { jsonNumber($0, 6) } ?? "null"),
              "load_average": {"before": \(loadBefore.map { jsonNumber($0, 2) } ?? "null"), "after": \(loadAfter.map { jsonNumber($0, 2) } ?? "null")},
              "phases": [
                \(phases.map(phaseJSON).joined(separator: ",\n    "))
              ],
              "throughput_ratio_to_bare": {\(ratios.joined(separator: ", "))},
              "targets": [
                \(targetsJSON.joined(separator: ",\n    "))
              ],
              "checks": [\(checksJSON.joined(separator: ", "))]
            }
            """
    }
}

/// Issue 6: peak RSS at most 16 MB higher on the largest input than on the smallest (150 and
/// 1,800 days), for each report phase (and, for information, the reader phases).
struct RSSGrowth {
    static let limitBytes = 16e6
    var reports: [Report]

    struct Row {
        var phase: Phase
        var smallMB: Double
        var largeMB: Double
        var growthMB: Double { largeMB - smallMB }
        var isTarget: Bool { phase.isReport }
    }

    var rows: [Row] {
        guard reports.count >= 2, let small = reports.min(by: { $0.inputBytes < $1.inputBytes }),
            let large = reports.max(by: { $0.inputBytes < $1.inputBytes })
        else { return [] }
        return Phase.allCases.compactMap { phase in
            guard let s = small.summary(phase), s.measured, let l = large.summary(phase), l.measured else { return nil }
            return Row(phase: phase, smallMB: Double(s.peakRSSBytes) / 1e6, largeMB: Double(l.peakRSSBytes) / 1e6)
        }
    }

    func renderText() -> String {
        guard reports.count >= 2 else { return "" }
        let small = reports.min(by: { $0.inputBytes < $1.inputBytes })!
        let large = reports.max(by: { $0.inputBytes < $1.inputBytes })!
        var lines = [
            "Peak RSS growth from \(fixed(Double(small.inputBytes) / 1e6, 0)) MB to \(fixed(Double(large.inputBytes) / 1e6, 0)) MB of XML"
                + " (target for report phases: <= \(fixed(RSSGrowth.limitBytes / 1e6, 0)) MB)"
        ]
        let width = max(44, rows.map(\.phase.title.count).max() ?? 0)
        for r in rows {
            let verdict = r.isTarget ? (r.growthMB * 1e6 <= RSSGrowth.limitBytes ? "PASS" : "FAIL") : "info"
            lines.append(
                "  \(verdict)  " + pad(r.phase.title, width, right: false) + pad(fixed(r.smallMB, 1), 8) + " -> "
                    + pad(fixed(r.largeMB, 1), 8) + " MB  (\(r.growthMB < 0 ? "" : "+")\(fixed(r.growthMB, 1)) MB)")
        }
        let skipped = Phase.allCases.filter { p in p.isReport && !rows.contains { $0.phase == p } }
            .filter { p in reports.contains { $0.summary(p) != nil } }
        for p in skipped { lines.append("  SKIP  " + pad(p.title, width, right: false) + "  not measured") }
        return lines.joined(separator: "\n")
    }

    func renderJSON() -> String {
        let growth = rows.map {
            "{\"phase\": \(jsonString($0.phase.rawValue)), \"small_mb\": \(jsonNumber($0.smallMB, 3)), "
                + "\"large_mb\": \(jsonNumber($0.largeMB, 3)), \"target\": \($0.isTarget)}"
        }
        return "{\"inputs\": [" + reports.map { $0.renderJSON() }.joined(separator: ",\n") + "],\n\"rss_growth\": ["
            + growth.joined(separator: ", ") + "]}"
    }
}
