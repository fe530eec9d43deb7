import Foundation

/// One batch at a time on an output folder (per shard): `<out>/.batch.lock`
/// (`.batch-<K>-of-<N>.lock` with `--shard K/N`), created with `O_CREAT | O_EXCL`, which works
/// on local and shared file systems alike (NFS, SMB, CephFS, Lustre), unlike `flock` on some.
/// It holds one line, `<host> <pid> <start, seconds since 1970 UTC>`, and its holder touches it
/// every `heartbeatSeconds` while it runs (docs/batch.md §2).
///
/// A second run finds the file and is refused at once (`BatchError`, naming the holder's pid
/// and host), unless the holder is gone: on the same host, when no process has its pid; on
/// another host, when the file was not touched for `staleSeconds` (its host may have died). A
/// stale lock is renamed aside (one taker wins the rename), checked to be the one judged stale,
/// and removed; then the lock is created again.
final class BatchLock: @unchecked Sendable {
    /// How often the holder touches the file, seconds.
    static let heartbeatSeconds: UInt32 = 60
    /// A lock of another host untouched this long is stale, seconds (10 heartbeats).
    static let staleSeconds: Int64 = 600

    let path: String
    private let line: String
    private let stop = NSCondition()
    private var stopped = false

    /// The lock file's path for `output` and `shard`.
    static func path(in output: String, shard: Shard?) -> String {
        BatchPlatform.join(output, shard.map { ".batch-\($0.index)-of-\($0.count).lock" } ?? ".batch.lock")
    }

    private init(path: String, line: String) {
        self.path = path
        self.line = line
    }

    /// Takes the lock of `output` (and `shard`), or throws naming who holds it.
    static func acquire(in output: String, shard: Shard?) throws(BatchError) -> BatchLock {
        let path = path(in: output, shard: shard)
        let host = BatchPlatform.hostName
        let line = "\(host) \(BatchPlatform.processID) \(BatchPlatform.wallClock())\n"
        for _ in 0..<3 {
            do {
                try BatchPlatform.createExclusively(path, line)
                let lock = BatchLock(path: path, line: line)
                lock.startHeartbeat()
                return lock
            } catch  where error.code == EEXIST {
                let text = (try? BatchPlatform.readText(path)) ?? ""
                let holder = Holder(text)
                if let holder, !holder.isStale(lockFile: path, host: host) {
                    throw BatchError(description: holder.refusal(output: output, lockFile: path))
                }
                // A file without its line yet: a run creating it right now, unless it is old.
                if holder == nil, (BatchPlatform.secondsSinceModified(path) ?? 0) < 10 {
                    throw BatchError(
                        description: "\(output): another batch is starting on this folder; lock file \(path)")
                }
                takeOver(path, judged: text)
            } catch {
                throw BatchError(description: "\(path): cannot create the lock file: \(error.text)")
            }
        }
        throw BatchError(description: "\(path): another batch keeps taking this folder's lock")
    }

    /// Removes a stale lock (`judged`: its text when it was judged stale), unless it changed.
    private static func takeOver(_ path: String, judged: String) {
        let aside = path + ".stale-\(BatchPlatform.processID)-\(UInt32.random(in: 0...UInt32.max))"
        guard (try? BatchPlatform.rename(path, to: aside)) != nil else { return }
        let text = (try? BatchPlatform.readText(aside)) ?? ""
        if text != judged {
            // Another run took it over in between: put its lock back (unless a third one is there).
            if (try? BatchPlatform.createExclusively(path, text)) != nil {}
        }
        BatchPlatform.removeFile(aside)
    }

    private func startHeartbeat() {
        let thread = Thread { [self] in
            stop.lock()
            while !stopped {
                _ = stop.wait(until: Date().addingTimeInterval(TimeInterval(Self.heartbeatSeconds)))
                if !stopped { BatchPlatform.touch(path) }
            }
            stop.unlock()
        }
        thread.start()
    }

    /// Ends the heartbeat and removes the lock file (when it is still this run's).
    func release() {
        stop.lock()
        stopped = true
        stop.broadcast()
        stop.unlock()
        if (try? BatchPlatform.readText(path)) == line { BatchPlatform.removeFile(path) }
    }

    /// The holder a lock file names.
    struct Holder {
        var host: String
        var pid: Int32
        var start: Int64

        init?(_ text: String) {
            let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard parts.count == 3, let pid = Int32(parts[1]), let start = Int64(parts[2]) else { return nil }
            host = String(parts[0])
            self.pid = pid
            self.start = start
        }

        func isStale(lockFile: String, host here: String) -> Bool {
            if host == here { return !BatchPlatform.processExists(pid) }
            return (BatchPlatform.secondsSinceModified(lockFile) ?? 0) > BatchLock.staleSeconds
        }

        func refusal(output: String, lockFile: String) -> String {
            let started = Date(timeIntervalSince1970: TimeInterval(start)).ISO8601Format()
            return "\(output): another batch is running on this folder (pid \(pid) on host \(host), "
                + "since \(started)); lock file \(lockFile)"
        }
    }
}
