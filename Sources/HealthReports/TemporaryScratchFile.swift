import HealthAnalysis
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `ScratchSpace` in a temporary file that has no name: made with `O_TMPFILE` where the file
/// system has it (the file never has a name), else created and unlinked at once; only its
/// descriptor is kept. So nothing is left behind however the process ends (success, error,
/// SIGINT, SIGTERM, even SIGKILL): the kernel frees the space when the descriptor is closed, by
/// `deinit` or by the process's exit. Where a kill between `mkstemp` and `unlink` left a named
/// file, a later run removes it (`removeStaleFiles`).
///
/// The analyzer writes 16 bytes per cumulative sample it spills (an export's XML takes about
/// 300 bytes per record), so the file stays far below the size of the input. Thread-safe:
/// writes reserve their range under a lock and use `pwrite`; reads use `pread`.
public final class TemporaryScratchFile: ScratchSpace {
    let descriptor: Int32
    private let end = Mutex<Int64>(0)
    /// The directory the file was made in.
    public let directory: String

    /// The name prefix of the named files (`mkstemp` adds 6 characters).
    static let namePrefix = "health-analyzer-scratch-"
    /// A named scratch file lives from `mkstemp` to `unlink`, microseconds: one older than this
    /// (in seconds) was left by a killed run.
    static let staleAge = 60

    /// Creates the file in `directory`; by default `$TMPDIR`, or `/tmp` when that is unset or empty.
    /// - Throws: `ScratchFileError.cannotCreate` naming the directory and the OS error.
    public init(directory: String? = nil) throws(ScratchFileError) {
        let dir =
            directory
            ?? getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        self.directory = dir
        Self.removeStaleFiles(in: dir)
        // O_TMPFILE (Linux 3.11; `__O_TMPFILE | O_DIRECTORY`, the same bits on x86-64 and arm64;
        // Swift's Glibc module does not export the macro): a file without a name from the start.
        let unnamed = open(dir, 0o20_200_000 | O_RDWR | O_EXCL | O_CLOEXEC, 0o600)
        if unnamed >= 0 {
            descriptor = unnamed
            return
        }
        var template = Array((dir.hasSuffix("/") ? dir : dir + "/").utf8CString.dropLast())
        template.append(contentsOf: Array((Self.namePrefix + "XXXXXX").utf8CString))
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotCreate(directory: dir, ReportError.Errno.current) }
        if template.withUnsafeBufferPointer({ unlink($0.baseAddress!) }) != 0 {
            let error = ReportError.Errno.current
            close(fd)
            throw .cannotCreate(directory: dir, error)
        }
        descriptor = fd
    }

    /// Removes, best effort, the named scratch files a killed run left in `directory`: regular
    /// files (never a link: `lstat`, and `unlink` removes a name only) named
    /// `health-analyzer-scratch-` and 6 characters, owned by this process's user and last
    /// changed more than `staleAge` seconds ago.
    static func removeStaleFiles(in directory: String) {
        guard let handle = opendir(directory) else { return }
        defer { closedir(handle) }
        let now = time(nil)
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(namePrefix), name.utf8.count == namePrefix.utf8.count + 6 else { continue }
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == geteuid(),
                now - info.st_mtim.tv_sec > staleAge
            else { continue }
            _ = unlink(path)
        }
    }

    deinit { close(descriptor) }

    /// Bytes written so far.
    public var size: Int64 { end.withLock { $0 } }

    public func write(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let offset = end.withLock { end in
            let offset = end
            end += Int64(bytes.count)
            return offset
        }
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw ScratchFileError.cannotWrite(directory: directory, ReportError.Errno.current)
            }
            done += n
        }
        return offset
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + Int64(done)))
            if n < 0 {
                if errno == EINTR { continue }
                throw ScratchFileError.cannotRead(directory: directory, ReportError.Errno.current)
            }
            if n == 0 { throw ScratchFileError.truncated(directory: directory) }
            done += n
        }
    }
}

/// An error of the temporary scratch file. Every case names the directory; the OS error is kept
/// as its `errno` code.
public enum ScratchFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be created (or unlinked) in the directory.
    case cannotCreate(directory: String, ReportError.Errno)
    /// Writing to the file failed (a full disk: `No space left on device`).
    case cannotWrite(directory: String, ReportError.Errno)
    case cannotRead(directory: String, ReportError.Errno)
    /// The file ended before what was written to it (a bug or a damaged file system).
    case truncated(directory: String)

    public var description: String {
        switch self {
        case .cannotCreate(let dir, let error):
            return "cannot create a temporary file in '\(dir)' (set TMPDIR to another directory): \(error)"
        case .cannotWrite(let dir, let error):
            return "cannot write the temporary file in '\(dir)' (set TMPDIR to another directory): \(error)"
        case .cannotRead(let dir, let error):
            return "cannot read back the temporary file in '\(dir)': \(error)"
        case .truncated(let dir):
            return "the temporary file in '\(dir)' is shorter than what was written to it"
        }
    }
}
