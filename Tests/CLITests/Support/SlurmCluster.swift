import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A one-node Slurm cluster from Debian's `slurm-wlm` and `munge` packages, configured and run
/// entirely inside one temporary folder: its own munge key and `munged` (socket, pid and seed in
/// the folder), a `slurm.conf` naming this host as controller and only node (the real CPU count
/// from `nproc`, the memory from `/proc/meminfo`), `slurmctld` and `slurmd` in the foreground
/// (`-D`) on two free TCP ports, state, spool and logs in the folder. No slurmdbd: jobs are
/// followed with `scontrol show job`, which keeps finished jobs for `MinJobAge` (300 s).
///
/// Needs root (slurmd starts jobs as their owners) and the packages `scripts/setup` installs.
/// `munged` runs as the `munge` user (through `setpriv`), or as root with `--force` when that
/// user does not exist.
///
/// Every daemon is a child of the test process (posix_spawn) and is stopped by its pid in `stop()`
/// (SIGTERM, then SIGKILL after 10 s), which `deinit` also calls, so a failing test leaves none behind.
/// Daemons left by a test process that died (a crash, a kill) carry that process's scratch folder
/// in their command line (job steps and jobs in their `SLURM_CONF`); the next cluster finds them
/// in `/proc` and kills them by pid.
final class SlurmCluster {
    /// The cluster's folder (`slurm-cluster-<UUID>` in the tests' scratch folder).
    let folder: URL
    /// The `slurm.conf` every Slurm command of this cluster reads (through `SLURM_CONF`).
    let configuration: URL
    /// The node's name: this host's short name.
    let nodeName: String
    /// The CPU count the node was configured with (`nproc`).
    let cpus: Int
    /// Seconds from the first daemon started to `sinfo` showing the node idle.
    private(set) var startupSeconds: Double = 0

    private var daemons: [Daemon] = []
    private var stopped = false

    /// A daemon started with posix_spawn (not Foundation's Process, whose exit detection, a socket
    /// the child inherits, takes a daemon's closing of inherited descriptors for its exit and then
    /// blocks in waitpid, so no Process in the test process is reaped any more).
    private final class Daemon {
        let name: String
        let pid: pid_t
        let log: URL
        private(set) var exitStatus: Int32?

        init(name: String, pid: pid_t, log: URL) {
            self.name = name
            self.pid = pid
            self.log = log
        }

        /// Reaps the daemon if it has exited (waitpid WNOHANG).
        var isRunning: Bool {
            if exitStatus != nil { return false }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { exitStatus = status }
            return exitStatus == nil
        }

        /// SIGTERM, up to `grace` seconds for it to exit, then SIGKILL; reaps it either way.
        func stop(grace: Double = 10) {
            guard isRunning else { return }
            kill(pid, SIGTERM)
            let deadline = Date().addingTimeInterval(grace)
            while isRunning && Date() < deadline { usleep(50_000) }
            guard isRunning else { return }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            if waitpid(pid, &status, 0) == pid { exitStatus = status }
        }
    }

    /// The commands and daemons the cluster needs.
    static let executables = [
        "/usr/sbin/munged", "/usr/sbin/mungekey", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch",
        "/usr/bin/squeue", "/usr/bin/sinfo", "/usr/bin/scontrol", "/usr/bin/scancel",
    ]

    /// Why no cluster can be started here, or nil when one can.
    static let unavailableReason: String? = {
        let missing = executables.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        if !missing.isEmpty {
            return "\(missing.joined(separator: ", ")) missing (scripts/setup installs slurm-wlm and munge)"
        }
        if geteuid() != 0 { return "the one-node Slurm cluster needs root (slurmd starts jobs as their users)" }
        return nil
    }()

    /// True under CI (`CI=true`), where a missing Slurm fails the Slurm tests instead of skipping them.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// Starts munged, slurmctld and slurmd and waits until the node is idle (at most 60 s).
    /// - Throws: `SlurmClusterError` naming the step that failed with the end of the daemons' logs;
    ///   every daemon started before the failure is stopped first.
    init() throws {
        if let reason = Self.unavailableReason { throw SlurmClusterError(reason) }
        Self.killDaemonsOfDeadTestProcesses()
        folder = try TestScratch.folder("slurm-cluster")
        configuration = folder.appendingPathComponent("slurm.conf")
        nodeName = Self.shortHostName()
        cpus = Self.processorCount()
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// The environment of a Slurm command (or job submission) of this cluster: the test's own,
    /// without inherited `SLURM_*`/`SBATCH_*` variables, with `SLURM_CONF` and `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("SLURM_") && !$0.key.hasPrefix("SBATCH_")
        }
        env["SLURM_CONF"] = configuration.path
        env.merge(extra) { $1 }
        return env
    }

    /// Runs a Slurm client command (`sbatch`, `squeue`, ...) against this cluster in `directory`.
    func command(
        _ name: String, _ arguments: [String], in directory: URL? = nil, environment extra: [String: String] = [:]
    ) throws -> Run {
        try Self.execute("/usr/bin/" + name, arguments, in: directory, environment: environment(extra))
    }

    /// Submits with `sbatch --parsable <arguments>` from `directory` and returns the job id (for an
    /// array, the array's job id).
    /// - Throws: `SlurmClusterError` with sbatch's message when it refuses the job.
    func submit(_ arguments: [String], in directory: URL, environment extra: [String: String] = [:]) throws -> Int {
        let r = try command("sbatch", ["--parsable"] + arguments, in: directory, environment: extra)
        let text = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard r.status == 0, let id = Int(text.split(separator: ";").first ?? "") else {
            throw SlurmClusterError("sbatch \(arguments.joined(separator: " ")) failed (\(r.status)): \(r.stderr)")
        }
        return id
    }

    /// One job, or one task of an array, as `scontrol -o show job` shows it.
    struct Job: Equatable {
        var jobID: Int
        /// The array task's index; nil for a job that is not part of an array.
        var arrayTaskID: Int?
        var state: String
        /// `ExitCode=<status>:<signal>`.
        var exitCode: String
        var startTime: String
        var endTime: String
        var fields: [String: String]
    }

    /// The jobs (array tasks one by one) of `jobID`, from `scontrol -o show job`.
    func jobs(_ jobID: Int) throws -> [Job] {
        let r = try command("scontrol", ["-o", "show", "job", String(jobID)])
        guard r.status == 0 else { throw SlurmClusterError("scontrol show job \(jobID): \(r.stderr)") }
        return r.stdout.split(separator: "\n").map { line in
            var fields: [String: String] = [:]
            for word in line.split(separator: " ") {
                let pair = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
            }
            return Job(
                jobID: Int(fields["JobId"] ?? "") ?? -1, arrayTaskID: fields["ArrayTaskId"].flatMap { Int($0) },
                state: fields["JobState"] ?? "?", exitCode: fields["ExitCode"] ?? "?",
                startTime: fields["StartTime"] ?? "?", endTime: fields["EndTime"] ?? "?", fields: fields)
        }
    }

    /// States a job does not leave.
    static let finalStates: Set<String> = [
        "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL",
        "DEADLINE",
    ]

    /// Polls `scontrol show job` every 0.25 s until every job of `jobIDs` (every task of an array)
    /// is in a final state, and returns them by id.
    /// - Throws: `SlurmClusterError` when a daemon exits, or after `timeout` seconds, with the queue
    ///   and the end of the daemons' logs.
    func waitUntilFinished(_ jobIDs: [Int], timeout: Double = 300) throws -> [Int: [Job]] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try checkDaemonsRunning()
            var all: [Int: [Job]] = [:]
            for id in jobIDs { all[id] = try jobs(id) }
            // Pending array tasks show as one PENDING line (ArrayTaskId=2-3) until they start.
            let done = all.values.allSatisfy { jobs in
                !jobs.isEmpty && jobs.allSatisfy { Self.finalStates.contains($0.state) }
            }
            if done { return all }
            if Date() > deadline {
                let queue = (try? command("squeue", ["-o", "%i %T %r"]).stdout) ?? ""
                throw SlurmClusterError(
                    "jobs \(jobIDs) not finished after \(Int(timeout)) s; squeue:\n\(queue)\(logTails())")
            }
            usleep(250_000)
        }
    }

    /// The last lines of each daemon's log, for failure messages.
    func logTails(lines: Int = 15) -> String {
        daemons.map { d in
            let text = (try? String(contentsOf: d.log, encoding: .utf8)) ?? ""
            let tail = text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
            return "\n--- \(d.name) (\(d.log.path)):\n" + tail.joined(separator: "\n")
        }.joined()
    }

    /// Cancels every job of the cluster (waiting up to 10 s for them to end), then stops slurmd,
    /// slurmctld and munged in that order, each by its pid: SIGTERM, and SIGKILL when it has not
    /// exited 10 s later; then kills, by pid, any job step or job process still running with this
    /// cluster's `SLURM_CONF` (when the jobs could not be cancelled). Safe to call more than once.
    func stop() {
        if stopped { return }
        stopped = true
        if daemons.contains(where: { $0.name == "slurmctld" && $0.isRunning }) {
            if let ids = try? command("squeue", ["-h", "-o", "%A"]).stdout.split(separator: "\n").map(String.init),
                !ids.isEmpty
            {
                _ = try? command("scancel", ids)
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline,
                    let left = try? command("squeue", ["-h", "-o", "%A"]).stdout, !left.isEmpty
                {
                    usleep(200_000)
                }
            }
        }
        for daemon in daemons.reversed() { daemon.stop() }
        killLeftoverJobProcesses()
    }

    /// True while every daemon the cluster started is running.
    var allDaemonsRunning: Bool { !daemons.isEmpty && daemons.allSatisfy { $0.isRunning } }

    /// The pids of the daemons, by name.
    var daemonPIDs: [String: Int32] {
        Dictionary(uniqueKeysWithValues: daemons.map { ($0.name, $0.pid) })
    }

    // MARK: - Starting

    private func start() throws {
        let began = Date()
        // munged (running as the munge user) walks every folder above its socket.
        _ = chmod(TestScratch.root.path, 0o755)
        _ = chmod(folder.path, 0o755)
        let socket = try startMunge()
        let (controllerPort, nodePort) = try Self.twoFreePorts()
        let memory = Self.memoryMiB()
        for sub in ["state", "spool", "log", "run"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let dir = folder.path
        let conf = """
            # One-node test cluster (Tests/CLITests/Support/SlurmCluster.swift).
            ClusterName=hatest
            SlurmctldHost=\(nodeName)(127.0.0.1)
            SlurmctldPort=\(controllerPort)
            SlurmdPort=\(nodePort)
            SlurmUser=root
            SlurmdUser=root
            AuthType=auth/munge
            CredType=cred/munge
            AuthInfo=socket=\(socket.path)
            StateSaveLocation=\(dir)/state
            SlurmdSpoolDir=\(dir)/spool
            SlurmctldPidFile=\(dir)/run/slurmctld.pid
            SlurmdPidFile=\(dir)/run/slurmd.pid
            SlurmctldLogFile=\(dir)/log/slurmctld.log
            SlurmdLogFile=\(dir)/log/slurmd.log
            ProctrackType=proctrack/linuxproc
            TaskPlugin=task/none
            SelectType=select/cons_tres
            SelectTypeParameters=CR_Core
            JobAcctGatherType=jobacct_gather/none
            AccountingStorageType=accounting_storage/none
            JobCompType=jobcomp/none
            MpiDefault=none
            ReturnToService=2
            MailProg=/bin/true
            SlurmdParameters=config_overrides
            NodeName=\(nodeName) NodeAddr=127.0.0.1 CPUs=\(cpus) RealMemory=\(memory) State=UNKNOWN
            PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP

            """
        try conf.write(to: configuration, atomically: true, encoding: .utf8)
        let env = environment()
        try launch("slurmctld", "/usr/sbin/slurmctld", ["-D", "-f", configuration.path], environment: env)
        try launch(
            "slurmd", "/usr/sbin/slurmd", ["-D", "-f", configuration.path, "-N", nodeName], environment: env)
        try waitForIdleNode(deadline: began.addingTimeInterval(60))
        startupSeconds = Date().timeIntervalSince(began)
    }

    /// Makes a key and starts munged; returns its socket once it exists.
    private func startMunge() throws -> URL {
        let munge = folder.appendingPathComponent("munge")
        try FileManager.default.createDirectory(at: munge, withIntermediateDirectories: false)
        let key = munge.appendingPathComponent("munge.key")
        let made = try Self.execute("/usr/sbin/mungekey", ["--create", "--keyfile=\(key.path)"])
        guard made.status == 0 else { throw SlurmClusterError("mungekey --create failed: \(made.stderr)") }
        let socket = munge.appendingPathComponent("munge.socket")
        let options = [
            "-F", "--key-file=\(key.path)", "--socket=\(socket.path)",
            "--pid-file=\(munge.appendingPathComponent("munged.pid").path)",
            "--seed-file=\(munge.appendingPathComponent("munged.seed").path)",
            "--log-file=\(munge.appendingPathComponent("munged.log").path)",
        ]
        // munged refuses a key or socket folder others may write, and one owned by another user.
        _ = chmod(munge.path, 0o755)
        _ = chmod(key.path, 0o600)
        if let user = getpwnam("munge") {
            let uid = user.pointee.pw_uid
            let gid = user.pointee.pw_gid
            guard chown(munge.path, uid, gid) == 0, chown(key.path, uid, gid) == 0 else {
                throw SlurmClusterError("cannot give \(munge.path) to the munge user: errno \(errno)")
            }
            // setpriv execs munged, so the pid the test holds is munged's own.
            try launch(
                "munged", "/usr/bin/setpriv",
                ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "/usr/sbin/munged"]
                    + options, environment: ProcessInfo.processInfo.environment)
        } else {
            try launch(
                "munged", "/usr/sbin/munged", ["--force"] + options, environment: ProcessInfo.processInfo.environment)
        }
        let deadline = Date().addingTimeInterval(15)
        while !FileManager.default.fileExists(atPath: socket.path) {
            try checkDaemonsRunning()
            if Date() > deadline { throw SlurmClusterError("munged made no socket in 15 s\(logTails())") }
            usleep(50_000)
        }
        return socket
    }

    /// Starts `path` with its own process group, every signal at its default and unblocked (the
    /// test runner's threads block some, which a child would inherit), standard input from
    /// /dev/null, standard output and error to `<folder>/<name>.out`, no other descriptors.
    private func launch(_ name: String, _ path: String, _ arguments: [String], environment: [String: String]) throws {
        let log = folder.appendingPathComponent("\(name).out")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in Int32(1)..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // No closefrom action in Swift's Glibc: close what is open now (glibc ignores EBADF here).
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SlurmClusterError("cannot start \(path): posix_spawn error \(result)") }
        daemons.append(Daemon(name: name, pid: pid, log: log))
    }

    private func checkDaemonsRunning() throws {
        if let dead = daemons.first(where: { !$0.isRunning }) {
            throw SlurmClusterError("\(dead.name) exited (wait status \(dead.exitStatus ?? -1))\(logTails())")
        }
    }

    private func waitForIdleNode(deadline: Date) throws {
        var last = ""
        while true {
            try checkDaemonsRunning()
            let r = try command("sinfo", ["-h", "-N", "-o", "%T"])
            last = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + r.stderr
            if r.status == 0 && last == "idle" { return }
            if Date() > deadline {
                throw SlurmClusterError("node not idle after 60 s (sinfo: \(last))\(logTails())")
            }
            usleep(200_000)
        }
    }

    // MARK: - The machine

    private static func shortHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(name.split(separator: ".").first ?? "localhost")
    }

    /// `nproc`: the CPUs this process may run on.
    private static func processorCount() -> Int {
        if let r = try? execute("/usr/bin/nproc", []),
            let n = Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)),
            n > 0
        {
            return n
        }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }

    /// MemTotal from /proc/meminfo in MiB (what `slurmd -C` reports as RealMemory).
    private static func memoryMiB() -> Int {
        let text = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where line.hasPrefix("MemTotal:") {
            if let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return kib / 1024 }
        }
        return 1024
    }

    /// Two TCP ports nobody listens on now (bound to port 0, read back, closed).
    private static func twoFreePorts() throws -> (Int, Int) {
        var sockets: [Int32] = []
        defer { for s in sockets { close(s) } }
        var ports: [Int] = []
        for _ in 0..<2 {
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard s >= 0 else { throw SlurmClusterError("socket(): errno \(errno)") }
            sockets.append(s)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = INADDR_ANY
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(s, pointer, length) == 0 && getsockname(s, pointer, &length) == 0
                }
            }
            guard bound else { throw SlurmClusterError("bind(0): errno \(errno)") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return (ports[0], ports[1])
    }

    /// Kills (SIGKILL, by pid) what a crashed or killed test run left running: daemons whose
    /// command line, and job steps and job processes whose `SLURM_CONF`, name a cluster folder of
    /// a test process that is no longer alive.
    private static func killDaemonsOfDeadTestProcesses() {
        let marker = "/health-analyzer-tests-"
        for (pid, text) in processTexts() {
            guard let range = text.range(of: marker), text.contains("/slurm-cluster-") else { continue }
            let digits = text[range.upperBound...].prefix { $0.isNumber }
            guard let owner = Int32(digits), owner != getpid() else { continue }
            if kill(owner, 0) == 0 || errno != ESRCH { continue }
            kill(pid, SIGKILL)
        }
    }

    /// Kills (SIGKILL, by pid) every process whose environment holds this cluster's `SLURM_CONF`:
    /// job steps (`slurmstepd`) and job processes that outlived the daemons.
    private func killLeftoverJobProcesses() {
        let needle = "SLURM_CONF=\(configuration.path) "
        for (pid, text) in Self.processTexts() where text.contains(needle) { kill(pid, SIGKILL) }
    }

    /// Every other process's command line and environment, NULs as spaces (one trailing).
    private static func processTexts() -> [(pid: pid_t, text: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name in
            guard let pid = Int32(name), pid != getpid() else { return nil }
            var bytes: [UInt8] = []
            for file in ["cmdline", "environ"] {
                guard let data = FileManager.default.contents(atPath: "/proc/\(name)/\(file)") else { continue }
                bytes += data.map { $0 == 0 ? 32 : $0 } + [32]
            }
            return bytes.isEmpty ? nil : (pid, String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Runs `path` with `arguments` to the end; standard input from /dev/null.
    static func execute(
        _ path: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil
    ) throws -> Run {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        if let environment { p.environment = environment }
        if let directory { p.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // Read standard error on another thread so that neither pipe fills while the other is read.
        nonisolated(unsafe) var e = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            e = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Run(
            status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self))
    }
}

/// Why the test cluster did not start or a job did not finish.
struct SlurmClusterError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
