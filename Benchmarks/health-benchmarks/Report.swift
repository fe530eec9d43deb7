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
    static let reportRatioTarget = 0.6
    static let reportRSSTargetBytes = 200e6

    var inputPath: String
    var inputBytes: Int64
    var generated: Bool
    var repeats: Int
    var libxml2Version: String
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

    var targets: [Target] {
        func pair(_ phase: Phase, _ subject: String, ratio target: Double, rss limit: Double) -> [Target] {
            let ratioName = "\(subject) throughput >= \(fixed(target, 2)) x bare"
            let rssName = "\(subject) peak RSS < \(fixed(limit / 1e6, 0)) MB"
            guard let r = ratio(phase), let p = summary(phase) else {
                let why = summary(phase)?.skippedBecause ?? "not measured"
                return [
                    Target(name: ratioName, verdict: .skip, value: nil, limit: target, shown: why),
                    Target(name: rssName, verdict: .skip, value: nil, limit: limit / 1e6, shown: why),
                ]
            }
            let rss = Double(p.peakRSSBytes)
            return [
                Target(
                    name: ratioName, verdict: r.best >= target ? .pass : .fail, value: r.best, limit: target,
                    shown: "\(fixed(r.best, 3)) x (median \(fixed(r.median, 3)) x)"),
                Target(
                    name: rssName, verdict: rss < limit ? .pass : .fail, value: rss / 1e6, limit: limit / 1e6,
                    shown: "\(fixed(rss / 1e6, 1)) MB"),
            ]
        }
        return pair(.reader, "HealthExport read", ratio: Report.readerRatioTarget, rss: Report.readerRSSTargetBytes)
            + pair(.report, "Report end-to-end", ratio: Report.reportRatioTarget, rss: Report.reportRSSTargetBytes)
    }

    /// Consistency checks: every phase read the whole file, runs agree, bare and reader saw the same elements.
    var checks: [(ok: Bool, text: String)] {
        var out: [(Bool, String)] = []
        for p in phases where p.measured {
            if p.bytes != inputBytes {
                out.append((false, "\(p.phase.title) read \(grouped(p.bytes)) bytes of \(grouped(inputBytes))"))
            }
            if !p.runsAgree { out.append((false, "\(p.phase.title): runs read or counted different amounts")) }
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
                + pad("best by CPU time", 18))
        for phase in Phase.allCases where phase != .bare {
            let title = pad("  " + phase.title, titleWidth, right: false)
            if let r = ratio(phase) {
                lines.append(
                    title + pad(fixed(r.best, 3), 10) + pad(fixed(r.median, 3), 10) + pad(fixed(r.bestCPU, 3), 18))
            } else {
                lines.append(title + pad("-", 10) + pad("-", 10) + pad("-", 18))
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
        for phase in Phase.allCases where phase != .bare {
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
