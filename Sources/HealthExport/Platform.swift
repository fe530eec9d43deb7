import CHealthSystem
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// The reader's calls into the C library, in one file: the only file of HealthExport that imports
// it, or CHealthSystem (the C calls Swift cannot make; docs/architecture.md). Calls that a signal
// can interrupt are retried on EINTR, and a failure is an `Errno` (both from SystemCalls). A port
// (Musl, macOS) changes this file only.

/// What `stat` says of a file: its kind and its size in bytes.
struct FileStatus {
    enum Kind {
        case regular, directory, other
    }
    var kind: Kind
    var size: Int64

    fileprivate init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int64(st.st_size)
    }
}

private func cOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func cClose(_ fd: Int32) -> Int32 { close(fd) }
private func cRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { read(fd, p, n) }
private func cPread(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int, _ o: Int64) -> Int {
    pread(fd, p, n, off_t(o))
}
private func cFree(_ p: UnsafeMutableRawPointer?) { free(p) }
private func cStrtod(_ s: UnsafePointer<CChar>, _ end: inout UnsafeMutablePointer<CChar>?) -> Double { strtod(s, &end) }

/// The system calls of the reader (files, folders, threads), each retried on EINTR where a
/// signal can interrupt it.
enum Platform {
    /// How a file is opened: always read-only.
    struct OpenOptions: OptionSet {
        let rawValue: Int32
        /// `O_NONBLOCK`: a FIFO or device does not block the open (or the reads).
        static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        /// `O_NOFOLLOW`: a symbolic link as the last component fails the open.
        static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
        /// `O_CLOEXEC`: not inherited by child processes.
        static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
    }

    /// Opens `path` for reading; returns the descriptor.
    /// - Throws: `Errno` (ENOENT, EACCES, ELOOP for a link with `.noFollow`, …).
    static func open(_ path: String, _ options: OpenOptions = []) throws(Errno) -> Int32 {
        try systemCall { cOpen(path, O_RDONLY | options.rawValue) }
    }

    /// Closes `fd`. Not retried: on Linux the descriptor is gone even when close reports EINTR.
    static func close(_ fd: Int32) { _ = cClose(fd) }

    /// Reads up to `buffer.count` bytes from `fd`; 0 at the end.
    /// - Throws: `Errno` (EIO, EAGAIN on a non-blocking descriptor with nothing to read, …).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try systemCall { cRead(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes of `fd` from byte `offset` on, without moving its offset.
    /// - Throws: `Errno`.
    static func read(_ fd: Int32, at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(Errno)
        -> Int
    {
        try systemCall { cPread(fd, buffer.baseAddress, buffer.count, offset) }
    }

    /// The first bytes of `path` (at most `count`), or nil when it cannot be opened or read or
    /// is not a regular file (opened non-blocking, so that a FIFO cannot block).
    static func prefix(of path: String, count: Int) -> [UInt8]? {
        // Non-blocking and a regular file only: a FIFO named `*.xml` in a folder searched by
        // content blocked the open (and its read) forever.
        guard let fd = try? open(path, .nonBlocking) else { return nil }
        defer { close(fd) }
        guard (try? status(of: fd))?.kind == .regular else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        guard let n = try? bytes.withUnsafeMutableBytes({ b throws(Errno) in try read(fd, at: 0, into: b) })
        else { return nil }
        return Array(bytes[0..<n])
    }

    /// What `path` is, links followed (`stat`).
    /// - Throws: `Errno` (ENOENT, EACCES, …).
    static func status(_ path: String) throws(Errno) -> FileStatus {
        var st = stat()
        guard stat(path, &st) == 0 else { throw .current }
        return FileStatus(st)
    }

    /// What the open descriptor `fd` is (`fstat`).
    /// - Throws: `Errno`.
    static func status(of fd: Int32) throws(Errno) -> FileStatus {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .current }
        return FileStatus(st)
    }

    /// The names in folder `path` (without `.` and `..`), in the order the system lists them.
    /// - Throws: `Errno` when the folder cannot be opened.
    static func folderEntries(_ path: String) throws(Errno) -> [String] { try folderEntryNames(path) }

    /// `path` with every link resolved (`realpath`).
    /// - Throws: `Errno` (ENOENT, ELOOP, …).
    static func resolvedPath(_ path: String) throws(Errno) -> String {
        guard let p = realpath(path, nil) else { throw .current }
        defer { cFree(p) }
        return String(cString: p)
    }

    /// The CPUs in this thread's affinity mask (`sched_getaffinity`: `taskset`, a container's
    /// cpuset), or nil when it cannot be read (or off Linux).
    static var affinityCores: Int? {
        let n = Int(hsys_affinity_cores())
        return n > 0 ? n : nil
    }

    /// Makes malloc map blocks of `bytes` or more on their own and unmap them when freed (glibc's
    /// `M_MMAP_THRESHOLD`); false where the C library has no such setting.
    static func mapLargeBlocks(from bytes: Int) -> Bool { hsys_set_mmap_threshold(bytes) == 1 }

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    static var onlineProcessors: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The current time, in whole seconds since 1970 (UTC).
    static var now: Int64 { Int64(time(nil)) }

    /// Runs `body` with this thread's character type set to UTF-8 (`C.UTF-8`, by `uselocale`:
    /// this thread only, never the process's locale), or as it is where the system has no such
    /// locale. libarchive converts a zip entry's name from its charset to the current one, and in
    /// the C locale a UTF-8 name (`apple_health_export/导出.xml`, flagged UTF-8 as the iPhone
    /// writes it) cannot be converted and reads as no name at all (docs/export-format.md §2).
    static func withUTF8CharacterType<T>(_ body: () throws -> T) rethrows -> T {
        guard let utf8 = utf8CharacterType else { return try body() }
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        return try body()
    }

    /// Frees a block the C library allocated (the C glue's pieces).
    static func free(_ p: UnsafeMutableRawPointer?) { cFree(p) }

    /// `strtod` of the NUL-terminated bytes at `start`; also where it stopped.
    static func strtod(_ start: UnsafePointer<CChar>) -> (value: Double, end: UnsafeMutablePointer<CChar>?) {
        var end: UnsafeMutablePointer<CChar>?
        let v = cStrtod(start, &end)
        return (v, end)
    }
}

/// The C library's `C.UTF-8` character type, made once (nil where the system has none).
private nonisolated(unsafe) let utf8CharacterType: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

/// A thread of the C library's (pthreads) running one closure, with the C library's default
/// stack size (the stack limit, `ulimit -s`, as the main thread has).
struct PlatformThread {
    private let handle: pthread_t

    /// Starts `body` on a new thread; nil when the system cannot start one.
    static func start(_ body: @escaping () -> Void) -> PlatformThread? {
        let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
        var handle = pthread_t()
        guard pthread_create(&handle, nil, threadMain, box) == 0 else {
            Unmanaged<ThreadBody>.fromOpaque(box).release()
            return nil
        }
        return PlatformThread(handle: handle)
    }

    /// Waits until the thread's closure has returned.
    func join() { pthread_join(handle, nil) }
}

private final class ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

private let threadMain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { box in
    Unmanaged<ThreadBody>.fromOpaque(box!).takeRetainedValue().body()
    return nil
}

/// A mutex with one condition variable (pthreads): the parallel read's shared state is guarded
/// by one, and its threads wait on its condition.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Takes the mutex (waits for it).
    func lock() { pthread_mutex_lock(mutex) }

    /// Gives the mutex back.
    func unlock() { pthread_mutex_unlock(mutex) }

    /// `body` with the mutex held.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Waits for a `broadcast`, releasing the mutex meanwhile. Call with the mutex held (inside
    /// `withLock`), in a loop that tests what it waits for.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiting thread.
    func broadcast() { pthread_cond_broadcast(condition) }
}
