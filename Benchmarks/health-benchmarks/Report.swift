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
        case notJudgedBusy = "not judged (machine busy)"
        case notJudgedRounds = "not judged (fewer than 5 rounds)"
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
    static let readerRSSTargetBytes = 64e6
    /// Peak RSS of `report` at most 128 MB on any export (docs/benchmarks.md, "Targets").
    static let reportRSSTargetBytes = 128e6
    /// At most 60 bytes per record on disk, import peak RSS at most 128 MB (docs/benchmarks.md, "Targets").
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
    /// How busy the machine was during the runs (nil: not measured, which counts as busy).
    var machine: MachineLoad?
    var phases: [PhaseSummary] = []
    /// The paired ratios, one per pair in `PhasePair.standard` order.
    var pairs: [PairSummary] = []

    func summary(_ phase: Phase) -> PhaseSummary? { phases.first { $0.phase == phase } }

    /// Whether the targets are judged: the machine was quiet and at least five rounds ran.
    var judging: Judging { Judging(machine: machine, rounds: repeats) }

    var targets: [Target] {
        let judging = self.judging
        func skipped(_ phase: Phase, _ name: String, _ limit: Double) -> Target {
            Target(
                name: name, verdict: .skip, value: nil, limit: limit,
                shown: summary(phase)?.skippedBecause ?? "not measured")
        }
        func rss(_ phase: Phase, _ subject: String, _ limit: Double, strict: Bool = false) -> Target {
            let name = "\(subject) peak RSS \(strict ? "<" : "<=") \(fixed(limit / 1e6, 0)) MB"
            guard let p = summary(phase), p.measured else { return skipped(phase, name, limit / 1e6) }
            let value = Double(p.peakRSSBytes)
            return Target(
                name: name, verdict: judging.verdict(strict ? value < limit : value <= limit), value: value / 1e6,
                limit: limit / 1e6, shown: "\(fixed(value / 1e6, 1)) MB")
        }
        var out: [Target] = []
        for p in pairs {
            for t in p.pair.targets {
                let subject = p.pair.measured.title
                let name =
                    t.kind == .wallAtMost
                    ? "\(subject) wall <= \(fixed(t.limit, 2)) x \(p.pair.baseline.title)"
                    : "\(subject) throughput >= \(fixed(t.limit, 2)) x \(p.pair.baseline.title)"
                guard !p.rounds.isEmpty else {
                    out.append(skipped(p.pair.measured, name, t.limit))
                    continue
                }
                let r = p.ratios(t.kind)
                var met = t.met(by: r.median)
                var shown =
                    "median \(fixed(r.median, 3)) x (min \(fixed(r.min, 3)), max \(fixed(r.max, 3)), \(r.values.count) rounds)"
                if p.pair.measured == .reimport {
                    // The re-import also adds 0 rows (docs/benchmarks.md, "Targets").
                    let added = p.rounds.compactMap(\.measured.rowsAdded).max() ?? -1
                    met = met && added == 0
                    shown += ", \(added) rows added"
                }
                out.append(
                    Target(name: name, verdict: judging.verdict(met), value: r.median, limit: t.limit, shown: shown))
            }
        }
        out.append(rss(.reader, Phase.reader.title, Report.readerRSSTargetBytes, strict: true))
        for phase in phases.map(\.phase) where phase.isReport || phase == .reportDB {
            out.append(rss(phase, phase.title, Report.reportRSSTargetBytes))
        }
        if let first = summary(.importFirst), first.measured {
            if let bytes = first.runs.compactMap(\.archiveBytes).max(),
                let records = first.runs.compactMap(\.archiveRecords).max(), records > 0
            {
                let perRecord = Double(bytes) / Double(records)
                out.append(
                    Target(
                        name:
                            "Archive size <= \(fixed(Report.archiveBytesPerRecordTarget, 0)) bytes per record",
                        verdict: judging.verdict(perRecord <= Report.archiveBytesPerRecordTarget), value: perRecord,
                        limit: Report.archiveBytesPerRecordTarget,
                        shown: "\(fixed(perRecord, 1)) bytes (\(grouped(bytes)) bytes, \(grouped(records)) records)"))
            }
            let again = summary(.reimport)
            let rss = Double(max(first.peakRSSBytes, again?.peakRSSBytes ?? 0))
            out.append(
                Target(
                    name: "Archive import peak RSS <= \(fixed(Report.importRSSTargetBytes / 1e6, 0)) MB",
                    verdict: judging.verdict(rss <= Report.importRSSTargetBytes), value: rss / 1e6,
                    limit: Report.importRSSTargetBytes / 1e6, shown: "\(fixed(rss / 1e6, 1)) MB"))
        }
        return out
    }

    /// Consistency checks: every phase read the whole file, runs agree, bare and reader saw the
    /// same elements, and how busy the machine was.
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
        if phases.allSatisfy({ !$0.measured || !($0.phase.isReader || $0.phase.isReport) || $0.bytes == inputBytes }) {
            out.append((true, "every read and report run read all \(grouped(inputBytes)) bytes"))
        }
        if let machine {
            if machine.isBusy {
                for reason in machine.busyReasons { out.append((false, "machine busy: \(reason)")) }
            } else {
                out.append((true, "machine quiet enough to judge: \(machine.summary)"))
            }
        }
        if repeats < Judging.minimumRounds {
            out.append((false, "\(repeats) rounds: targets are judged on at least \(Judging.minimumRounds)"))
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
            "  setup    libxml2 \(libxml2Version), 512 KiB chunks; \(repeats) round\(repeats == 1 ? "" : "s") of"
                + " adjacent pairs, each run in its own process")
        if let machine { lines.append("  machine  \(machine.summary)") }
        if let w = warmupSeconds {
            lines.append(
                "  warm-up  read(2) of the whole file: \(fixed(w, 3)) s (\(fixed(Double(inputBytes) / 1e6 / w, 0)) MB/s)"
            )
        }
        lines.append("")
        let titleWidth = max(44, phases.map(\.phase.title.count).max() ?? 0)
        lines.append(
            pad("Benchmark", titleWidth, right: false) + pad("runs", 6) + pad("best s", 10) + pad("median s", 10)
                + pad("median MB/s", 13) + pad("peak RSS MB", 13) + "  items")
        for p in phases {
            let title = pad(p.phase.title, titleWidth, right: false)
            guard p.measured else {
                lines.append(title + "  skipped: \(p.skippedBecause ?? "no runs")")
                continue
            }
            lines.append(
                title + pad(String(p.runs.count), 6) + pad(fixed(p.bestSeconds, 3), 10)
                    + pad(fixed(p.medianSeconds, 3), 10) + pad(fixed(p.medianMBps, 1), 13)
                    + pad(fixed(Double(p.peakRSSBytes) / 1e6, 1), 13) + "  \(grouped(p.items)) \(p.phase.itemName)")
        }
        let floors = phases.filter(\.measured).map { Double($0.floorRSSBytes) / 1e6 }
        if let lo = floors.min(), let hi = floors.max() {
            lines.append(
                "(peak RSS is the whole child process; before its phase it stood at "
                    + (lo == hi ? "\(fixed(lo, 1)) MB" : "\(fixed(lo, 1))-\(fixed(hi, 1)) MB") + ")")
        }
        lines.append("")
        let pairWidth = max(60, pairs.map(\.name.count).max() ?? 0)
        lines.append(
            pad("Paired wall ratio (adjacent runs, A B / B A)", pairWidth, right: false) + pad("median", 9)
                + pad("min", 9) + pad("max", 9) + pad("rounds", 8))
        for p in pairs {
            let title = pad("  " + p.name, pairWidth, right: false)
            guard !p.rounds.isEmpty else {
                lines.append(title + pad("-", 9) + pad("-", 9) + pad("-", 9) + pad("0", 8))
                continue
            }
            let r = p.ratios(.wallAtMost)
            lines.append(
                title + pad(fixed(r.median, 3), 9) + pad(fixed(r.min, 3), 9) + pad(fixed(r.max, 3), 9)
                    + pad(String(r.values.count), 8))
        }
        lines.append("")
        lines.append("Targets (median of the per-round ratios; highest peak RSS of any run)")
        let verdictWidth = targets.map(\.verdict.rawValue.count).max() ?? 0
        let targetWidth = targets.map(\.name.count).max() ?? 0
        for t in targets {
            lines.append(
                "  " + pad(t.verdict.rawValue, verdictWidth, right: false) + "  "
                    + pad(t.name, targetWidth, right: false)
                    + "  \(t.shown)")
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
        let pairsJSON = pairs.map { p in
            let r = p.ratios(.wallAtMost)
            return
                "{\"measured\": \(jsonString(p.pair.measured.rawValue)), \"baseline\": \(jsonString(p.pair.baseline.rawValue)), "
                + "\"wall_ratio\": {\"median\": \(jsonNumber(r.median, 4)), \"min\": \(jsonNumber(r.min, 4)), "
                + "\"max\": \(jsonNumber(r.max, 4)), \"per_round\": [\(r.values.map { jsonNumber($0, 4) }.joined(separator: ", "))]}}"
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
              "rounds": \(repeats),
              "warmup_seconds": \(warmupSeconds.map { jsonNumber($0, 6) } ?? "null"),
              "machine": \(machine?.json ?? "null"),
              "judged": \(judging == .judged),
              "phases": [
                \(phases.map(phaseJSON).joined(separator: ",\n    "))
              ],
              "pairs": [
                \(pairsJSON.joined(separator: ",\n    "))
              ],
              "targets": [
                \(targetsJSON.joined(separator: ",\n    "))
              ],
              "checks": [\(checksJSON.joined(separator: ", "))]
            }
            """
    }
}

/// Peak RSS at most 16 MB higher on the largest input than on the smallest (150 and
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

    /// Judged only when every input's run was (quiet machine, enough rounds).
    var judging: Judging {
        reports.first { $0.judging != .judged }?.judging ?? .judged
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
            let verdict =
                r.isTarget ? judging.verdict(r.growthMB * 1e6 <= RSSGrowth.limitBytes).rawValue : "info"
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
