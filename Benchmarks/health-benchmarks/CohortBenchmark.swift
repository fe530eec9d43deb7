// `health-benchmarks --cohort`: the `cohort` step over generated person folders, at two sizes.
//
// The cohort reads only the person CSV files and status records, so the person folders are
// made cheaply, without running any report: a few template people whose tables are typed rows
// (one cell per column, of the column's kind, from the tables' one declaration in
// HealthTables) written as the report writes them, then copied under new ids (`p000001`, …),
// each with a status record. Then, in rounds (default 5), for each size: `cohort` from scratch
// (the cohort folder and its stamp removed), then `cohort` again with nothing changed, each a
// child process timed with wait4's rusage (wall time, peak RSS).
//
// Targets (docs/batch.md §7): 10,000 people × 1,500 days from scratch in at most 60 s with at
// most 256 MB peak RSS, on 2 cores; the unchanged rerun under 1 s; and memory flat in the number
// of people (the larger size's peak RSS at most 32 MB above the smaller's). Judged on the
// medians of at least 5 rounds on a quiet machine (MachineLoad), as every other target.

import HealthAnalysis
import HealthExport
import HealthTables
import SyntheticExport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

enum CohortBenchmark {
    static let help = """
        Usage: health-benchmarks --cohort [--people N,N] [--days N] [--repeat N] [--dir DIR]

        Generates person folders of --days days (default 1500) for each size of --people
        (default 1000,10000) into DIR/<people>/ (default bench-data/cohort; kept for later
        runs), then times `health-analyzer cohort` from scratch and unchanged, --repeat rounds
        (default 5; targets judged on 5 or more, on a quiet machine). Build first:
          swift build -c release --product health-analyzer --product health-benchmarks
        """

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func main(_ arguments: [String]) -> Int32 {
        let loadAtStart = MachineLoad.Sample.now().load  // before any work of ours
        let sizes: [Int]
        let days: Int
        let rounds: Int
        let dir: String
        do {
            let names: Set = ["--people", "--days", "--repeat", "--dir"]
            guard let options = try ModeOptions(arguments, mode: "cohort", names: names) else {
                print(help)
                return 0
            }
            sizes = try options.wholeNumbers("--people", or: [1000, 10000])
            days = try options.wholeNumber("--days", or: 1500)
            rounds = try options.wholeNumber("--repeat", or: 5)
            dir = options.text("--dir", or: "bench-data/cohort")
        } catch {
            printError("error: \(error.message)")
            return 64
        }
        do {
            try run(sizes: sizes, days: days, rounds: rounds, dir: dir, loadAtStart: loadAtStart)
            return 0
        } catch {
            printError("error: \(error)")
            return 1
        }
    }

    /// One size's figures over the rounds.
    struct Size {
        var people: Int
        var bytes: Int64
        var full: [BatchBenchmark.ChildResult] = []
        var unchanged: [BatchBenchmark.ChildResult] = []
    }

    static func run(sizes: [Int], days: Int, rounds: Int, dir: String, loadAtStart: Double?) throws {
        let tool = try BatchBenchmark.toolPath()
        _ = mkdir(dir, 0o755)
        let templates = (0..<8).map { template(days: days, seed: UInt64($0)) }
        var measured: [Size] = []
        for people in sizes {
            let folder = "\(dir)/\(people)x\(days)"
            let bytes = try makeFolders(folder, people: people, templates: templates)
            measured.append(Size(people: people, bytes: bytes))
        }
        let cores = ExportReader.availableCores
        print(
            "cohort benchmark: "
                + measured.map { "\($0.people) people × \(days) days (\($0.bytes / 1_000_000) MB of CSV)" }.joined(
                    separator: ", ") + "; \(cores) cores, \(rounds) rounds")
        let start = MachineLoad.Sample.now()
        for k in 1...rounds {
            for s in measured.indices {
                let folder = "\(dir)/\(measured[s].people)x\(days)"
                _ = try BatchBenchmark.spawn("/bin/rm", ["-rf", folder + "/cohort", folder + "/.cohort.inputs"])
                let full = try BatchBenchmark.spawn(tool, ["cohort", folder, "--quiet"])
                let again = try BatchBenchmark.spawn(tool, ["cohort", folder, "--quiet"])
                guard full.status == 0, again.status == 0 else {
                    throw Failure(description: "cohort exited \(full.status), then \(again.status)")
                }
                measured[s].full.append(full)
                measured[s].unchanged.append(again)
                print(
                    "[\(k)/\(rounds)] \(measured[s].people) people: cohort \(fixed(full.wallSeconds, 2)) s"
                        + " (CPU \(fixed(full.cpuSeconds, 2)) s), \(fixed(mb(full.maxRSSKiB), 1)) MB;"
                        + " unchanged \(fixed(again.wallSeconds, 3)) s (CPU \(fixed(again.cpuSeconds, 3)) s),"
                        + " \(fixed(mb(again.maxRSSKiB), 1)) MB")
            }
        }
        let machine = MachineLoad(loadBefore: loadAtStart, from: start, to: MachineLoad.Sample.now(), cores: cores)
        let judging = Judging(machine: machine, rounds: rounds)
        print("machine: \(machine.summary)")
        for reason in machine.busyReasons { print("  busy: \(reason)") }
        // Not judged (a busy machine, too few rounds): the verdict still says which side of the
        // target the figure is on.
        func line(_ name: String, _ value: String, _ target: String?, _ met: Bool) {
            let verdict = judging.verdict(met)
            let side = verdict == .pass || verdict == .fail ? "" : met ? "; within it" : "; over it"
            let shown = target.map { "  (target \($0))  \(verdict.rawValue)\(side)" } ?? ""
            print("\(name.padding(toLength: 56, withPad: " ", startingAt: 0)) \(value)\(shown)")
        }
        for size in measured {
            let wall = median(size.full.map(\.wallSeconds))
            let cpu = median(size.full.map(\.cpuSeconds))
            let rss = mb(size.full.map(\.maxRSSKiB).max() ?? 0)
            let again = median(size.unchanged.map(\.wallSeconds))
            let againCPU = median(size.unchanged.map(\.cpuSeconds))
            let large = size.people >= 10000 && days >= 1500
            let range =
                "(min \(fixed(size.full.map(\.wallSeconds).min() ?? .nan, 2)), max \(fixed(size.full.map(\.wallSeconds).max() ?? .nan, 2)))"
            line(
                "\(size.people) people: cohort from scratch, median", "\(fixed(wall, 2)) s \(range)",
                large ? "≤ 60 s" : nil, wall <= 60)
            line("\(size.people) people: cohort from scratch, CPU (user+sys)", "\(fixed(cpu, 2)) s", nil, true)
            line(
                "\(size.people) people: cohort peak RSS, largest", "\(fixed(rss, 1)) MB", large ? "≤ 256 MB" : nil,
                rss <= 256)
            line(
                "\(size.people) people: unchanged rerun, median", "\(fixed(again, 3)) s (CPU \(fixed(againCPU, 3)) s)",
                "< 1 s", again < 1)
        }
        if measured.count >= 2, let small = measured.first, let big = measured.last {
            let growth = mb(big.full.map(\.maxRSSKiB).max() ?? 0) - mb(small.full.map(\.maxRSSKiB).max() ?? 0)
            line(
                "peak RSS, \(big.people) people minus \(small.people)", "\(fixed(growth, 1)) MB", "≤ 32 MB (flat)",
                growth <= 32)
        }
    }

    static func mb(_ kib: Int) -> Double { Double(kib) * 1024 / 1e6 }

    /// A template person: the five tables the cohort reads, as the report writes them.
    struct Template {
        var files: [(name: String, text: String)]
    }

    /// Typed rows of `days` days for each table the cohort reads: a cell of its column's kind in
    /// about three columns of eight (the rest empty, as real days lack most measures: about 320 KB a
    /// person, 3.2 GB for 10,000, the size the target was set at), the key column
    /// (date, week, month, night) following the days.
    static func template(days: Int, seed: UInt64) -> Template {
        var random = SplitMix64(state: 0x5eed + seed)
        let first = CivilDate(year: 2021, month: 11, day: 22).daysSince1970
        func cells(_ schema: TableSchema, rows: Int, key: (Int) -> TableCell) -> String {
            var text = CSV.line(schema.header)
            for r in 0..<rows {
                var line: [String] = []
                for (c, column) in schema.columns.enumerated() {
                    let cell: TableCell
                    if c == 0 {
                        cell = key(r)
                    } else if random.next() % 8 < 5 {
                        cell = .null
                    } else {
                        switch column.kind {
                        case .text:
                            cell = .text(column.name == "kind" ? (r % 10 == 0 ? "nap" : "night") : "Europe/Berlin")
                        case .integer: cell = .integer(Int(random.next() % 5000))
                        case .number: cell = .number(Double(random.next() % 2_000_000) / 137)
                        case .boolean: cell = .boolean(random.next() % 2 == 0)
                        case .date: cell = .date(CivilDate(daysSince1970: first + r))
                        case .timestamp:
                            cell = .timestamp(
                                LocalTime(secondsSince1970: Int64(first + r) * 86_400 + 25_200, utcOffsetSeconds: 3_600)
                            )
                        }
                    }
                    line.append(cell.csvText(column.kind))
                }
                text += CSV.line(line)
            }
            return text
        }
        func padded(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        func day(_ r: Int) -> CivilDate { CivilDate(daysSince1970: first + r) }
        var files: [(name: String, text: String)] = []
        for table in [ReportTableID.daily, .weekly, .monthly, .sleep, .workouts] {
            let schema = table.schema
            switch table {
            case .daily, .sleep: files.append((schema.fileName, cells(schema, rows: days) { .date(day($0)) }))
            case .weekly:
                files.append(
                    (
                        schema.fileName,
                        cells(schema, rows: days / 7) { .text("\(2022 + $0 / 52)-W\(padded(1 + $0 % 52))") }
                    ))
            case .monthly:
                files.append(
                    (
                        schema.fileName,
                        cells(schema, rows: days / 30) { .text("\(2022 + $0 / 12)-\(padded(1 + $0 % 12))") }
                    ))
            default:
                files.append(
                    (
                        schema.fileName,
                        cells(schema, rows: days / 2) {
                            .timestamp(
                                LocalTime(
                                    secondsSince1970: Int64(first + 2 * $0) * 86_400 + 64_800, utcOffsetSeconds: 3_600))
                        }
                    ))
            }
        }
        return Template(files: files)
    }

    /// Writes `people` person folders (template k mod 8) and their status records into
    /// `folder`, unless a complete set is there (`.complete`); the bytes of their CSV files.
    static func makeFolders(_ folder: String, people: Int, templates: [Template]) throws -> Int64 {
        let perPerson = templates.map { $0.files.reduce(Int64(0)) { $0 + Int64($1.text.utf8.count) } }
        let bytes = (0..<people).reduce(Int64(0)) { $0 + perPerson[$1 % templates.count] }
        if (try? BatchBenchmark.fileSize(folder + "/.complete")) != nil { return bytes }
        _ = try BatchBenchmark.spawn("/bin/rm", ["-rf", folder])
        _ = mkdir(folder, 0o755)
        _ = mkdir(folder + "/.status", 0o755)
        for k in 0..<people {
            let id = "p" + String(1_000_000 + k).dropFirst()
            let person = "\(folder)/person=\(id)"
            _ = mkdir(person, 0o755)
            for file in templates[k % templates.count].files {
                try BatchBenchmark.writeFile("\(person)/\(file.name)", Array(file.text.utf8))
            }
            let status = """
                {"id": "\(id)", "outcome": "done", "message": "", "options": "", "toolVersion": "health-benchmarks",
                 "report": {"export": "/exports/\(id).zip", "daysWithData": 1500, "records": 1000000, "seconds": 10,
                 "firstDay": "2021-11-22", "lastDay": "2025-12-30"}}

                """
            try BatchBenchmark.writeFile("\(folder)/.status/\(id).json", Array(status.utf8))
        }
        try BatchBenchmark.writeFile(folder + "/.complete", [])
        return bytes
    }
}
