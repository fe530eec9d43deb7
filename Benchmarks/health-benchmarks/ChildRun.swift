#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The result of one run of one phase, as a child prints it on one line of standard output:
///
///     HBRESULT phase=reader status=ok wall_ns=1234 cpu_ns=1200 bytes=5678 items=90 elements=91 hwm_kib=12345 start_hwm_kib=2345 maxrss_kib=12345
///
/// `status` is `ok`, `skipped` (phase not implemented yet) or `error` (with `message`);
/// values are percent-encoded (`%`, space, control characters and non-ASCII bytes).
struct RunResult {
    enum Status: String {
        case ok, skipped, error
    }

    static let marker = "HBRESULT"

    var phase: Phase
    var status: Status
    /// Wall time of the phase only, on the monotonic clock.
    var wallNanoseconds: UInt64 = 0
    /// CPU time (user + system) of the phase only.
    var cpuNanoseconds: UInt64 = 0
    var bytes: Int64 = 0
    var items: Int64 = 0
    var elements: Int64?
    var archiveBytes: Int64?
    var rowsAdded: Int64?
    var archiveRecords: Int64?
    /// Peak RSS of the child process (KiB, VmHWM), measured after the phase.
    var peakRSSKiB: Int64 = 0
    /// Peak RSS of the child before the phase started (the process's own floor; VmHWM).
    var startPeakRSSKiB: Int64 = 0
    /// The child's `ru_maxrss` after the phase (KiB). Reported as well, but it is the larger of
    /// the child's peak and the parent's peak when the child was spawned (see `maxRSSKiB`).
    var ruMaxRSSKiB: Int64 = 0
    var message: String?

    var seconds: Double { Double(wallNanoseconds) / 1e9 }
    var cpuSeconds: Double { Double(cpuNanoseconds) / 1e9 }
    /// Throughput in MB/s, MB = 10^6 bytes of XML.
    var megabytesPerSecond: Double { seconds > 0 ? Double(bytes) / 1e6 / seconds : 0 }

    func encoded() -> String {
        var fields = [
            "phase=\(phase.rawValue)", "status=\(status.rawValue)", "wall_ns=\(wallNanoseconds)",
            "cpu_ns=\(cpuNanoseconds)",
            "bytes=\(bytes)", "items=\(items)", "hwm_kib=\(peakRSSKiB)", "start_hwm_kib=\(startPeakRSSKiB)",
            "maxrss_kib=\(ruMaxRSSKiB)",
        ]
        if let elements { fields.append("elements=\(elements)") }
        if let archiveBytes { fields.append("archive_bytes=\(archiveBytes)") }
        if let rowsAdded { fields.append("rows_added=\(rowsAdded)") }
        if let archiveRecords { fields.append("archive_records=\(archiveRecords)") }
        if let message { fields.append("message=\(percentEncoded(message))") }
        return ([RunResult.marker] + fields).joined(separator: " ")
    }

    /// Parses the first `HBRESULT` line of `output`; nil when there is none or it is malformed.
    init?(parsing output: String) {
        guard
            let line = output.split(separator: "\n").first(where: { $0.hasPrefix(RunResult.marker + " ") })
        else { return nil }
        var values: [String: String] = [:]
        for field in line.split(separator: " ").dropFirst() {
            guard let eq = field.firstIndex(of: "=") else { return nil }
            values[String(field[..<eq])] = percentDecoded(String(field[field.index(after: eq)...]))
        }
        guard let phase = values["phase"].flatMap(Phase.init(rawValue:)),
            let status = values["status"].flatMap(Status.init(rawValue:))
        else { return nil }
        self.phase = phase
        self.status = status
        wallNanoseconds = values["wall_ns"].flatMap { UInt64($0) } ?? 0
        cpuNanoseconds = values["cpu_ns"].flatMap { UInt64($0) } ?? 0
        bytes = values["bytes"].flatMap { Int64($0) } ?? 0
        items = values["items"].flatMap { Int64($0) } ?? 0
        elements = values["elements"].flatMap { Int64($0) }
        archiveBytes = values["archive_bytes"].flatMap { Int64($0) }
        rowsAdded = values["rows_added"].flatMap { Int64($0) }
        archiveRecords = values["archive_records"].flatMap { Int64($0) }
        peakRSSKiB = values["hwm_kib"].flatMap { Int64($0) } ?? 0
        startPeakRSSKiB = values["start_hwm_kib"].flatMap { Int64($0) } ?? 0
        ruMaxRSSKiB = values["maxrss_kib"].flatMap { Int64($0) } ?? 0
        message = values["message"]
    }

    init(phase: Phase, status: Status, message: String? = nil) {
        self.phase = phase
        self.status = status
        self.message = message
    }
}

private func percentEncoded(_ s: String) -> String {
    var out = ""
    for b in s.utf8 {
        if b <= 0x20 || b == 0x25 || b >= 0x7F {
            let hex = String(b, radix: 16, uppercase: true)
            out += "%" + (hex.count == 1 ? "0" : "") + hex
        } else {
            out.unicodeScalars.append(Unicode.Scalar(b))
        }
    }
    return out
}

private func percentDecoded(_ s: String) -> String {
    var bytes: [UInt8] = []
    var u = Array(s.utf8)[...]
    while let b = u.popFirst() {
        if b == 0x25, u.count >= 2, let v = UInt8(String(decoding: u.prefix(2), as: UTF8.self), radix: 16) {
            bytes.append(v)
            u = u.dropFirst(2)
        } else {
            bytes.append(b)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// The child's side: runs `phase` once on `file`, prints its `HBRESULT` line, returns the exit code.
func runPhaseInThisProcess(_ phase: Phase, file: String) -> Int32 {
    var result = RunResult(phase: phase, status: .ok)
    result.startPeakRSSKiB = highWaterRSSKiB()
    let startCPU = cpuNanoseconds()
    let start = monotonicNanoseconds()
    do {
        if let outcome = try phase.run(file: file) {
            result.wallNanoseconds = monotonicNanoseconds() - start
            result.cpuNanoseconds = cpuNanoseconds() - startCPU
            result.bytes = outcome.bytes
            result.items = outcome.items
            result.elements = outcome.elements
            result.archiveBytes = outcome.archiveBytes
            result.rowsAdded = outcome.rowsAdded
            result.archiveRecords = outcome.archiveRecords
        } else {
            result.status = .skipped
            result.message = "not implemented yet"
        }
    } catch let skip as PhaseSkipped {
        result.status = .skipped
        result.message = skip.reason
    } catch {
        result.wallNanoseconds = monotonicNanoseconds() - start
        result.status = .error
        result.message = "\(error)"
    }
    result.peakRSSKiB = highWaterRSSKiB()
    result.ruMaxRSSKiB = maxRSSKiB()
    print(result.encoded())
    return result.status == .error ? 1 : 0
}

/// The parent's side: re-executes this program (`/proc/self/exe`) as `--phase NAME FILE` and
/// collects the child's result line. The child's standard error goes to ours.
func runPhaseInChild(_ phase: Phase, file: String) throws -> RunResult {
    let executable = try selfExecutablePath()
    let arguments = [executable, "--phase", phase.rawValue, file]

    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw PhaseError(description: "pipe: \(errnoText())") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[1])

    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(fds[1])
    guard rc == 0 else {
        close(fds[0])
        throw PhaseError(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
    }

    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
        if n > 0 {
            output += buffer[0..<n]
        } else if n == 0 || errno != EINTR {
            break
        }
    }
    close(fds[0])

    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let text = String(decoding: output, as: UTF8.self)
    if let result = RunResult(parsing: text) { return result }
    let how =
        (status & 0x7F) == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(status & 0x7F)"
    return RunResult(phase: phase, status: .error, message: "the child process \(how) without a result line")
}

/// The path of this executable, from `/proc/self/exe`.
func selfExecutablePath() throws -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { throw PhaseError(description: "readlink /proc/self/exe: \(errnoText())") }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
