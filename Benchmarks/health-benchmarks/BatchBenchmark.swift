// `health-benchmarks --batch`: the batch command against the sum of single-thread reports.
//
// Generates N exports of 20 to 120 days (and 2 damaged ones) into a folder, then runs the built
// `health-analyzer` (beside this executable) as child processes, timed with wait4's rusage, in
// rounds (default 5), each of:
// 1. `report --threads 1` for every person: the sum of their CPU time (user + system);
// 2. `batch --jobs <cores>` into a fresh folder: wall time and the batch's peak RSS
//    (ru_maxrss of the child; the people run in its threads);
// 3. the same batch again with `--shard 0/1` (every person, no cohort): the unchanged rerun;
// 4. `cohort`.
// 1 and 2 alternate (1 2 in odd rounds, 2 1 in even ones), and the batch target is judged on the
// median of the rounds' ratios of 2 to (1) ÷ cores; 3 and 4 on their medians, the RSS on its
// largest. Targets (docs/benchmarks.md): 2 ≤ 1.1 × (1) ÷ cores; 3 under 1 s; 4 under 2 s; peak RSS ≤ jobs
// × 96 MB. As for the other phases, nothing is judged on a busy machine (MachineLoad: the load
// when the program started, others' CPU time, steal) or with fewer than 5 rounds.

import HealthExport
import SyntheticExport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

enum BatchBenchmark {
    static let help = """
        Usage: health-benchmarks --batch [--people N] [--min-days N] [--max-days N] [--jobs N] [--repeat N]
                                         [--dir DIR]

        Generates N exports (default 200; days spread evenly over --min-days to --max-days,
        default 20 to 120) and 2 damaged ones into DIR (default bench-data/batch; kept for
        later runs), then measures the batch command in --repeat rounds (default 5; targets are
        judged on 5 or more, on a quiet machine; see the file's comment). Build first:
          swift build -c release --product health-analyzer --product health-benchmarks
        """

    static func main(_ arguments: [String]) -> Int32 {
        let loadAtStart = MachineLoad.Sample.now().load  // before any work of ours
        let rounds: Int
        let people: Int
        let minDays: Int
        let maxDays: Int
        let jobs: Int
        let dir: String
        do throws(UsageError) {
            let names: Set = ["--people", "--min-days", "--max-days", "--jobs", "--repeat", "--dir"]
            guard let options = try ModeOptions(arguments, mode: "batch", names: names) else {
                print(help)
                return 0
            }
            rounds = try options.wholeNumber("--repeat", or: 5)
            people = try options.wholeNumber("--people", or: 200)
            minDays = try options.wholeNumber("--min-days", or: 20)
            maxDays = try options.wholeNumber("--max-days", or: 120)
            jobs = try options.wholeNumber("--jobs", or: ExportReader.availableCores)
            dir = options.text("--dir", or: "bench-data/batch")
            guard minDays <= maxDays else { throw UsageError(message: "--min-days is above --max-days") }
        } catch {
            printError("error: \(error.message)")
            return 64
        }
        do {
            try run(
                people: people, minDays: minDays, maxDays: maxDays, jobs: jobs, rounds: rounds, dir: dir,
                loadAtStart: loadAtStart)
            return 0
        } catch {
            printError("error: \(error)")
            return 1
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// One round's figures.
    struct Round {
        var singleCPUSeconds: Double
        var batch: ChildResult
        var rerun: ChildResult
        var cohort: ChildResult
    }

    static func run(
        people: Int, minDays: Int, maxDays: Int, jobs: Int, rounds: Int, dir: String, loadAtStart: Double?
    ) throws {
        let tool = try toolPath()
        let inputs = dir + "/exports"
        _ = mkdir(dir, 0o755)
        _ = mkdir(inputs, 0o755)
        var bytes: Int64 = 0
        var ids: [String] = []
        for k in 0..<people {
            let id = "p\(String(1000 + k).dropFirst())"
            let days = minDays + (people == 1 ? 0 : k * (maxDays - minDays) / (people - 1))
            let path = "\(inputs)/\(id).xml"
            bytes += try generate(path, days: days, seed: UInt64(100 + k))
            ids.append(id)
        }
        // Two damaged exports: one cut in the middle, one that is not XML.
        let first = "\(inputs)/\(ids[0]).xml"
        try writeFile("\(inputs)/damaged-cut.xml", Array(try readFile(first).prefix(Int(fileSize(first) / 2))))
        try writeFile("\(inputs)/damaged-garbage.xml", Array("not an export\n".utf8))
        let cores = ExportReader.availableCores
        print(
            "batch benchmark: \(people) exports (\(minDays) to \(maxDays) days, \(bytes / 1_000_000) MB) + 2 damaged; \(cores) cores, --jobs \(jobs), \(rounds) rounds"
        )

        let scratch = dir + "/single"
        let out = dir + "/out"
        func singles() throws -> Double {
            var cpu = 0.0
            for id in ids {
                let r = try spawn(
                    tool, ["report", "\(inputs)/\(id).xml", "--out", scratch, "--threads", "1", "--quiet"])
                guard r.status == 0 else { throw Failure(description: "report of \(id) failed (status \(r.status))") }
                cpu += r.cpuSeconds
            }
            return cpu
        }
        func batch() throws -> ChildResult {
            _ = try spawn("/bin/rm", ["-rf", out, scratch, dir + "/.single.lock"])
            let batch = try spawn(tool, ["batch", inputs, "--out", out, "--jobs", "\(jobs)", "--quiet"])
            guard batch.status == 2 else {
                throw Failure(description: "batch exited \(batch.status), expected 2 (2 damaged: some people failed)")
            }
            return batch
        }
        let start = MachineLoad.Sample.now()
        var done: [Round] = []
        for k in 1...rounds {
            var cpu = 0.0
            var b: ChildResult
            if k % 2 == 1 {
                cpu = try singles()
                b = try batch()
            } else {
                b = try batch()
                cpu = try singles()
            }
            let rerun = try spawn(
                tool, ["batch", inputs, "--out", out, "--jobs", "\(jobs)", "--shard", "0/1", "--quiet"])
            let cohort = try spawn(tool, ["cohort", out, "--quiet"])
            guard cohort.status == 0 else { throw Failure(description: "cohort exited \(cohort.status)") }
            let round = Round(singleCPUSeconds: cpu, batch: b, rerun: rerun, cohort: cohort)
            print(
                "[\(k)/\(rounds)] single-thread reports \(fixed(cpu, 2)) CPU s; batch \(fixed(b.wallSeconds, 2)) s"
                    + " (\(fixed(b.wallSeconds / (cpu / Double(cores)), 3)) × the ideal); rerun \(fixed(rerun.wallSeconds, 3)) s;"
                    + " cohort \(fixed(cohort.wallSeconds, 3)) s")
            done.append(round)
        }
        let machine = MachineLoad(loadBefore: loadAtStart, from: start, to: MachineLoad.Sample.now(), cores: cores)
        let judging = Judging(machine: machine, rounds: rounds)
        let ratios = done.map { $0.batch.wallSeconds / ($0.singleCPUSeconds / Double(cores)) }
        let rerun = median(done.map(\.rerun.wallSeconds))
        let cohort = median(done.map(\.cohort.wallSeconds))
        let rssMB = Double(done.map(\.batch.maxRSSKiB).max() ?? 0) * 1024 / 1e6
        print("machine: \(machine.summary)")
        for reason in machine.busyReasons { print("  busy: \(reason)") }
        func line(_ name: String, _ value: String, _ target: String, _ met: Bool) {
            print(
                "\(name.padding(toLength: 50, withPad: " ", startingAt: 0)) \(value)  (target \(target))  \(judging.verdict(met).rawValue)"
            )
        }
        let ideal = median(done.map(\.singleCPUSeconds)) / Double(cores)
        print(
            "single-thread report CPU, sum over people, median \(fixed(ideal * Double(cores), 2)) s (÷ \(cores) cores: \(fixed(ideal, 2)) s)"
        )
        let r = median(ratios)
        line(
            "batch --jobs \(jobs) wall ÷ the ideal, median",
            "\(fixed(r, 3)) (min \(fixed(ratios.min() ?? .nan, 3)), max \(fixed(ratios.max() ?? .nan, 3)))",
            "≤ 1.1", r <= 1.1)
        line("batch peak RSS, largest", "\(fixed(rssMB, 1)) MB", "≤ \(jobs * 96) MB", rssMB <= Double(jobs * 96))
        line("unchanged rerun (--shard 0/1, no cohort), median", "\(fixed(rerun, 3)) s", "< 1 s", rerun < 1)
        line("cohort, median", "\(fixed(cohort, 3)) s", "< 2 s", cohort < 2)
    }

    /// Writes a synthetic export of `days` days unless a file of that name is there; its size.
    static func generate(_ path: String, days: Int, seed: UInt64) throws -> Int64 {
        if let size = try? fileSize(path), size > 0 { return size }
        guard let file = fopen(path + ".tmp", "wb") else { throw Failure(description: "\(path): cannot create") }
        let config = SyntheticExportConfiguration(
            firstDay: "2025-01-06", days: days, seed: seed, ownerName: "Person\(seed)", extendedHealthData: true)
        _ = SyntheticExport.write(config) { chunk in _ = fwrite(chunk.baseAddress, 1, chunk.count, file) }
        fclose(file)
        guard rename(path + ".tmp", path) == 0 else { throw Failure(description: "\(path): cannot rename") }
        return try fileSize(path)
    }

    struct ChildResult {
        var status: Int32
        var wallSeconds: Double
        var cpuSeconds: Double
        var maxRSSKiB: Int
    }

    /// Runs `path` with `arguments` (standard output to /dev/null) and waits for it.
    static func spawn(_ path: String, _ arguments: [String]) throws -> ChildResult {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let start = monotonicSeconds()
        let rc = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard rc == 0 else { throw Failure(description: "cannot start \(path): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let wall = monotonicSeconds() - start
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildResult(
            status: exit, wallSeconds: wall, cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            maxRSSKiB: Int(usage.ru_maxrss))
    }

    /// `health-analyzer` in this executable's folder.
    static func toolPath() throws -> String {
        let me = try selfExecutablePath()
        let folder = me.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let tool = folder + "/health-analyzer"
        guard access(tool, X_OK) == 0 else {
            throw Failure(
                description: "\(tool) not found: build it first (swift build -c release --product health-analyzer)")
        }
        return tool
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func fileSize(_ path: String) throws -> Int64 {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Failure(description: "\(path): \(String(cString: strerror(errno)))") }
        return Int64(st.st_size)
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw Failure(description: "\(path): cannot open") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        guard let file = fopen(path, "wb") else { throw Failure(description: "\(path): cannot create") }
        defer { fclose(file) }
        _ = fwrite(bytes, 1, bytes.count, file)
    }
}
