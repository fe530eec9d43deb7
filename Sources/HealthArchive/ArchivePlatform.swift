import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The archive's calls into the C library (files beside the SQLite database), in one file: the
// only file of HealthArchive that imports it (docs/architecture.md). A port changes this file only.

private func cOpen(_ path: String) -> Int32 { open(path, O_RDONLY | O_CLOEXEC) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cLink(_ from: String, _ to: String) -> Int32 { link(from, to) }
private func cUnlink(_ path: String) -> Int32 { unlink(path) }
private func cAccess(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }

/// The system calls of the archive, retried on EINTR where a signal can interrupt them.
enum ArchivePlatform {
    /// Raises the nice value of the calling thread by `n` (Linux: a thread's own; threads it
    /// starts inherit it). Failure changes nothing and is ignored.
    static func lowerThisThreadsPriority(by n: Int32) {
        guard n > 0 else { return }
        errno = 0
        let now = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        if errno != 0 { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, now + n))
    }

    /// What `stat` says of a path (links followed): a folder or not, and its size in bytes.
    struct Status {
        var isDirectory: Bool
        var size: Int64
    }

    /// `stat(path)`, or nil when nothing is there (or it cannot be looked at).
    static func status(_ path: String) -> Status? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Status(isDirectory: (st.st_mode & S_IFMT) == S_IFDIR, size: Int64(st.st_size))
    }

    /// What `access` checks.
    enum Access {
        case read, readWrite, write, writeAndSearch
        fileprivate var mode: Int32 {
            switch self {
            case .read: return R_OK
            case .readWrite: return R_OK | W_OK
            case .write: return W_OK
            case .writeAndSearch: return W_OK | X_OK
            }
        }
    }

    /// Whether this process may use `path` so (`access`).
    /// - Throws: `Errno` when it may not (EACCES, EROFS, ENOENT, …).
    static func checkAccess(_ path: String, _ access: Access) throws(Errno) {
        guard cAccess(path, access.mode) == 0 else { throw .current }
    }

    /// The names in folder `path` (without `.` and `..`); empty when it cannot be listed.
    static func folderEntries(_ path: String) -> [String] { (try? folderEntryNames(path)) ?? [] }

    /// Sleeps `microseconds` (the waits for another process's lock).
    static func sleep(microseconds: UInt32) { _ = usleep(microseconds) }

    /// Monotonic seconds (CLOCK_MONOTONIC), for time limits.
    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// This process's id.
    static var processID: Int32 { getpid() }

    /// The current time, in whole seconds since 1970 (UTC).
    static var now: Int64 { Int64(time(nil)) }

    /// Removes the name `path` (`unlink`); nothing happens when it is not there.
    static func remove(_ path: String) { _ = cUnlink(path) }

    /// A second name `to` for the file `from` (`link(2)`): fails when `to` exists.
    /// - Throws: `Errno` (`.alreadyExists` when `to` exists).
    static func link(_ from: String, to: String) throws(Errno) {
        guard cLink(from, to) == 0 else { throw .current }
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter).
    /// - Throws: `Errno` when it cannot be opened or read.
    static func prefix(of path: String, count: Int) throws(Errno) -> [UInt8] {
        let fd = try systemCall { cOpen(path) }
        defer { _ = cClose(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try systemCall { pread(fd, &bytes, count, 0) }
        return Array(bytes[0..<n])
    }
}
