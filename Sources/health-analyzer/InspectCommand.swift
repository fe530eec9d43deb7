import HealthAnalysis
import HealthExport

/// `health-analyzer inspect <input>`: what is in an export, quick to read on a terminal.
enum InspectCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.inspect)
        if args.flags.contains("--help") { return printHelp(CommandTable.inspect) }
        let json = args.flags.contains("--json")
        if let db = args.values["--db"] {
            if json { throw UsageError(message: "--json describes an export; leave out --db", command: "inspect") }
            if let extra = args.positionals.first {
                throw UsageError(message: "--db reads the archive: leave out '\(extra)'", command: "inspect")
            }
            printOutput(try ArchiveCommands.inspect(db: db))
            return ExitCode.success
        }
        let input = try args.input()
        let threads = try args.threads()
        // One tally per parser thread, merged at the end (each is touched by its thread only).
        let tallies = (0..<threads).map { _ in InspectTallyBox() }
        let progress = ProgressLine(
            label: "Reading " + ImportCommand.label(input), enabled: !args.flags.contains("--quiet"),
            interrupted: .plain)
        var readerOptions = ReaderOptions()
        if progress.isEnabled {
            readerOptions.progress = { @Sendable consumed, total in progress.update(consumed, total) }
        }
        let summary: ExportSummary
        do {
            defer { progress.finish() }
            summary = try ExportReader(options: readerOptions).read(input, threads: threads) { worker in
                let box = tallies[worker]
                return { batch in box.tally.add(batch) }
            }
        }
        var tally = tallies[0].tally
        for box in tallies.dropFirst() { tally.merge(box.tally) }
        // (JSON escapes control characters itself.)
        if json { print(tally.json(summary), terminator: "") } else { printOutput(tally.render(summary)) }
        return ExitCode.success
    }
}

final class InspectTallyBox {
    var tally = InspectTally()
}

/// Counts what `inspect` prints, batch by batch.
struct InspectTally {
    struct TypeCount {
        var records = 0
        var units: [String: Int] = [:]
    }
    struct SourceCount {
        var records = 0
        var devices: [String: Int] = [:]
    }

    var types: [String: TypeCount] = [:]
    var sources: [String: SourceCount] = [:]
    var nestedRecords = 0
    var topLevelRecords = 0
    var workouts: [String: Int] = [:]
    var workoutCount = 0
    var correlations: [String: Int] = [:]
    var summaryDays: Set<CivilDate> = []
    var first: Timestamp?
    var last: Timestamp?

    mutating func add(_ batch: ExportBatch) {
        for r in batch.records {
            if r.isNestedInCorrelation {
                nestedRecords += 1
                continue
            }
            topLevelRecords += 1
            // In place (the dictionaries' `default:` subscripts modify their slot): a copy out and
            // back copied the source's whole device table per record, quadratic in the distinct
            // devices (250,000 of them ran past 300 s).
            types[r.type, default: TypeCount()].records += 1
            let unit: String
            switch r.value {
            case .quantity(let q): unit = q.originalUnit
            case .category: unit = "(category)"
            case .none: unit = "(no value)"
            }
            types[r.type, default: TypeCount()].units[unit, default: 0] += 1
            sources[r.sourceName, default: SourceCount()].records += 1
            if let d = r.device {
                sources[r.sourceName, default: SourceCount()].devices[deviceLabel(d), default: 0] += 1
            }
            extend(r.startDate, r.endDate)
        }
        for w in batch.workouts {
            workoutCount += 1
            workouts[w.activityType, default: 0] += 1
            extend(w.startDate, w.endDate)
        }
        for c in batch.correlations { correlations[c.type, default: 0] += 1 }
        for a in batch.activitySummaries { summaryDays.insert(a.date) }
    }

    /// Adds the counts of another part of the same export (another parser thread's).
    mutating func merge(_ other: InspectTally) {
        types.merge(other.types) { a, b in
            TypeCount(records: a.records + b.records, units: a.units.merging(b.units, uniquingKeysWith: +))
        }
        sources.merge(other.sources) { a, b in
            SourceCount(records: a.records + b.records, devices: a.devices.merging(b.devices, uniquingKeysWith: +))
        }
        nestedRecords += other.nestedRecords
        topLevelRecords += other.topLevelRecords
        workouts.merge(other.workouts, uniquingKeysWith: +)
        workoutCount += other.workoutCount
        correlations.merge(other.correlations, uniquingKeysWith: +)
        summaryDays.formUnion(other.summaryDays)
        if let f = other.first, let l = other.last { extend(f, l) }
    }

    private mutating func extend(_ start: Timestamp, _ end: Timestamp) {
        if first == nil || start < first! { first = start }
        if last == nil || end > last! { last = end }
    }

    private func deviceLabel(_ d: Device) -> String {
        [d.model, d.hardware].compactMap { $0 }.joined(separator: " ").nonEmpty ?? (d.name ?? "device")
    }

    func render(_ s: ExportSummary) -> String {
        var out = ""
        func line(_ label: String, _ value: String) { out += label.padding(13) + value + "\n" }
        line("Input", s.inputName + " (\(formatBytes(s.bytesRead)) of XML)")
        var exported = s.exportDate.map { "\($0)" } ?? "unknown (no ExportDate)"
        var extras: [String] = []
        if let v = s.exportVersion { extras.append("HealthKit Export Version \(v)") }
        if let l = s.locale { extras.append("locale \(l)") }
        if !extras.isEmpty { exported += " (" + extras.joined(separator: ", ") + ")" }
        line("Exported", exported)
        if let first, let last {
            // Printed with the export's offset, as the export prints them (docs/export-format.md §9).
            let offset = s.exportDate?.printedOffsetSeconds ?? 0
            line(
                "Data from",
                "\(Timestamp(secondsSince1970: first.secondsSince1970, printedOffsetSeconds: offset)) to "
                    + "\(Timestamp(secondsSince1970: last.secondsSince1970, printedOffsetSeconds: offset))")
        } else {
            line("Data from", "no dated records")
        }
        if let tz = s.mostFrequentTimeZone {
            let n = s.timeZoneCounts[tz] ?? 0
            let others = s.timeZoneCounts.count - 1
            line(
                "Time zone",
                "\(tz) (most frequent HKTimeZone: \(grouped(n)) \(n == 1 ? "sample" : "samples")"
                    + (others > 0 ? "; \(others) other zone\(others == 1 ? "" : "s"))" : ")"))
        } else {
            line("Time zone", "no HKTimeZone metadata (reports pick among the zones with the export's offset)")
        }
        line(
            "Records",
            "\(grouped(topLevelRecords)) in \(counted(types.count, "type")) from \(counted(sources.count, "source"))"
                + (nestedRecords > 0 ? " (+\(grouped(nestedRecords)) inside correlations, not counted)" : ""))
        line("Workouts", grouped(workoutCount))
        line("Activity", counted(summaryDays.count, "ActivitySummary day"))
        if !correlations.isEmpty {
            line(
                "Correlations",
                correlations.sorted { $0.key < $1.key }.map { "\(short($0.key)) \(grouped($0.value))" }.joined(
                    separator: ", "))
        }

        out += "\nRecords per type\n"
        let typeRows = types.sorted { ($1.value.records, $0.key) < ($0.value.records, $1.key) }.map { t in
            [
                short(t.key), grouped(t.value.records),
                t.value.units.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map(\.key)
                    .joined(separator: ", "),
            ]
        }
        out += table(["type", "records", "unit"], typeRows, rightAligned: [1])

        out += "\nRecords per source\n"
        let sourceRows = sources.sorted { ($1.value.records, $0.key) < ($0.value.records, $1.key) }.map { s in
            [
                printable(s.key), grouped(s.value.records),
                s.value.devices.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? "-",
            ]
        }
        out += table(["source", "records", "device"], sourceRows, rightAligned: [1])

        if !workouts.isEmpty {
            out += "\nWorkouts per activity type\n"
            let rows = workouts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map {
                [short($0.key), grouped($0.value)]
            }
            out += table(["activity", "workouts"], rows, rightAligned: [1])
        }
        if !s.unmodeledElementCounts.isEmpty {
            out += "\nElements not modelled (counted only)\n"
            let rows = s.unmodeledElementCounts.sorted { $0.key < $1.key }.map { [$0.key, grouped($0.value)] }
            out += table(["element", "count"], rows, rightAligned: [1])
        }
        out += "\nDiagnostics\n"
        if s.diagnostics.isEmpty {
            out += "  none\n"
        } else {
            for d in s.diagnostics { out += "  \(d)\n" }
        }
        if s.droppedDoctype { out += "  (the internal DOCTYPE was dropped before parsing, as always)\n" }
        return out
    }
}

/// `text` with control characters (a newline in a source name, say) shown as `\n`-style escapes,
/// so that one table row stays one line.
func printable(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
    return String(
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? $0.escaped(asASCII: true) : String($0) }
            .joined())
}

/// Drops the HealthKit prefixes so that tables stay narrow: `HKQuantityTypeIdentifierStepCount` → `StepCount`.
func short(_ identifier: String) -> String {
    for p in [
        "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
        "HKWorkoutActivityType", "HKDataTypeIdentifier",
    ] where identifier.hasPrefix(p) && identifier.count > p.count {
        return String(identifier.dropFirst(p.count))
    }
    return identifier
}

func formatBytes(_ n: Int64) -> String {
    if n < 1024 { return "\(n) B" }
    if n < 1024 * 1024 { return "\(n / 1024) KiB" }
    let mb = Double(n) / 1_048_576
    return mb < 100 ? "\(Double(Int(mb * 10)) / 10) MiB" : "\(Int(mb)) MiB"
}

/// A plain-text table indented by two spaces.
func table(_ header: [String], _ rows: [[String]], rightAligned: Set<Int> = []) -> String {
    var widths = header.map(\.count)
    for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
    func render(_ r: [String]) -> String {
        var line = " "
        for (i, c) in r.enumerated() {
            let pad = String(repeating: " ", count: widths[i] - c.count)
            line += " " + (rightAligned.contains(i) ? pad + c : (i == r.count - 1 ? c : c + pad))
        }
        return line + "\n"
    }
    return render(header) + rows.map(render).joined()
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
    var nonEmpty: String? { isEmpty ? nil : self }
}
