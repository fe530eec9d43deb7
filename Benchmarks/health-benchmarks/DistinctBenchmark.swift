// `health-benchmarks --distinct`: import and inspect over exports where every record names a
// source and a device string of its own, at two or more sizes, to show that the cost per distinct
// value does not grow with their number (a look-up that scans what it has seen would make it
// grow linearly, the whole run quadratically).
//
// For each size N it writes (once, kept in DIR) an export of N step records, record k from
// source "Source k" with device "<<HKDevice: 0x…>, name:Device k, …>", then runs the built
// `health-analyzer` (beside this executable) as child processes, timed with wait4's rusage, in
// rounds (default 3): `import` into a fresh archive, and `inspect`. It prints, per size and
// command, the median wall time, microseconds per record and the largest peak RSS, and the ratio
// of microseconds per record between each size and the smallest: linear growth keeps it near 1
// (a quadratic look-up doubles it with each doubling of N). Not judged against a target: the
// figures are read side by side, with the machine's load printed.

import HealthExport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

enum DistinctBenchmark {
    static let help = """
        Usage: health-benchmarks --distinct [--sizes N,N...] [--repeat N] [--dir DIR]

        Writes exports of N records (default sizes 125000,250000), each record with a source and a
        device string of its own, into DIR (default bench-data/distinct; kept for later runs), and
        times 'health-analyzer import' into a new archive and 'health-analyzer inspect' over each,
        --repeat rounds (default 3). Microseconds per record should stay flat from size to size.
        Build first:
          swift build -c release --product health-analyzer --product health-benchmarks
        """

    static func main(_ arguments: [String]) -> Int32 {
        let loadAtStart = MachineLoad.Sample.now().load
        let sizes: [Int]
        let rounds: Int
        let dir: String
        do {
            guard let options = try ModeOptions(arguments, mode: "distinct", names: ["--sizes", "--repeat", "--dir"])
            else {
                print(help)
                return 0
            }
            sizes = try options.wholeNumbers("--sizes", or: [125_000, 250_000]).sorted()
            rounds = try options.wholeNumber("--repeat", or: 3)
            dir = options.text("--dir", or: "bench-data/distinct")
        } catch {
            printError("error: \(error.message)")
            return 64
        }
        do {
            try run(sizes: sizes, rounds: rounds, dir: dir, loadAtStart: loadAtStart)
            return 0
        } catch {
            printError("error: \(error)")
            return 1
        }
    }

    /// One command's figures at one size.
    struct Figures {
        var wall: [Double] = []
        var maxRSSKiB = 0
    }

    static func run(sizes: [Int], rounds: Int, dir: String, loadAtStart: Double?) throws {
        let tool = try BatchBenchmark.toolPath()
        _ = mkdir(dir, 0o755)
        let start = MachineLoad.Sample.now()
        var results: [(size: Int, command: String, figures: Figures)] = []
        for n in sizes {
            let path = "\(dir)/distinct-\(n).xml"
            let bytes = try generate(path, records: n)
            print("\(n) records, \(n) sources and \(n) device strings, \(bytes / 1_000_000) MB: \(path)")
            var imports = Figures()
            var inspects = Figures()
            for k in 1...rounds {
                let db = "\(dir)/distinct-\(n).sqlite"
                for suffix in ["", "-wal", "-shm"] { _ = unlink(db + suffix) }
                let i = try BatchBenchmark.spawn(tool, ["import", path, "--db", db, "--quiet"])
                guard i.status == 0 else { throw BatchBenchmark.Failure(description: "import exited \(i.status)") }
                let s = try BatchBenchmark.spawn(tool, ["inspect", path])
                guard s.status == 0 else { throw BatchBenchmark.Failure(description: "inspect exited \(s.status)") }
                imports.wall.append(i.wallSeconds)
                imports.maxRSSKiB = max(imports.maxRSSKiB, i.maxRSSKiB)
                inspects.wall.append(s.wallSeconds)
                inspects.maxRSSKiB = max(inspects.maxRSSKiB, s.maxRSSKiB)
                print("  [\(k)/\(rounds)] import \(fixed(i.wallSeconds, 2)) s, inspect \(fixed(s.wallSeconds, 2)) s")
                for suffix in ["", "-wal", "-shm"] { _ = unlink(db + suffix) }
            }
            results.append((n, "import", imports))
            results.append((n, "inspect", inspects))
        }
        let cores = ExportReader.availableCores
        let machine = MachineLoad(loadBefore: loadAtStart, from: start, to: MachineLoad.Sample.now(), cores: cores)
        print("machine: \(machine.summary)")
        for reason in machine.busyReasons { print("  busy: \(reason)") }
        for command in ["import", "inspect"] {
            let rows = results.filter { $0.command == command }
            guard let smallest = rows.first else { continue }
            let base = median(smallest.figures.wall) / Double(smallest.size) * 1e6
            for row in rows {
                let perRecord = median(row.figures.wall) / Double(row.size) * 1e6
                print(
                    "\(command) \(row.size): median \(fixed(median(row.figures.wall), 2)) s,"
                        + " \(fixed(perRecord, 2)) µs per record (× \(fixed(perRecord / base, 2)) of \(smallest.size)),"
                        + " peak RSS \(fixed(Double(row.figures.maxRSSKiB) * 1024 / 1e6, 1)) MB")
            }
        }
    }

    /// Writes the export of `records` records with distinct sources and devices unless a file of
    /// that name is there; its size.
    static func generate(_ path: String, records: Int) throws -> Int64 {
        if let size = try? BatchBenchmark.fileSize(path), size > 0 { return size }
        guard let file = fopen(path + ".tmp", "wb") else {
            throw BatchBenchmark.Failure(description: "\(path): cannot create")
        }
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2025-12-31 23:00:00 +0000"/>

            """
        for k in 0..<records {
            // One record a minute from 2025-01-01 00:00 UTC.
            let minute = k % 1440
            let day = 1 + (k / 1440) % 28
            let month = 1 + (k / (1440 * 28)) % 12
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            let date = "2025-\(two(month))-\(two(day)) \(two(minute / 60)):\(two(minute % 60)):00 +0000"
            text +=
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Source \(k)\" sourceVersion=\"1.0\""
                + " device=\"&lt;&lt;HKDevice: 0x\(String(k, radix: 16))&gt;, name:Device \(k), manufacturer:Maker,"
                + " model:Model \(k), hardware:Hw\(k), software:1.0&gt;\" unit=\"count\" creationDate=\"\(date)\""
                + " startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(k % 97 + 1)\"/>\n"
            if text.utf8.count > 1 << 20 {
                _ = fwrite(text, 1, text.utf8.count, file)
                text = ""
            }
        }
        text += "</HealthData>\n"
        _ = fwrite(text, 1, text.utf8.count, file)
        fclose(file)
        guard rename(path + ".tmp", path) == 0 else {
            throw BatchBenchmark.Failure(description: "\(path): cannot rename")
        }
        return try BatchBenchmark.fileSize(path)
    }
}
