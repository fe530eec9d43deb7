extension ExportReader {
    /// The cores this process may run on (at least 1): the default number of parser threads.
    ///
    /// The smallest of the processors online, the process's CPU affinity mask
    /// (`sched_getaffinity`, as set by `taskset` or a container's cpuset) and the CPU quota of
    /// its cgroup, rounded up (`cpu.max` of cgroup v2, `cpu.cfs_quota_us` / `cpu.cfs_period_us`
    /// of v1; a container started with `--cpus=1.5` gets 2). More parser threads than that only
    /// add the cost of splitting the input without reading it any sooner.
    public static var availableCores: Int {
        var cores = Platform.onlineProcessors
        if let mask = Platform.affinityCores { cores = min(cores, mask) }
        if let quota = cgroupQuotaCores() { cores = min(cores, quota) }
        return max(1, cores)
    }

    /// The cores a cgroup v2 `cpu.max` line allows ("max 100000": no limit, nil;
    /// "150000 100000": 1.5 cores, rounded up to 2), or nil when it is not of that form.
    public static func quotaCores(cpuMax line: String) -> Int? {
        let parts = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count == 2, let period = Int(parts[1]), period > 0 else { return nil }
        guard let quota = Int(parts[0]), quota > 0 else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    private static func cgroupQuotaCores() -> Int? {
        if let line = readSmallFile("/sys/fs/cgroup/cpu.max") { return quotaCores(cpuMax: line) }
        guard let quota = readSmallFile("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"),
            let period = readSmallFile("/sys/fs/cgroup/cpu/cpu.cfs_period_us")
        else { return nil }
        let trimmed = { (s: String) in s.filter { !$0.isWhitespace } }
        return quotaCores(cpuMax: trimmed(quota) + " " + trimmed(period))
    }
}

/// The first few hundred bytes of a pseudo-file, or nil when it cannot be read.
private func readSmallFile(_ path: String) -> String? {
    guard let bytes = Platform.prefix(of: path, count: 256), !bytes.isEmpty else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}
