#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What exists at a path.
enum PathStatus: Equatable {
    case missing
    case directory
    case notDirectory
}

/// The file-system calls a `ReportWriter` makes, so tests can make any one of them fail.
/// Every call reports failure as an `errno` code.
protocol ReportFileSystem: Sendable {
    func status(of path: String) throws(ReportError.Errno) -> PathStatus
    func makeDirectory(_ path: String) throws(ReportError.Errno)
    /// Creates `path`, which must not exist, and writes all of `text` to it, flushed to disk.
    /// On failure the caller removes the file.
    func createFile(_ path: String, contents text: String) throws(ReportError.Errno)
    func rename(_ source: String, to destination: String) throws(ReportError.Errno)
    func removeFile(_ path: String)
    /// Flushes a directory's entries (the renames in it) to disk; best effort.
    func syncDirectory(_ path: String)
}

/// The real file system, through POSIX calls.
struct POSIXFileSystem: ReportFileSystem {
    func status(of path: String) throws(ReportError.Errno) -> PathStatus {
        var info = stat()
        if stat(path, &info) != 0 {
            let error = ReportError.Errno.current
            if error.rawValue == ENOENT { return .missing }
            throw error
        }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .notDirectory
    }

    func makeDirectory(_ path: String) throws(ReportError.Errno) {
        // 0o777 and the process umask, as mkdir(1) does.
        if mkdir(path, 0o777) != 0 { throw .current }
    }

    func createFile(_ path: String, contents text: String) throws(ReportError.Errno) {
        let fd = retryingOnInterrupt { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        if fd < 0 { throw .current }
        var text = text
        let failure: ReportError.Errno? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = retryingOnInterrupt {
                    write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                }
                if written < 0 { return .current }
                offset += written
            }
            if fsync(fd) != 0 { return .current }
            return nil
        }
        // A failed close can report a deferred write error (NFS, quotas): it counts as a failure.
        let closeFailure: ReportError.Errno? = close(fd) == 0 ? nil : .current
        if let error = failure ?? closeFailure { throw error }
    }

    func rename(_ source: String, to destination: String) throws(ReportError.Errno) {
        if posixRename(source, destination) != 0 { throw .current }
    }

    func removeFile(_ path: String) {
        _ = unlink(path)
    }

    func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }
}

/// The C library's `rename`, which the method of the same name hides inside the struct.
private func posixRename(_ source: String, _ destination: String) -> Int32 {
    rename(source, destination)
}

@inline(__always)
private func retryingOnInterrupt<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
