#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How busy the machine was while the benchmark ran, from what Linux counts for the whole
/// machine (`/proc/stat`, `/proc/loadavg`) next to what this program and its children used
/// (`getrusage`). A figure measured while other processes competed for the cores, or while the
/// hypervisor gave the cores to other guests, says nothing about a target, so above the
/// thresholds below the benchmark prints its figures but judges no target.
///
/// Thresholds (documented in docs/benchmarks.md):
/// - the 1-minute load average when the benchmark started (before any work of its own) above
///   `maxLoadPerCore` x cores;
/// - CPU time used by other processes during the runs (the machine's busy time in `/proc/stat`
///   minus this program's and its children's user + system time) above `maxOthersShare` of
///   the machine's CPU time (wall time x cores);
/// - CPU time stolen by the hypervisor (`steal` in `/proc/stat`) above `maxStealShare` of it.
struct MachineLoad {
    static let maxLoadPerCore = 0.25
    static let maxOthersShare = 0.10
    static let maxStealShare = 0.02

    /// One reading of the counters.
    struct Sample {
        /// Monotonic clock, nanoseconds.
        var wallNanoseconds: UInt64
        /// `/proc/stat`'s first line, in seconds: user + nice + system + irq + softirq (not idle,
        /// iowait, steal, or guest, which user already holds).
        var machineBusySeconds: Double
        var machineStealSeconds: Double
        /// User + system time of this process and of its waited-for children, in seconds.
        var ourSeconds: Double
        /// `/proc/loadavg`'s 1-minute load average.
        var load: Double?

        static func now() -> Sample {
            let (busy, steal) = readProcStat()
            return Sample(
                wallNanoseconds: monotonicNanoseconds(), machineBusySeconds: busy, machineStealSeconds: steal,
                ourSeconds: rusageSeconds(RUSAGE_SELF) + rusageSeconds(RUSAGE_CHILDREN), load: loadAverage())
        }
    }

    var cores: Int
    /// The 1-minute load average when the benchmark started (before it generated, deflated,
    /// warmed up or ran anything of its own, which the load average would count) and after the
    /// last run of this input.
    var loadBefore: Double?
    var loadAfter: Double?
    var wallSeconds: Double
    /// Busy CPU seconds of the whole machine during the runs.
    var machineBusySeconds: Double
    var ourSeconds: Double
    var stealSeconds: Double

    init(
        loadBefore: Double?, from start: Sample, to end: Sample, cores: Int = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    ) {
        self.cores = max(1, cores)
        self.loadBefore = loadBefore
        loadAfter = end.load
        wallSeconds = Double(end.wallNanoseconds - start.wallNanoseconds) / 1e9
        machineBusySeconds = end.machineBusySeconds - start.machineBusySeconds
        ourSeconds = end.ourSeconds - start.ourSeconds
        stealSeconds = end.machineStealSeconds - start.machineStealSeconds
    }

    /// CPU seconds other processes used during the runs (never below 0: the clock-tick counts
    /// of /proc/stat and getrusage's microseconds do not round alike).
    var othersSeconds: Double { max(0, machineBusySeconds - ourSeconds) }
    var capacitySeconds: Double { max(1e-9, wallSeconds * Double(cores)) }
    var othersShare: Double { othersSeconds / capacitySeconds }
    var stealShare: Double { max(0, stealSeconds) / capacitySeconds }

    /// Why the machine counts as busy, one reason a threshold; empty when it was quiet enough.
    var busyReasons: [String] {
        var out: [String] = []
        let maxLoad = MachineLoad.maxLoadPerCore * Double(cores)
        if let load = loadBefore, load > maxLoad {
            out.append(
                "load average \(fixed(load, 2)) when the benchmark started > \(fixed(maxLoad, 2)) (\(cores) cores)")
        }
        if othersShare > MachineLoad.maxOthersShare {
            out.append(
                "other processes used \(fixed(othersSeconds, 1)) CPU s, \(fixed(othersShare * 100, 1)) % of the"
                    + " machine's > \(fixed(MachineLoad.maxOthersShare * 100, 0)) %")
        }
        if stealShare > MachineLoad.maxStealShare {
            out.append(
                "\(fixed(stealShare * 100, 1)) % of the CPU time was stolen > \(fixed(MachineLoad.maxStealShare * 100, 0)) %"
            )
        }
        return out
    }

    var isBusy: Bool { !busyReasons.isEmpty }

    /// One line for the report.
    var summary: String {
        "load \(loadBefore.map { fixed($0, 2) } ?? "?") at start, \(loadAfter.map { fixed($0, 2) } ?? "?") after;"
            + " during \(fixed(wallSeconds, 1)) s on \(cores) cores: ours \(fixed(ourSeconds, 1)) CPU s,"
            + " others \(fixed(othersSeconds, 1)) CPU s (\(fixed(othersShare * 100, 1)) %),"
            + " stolen \(fixed(max(0, stealSeconds), 1)) s (\(fixed(stealShare * 100, 1)) %)"
    }

    var json: String {
        "{\"cores\": \(cores), \"load_before\": \(loadBefore.map { jsonNumber($0, 2) } ?? "null"), "
            + "\"load_after\": \(loadAfter.map { jsonNumber($0, 2) } ?? "null"), "
            + "\"wall_seconds\": \(jsonNumber(wallSeconds, 3)), \"our_cpu_seconds\": \(jsonNumber(ourSeconds, 3)), "
            + "\"others_cpu_seconds\": \(jsonNumber(othersSeconds, 3)), \"steal_seconds\": \(jsonNumber(stealSeconds, 3)), "
            + "\"busy\": \(isBusy), \"busy_reasons\": [\(busyReasons.map(jsonString).joined(separator: ", "))]}"
    }
}

/// User + system seconds of `who` (RUSAGE_SELF or RUSAGE_CHILDREN).
private func rusageSeconds(_ who: __rusage_who) -> Double {
    var usage = rusage()
    getrusage(who.rawValue, &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

/// The busy and the stolen seconds of the whole machine from `/proc/stat`'s `cpu` line
/// (user nice system idle iowait irq softirq steal guest guest_nice, in clock ticks); zeros
/// when it cannot be read.
private func readProcStat() -> (busy: Double, steal: Double) {
    let fd = open("/proc/stat", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return (0, 0) }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let n = read(fd, &buffer, buffer.count)
    guard n > 0 else { return (0, 0) }
    guard let line = String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").first,
        line.hasPrefix("cpu ")
    else { return (0, 0) }
    let ticks = line.split(separator: " ").dropFirst().map { Double($0) ?? 0 }
    guard ticks.count >= 8 else { return (0, 0) }
    let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
    return (busy / hz, ticks[7] / hz)
}
