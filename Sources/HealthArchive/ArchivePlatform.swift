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

    /// What `stat` says of a path (links followed): a folder or not, its size in bytes, and
    /// what it is when it is neither a regular file nor a folder ("a FIFO (named pipe)", "a
    /// character device", "a socket", "a block device"; nil for a regular file or a folder).
    struct Status {
        var isDirectory: Bool
        var size: Int64
        var special: String? = nil
    }

    /// `stat(path)`, or nil when nothing is there (or it cannot be looked at).
    static func status(_ path: String) -> Status? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        let special: String?
        switch st.st_mode & S_IFMT {
        case S_IFREG, S_IFDIR: special = nil
        case S_IFIFO: special = "a FIFO (named pipe)"
        case S_IFCHR: special = "a character device"
        case S_IFBLK: special = "a block device"
        case S_IFSOCK: special = "a socket"
        default: special = "not a regular file"
        }
        return Status(isDirectory: (st.st_mode & S_IFMT) == S_IFDIR, size: Int64(st.st_size), special: special)
    }

    /// The target of the symbolic link `path` (`readlink`), or nil when `path` is not a link.
    static func linkTarget(_ path: String) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink(path, &buffer, 4096)
        guard n >= 0 else { return "" }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True for the `errno` of a write refused because the disk or the quota is full
    /// (`ENOSPC`, `EDQUOT`).
    static func meansNoSpace(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// The system's text for `errno` `code` ("No space left on device").
    static func text(ofErrno code: Int32) -> String { String(cString: strerror(code)) }

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
