import HealthAnalysis
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `ScratchSpace` in a temporary file that has no name: it is created in the directory and
/// unlinked at once, and only its descriptor is kept. So nothing is left behind however the
/// process ends (success, error, SIGINT, SIGTERM, even SIGKILL): the kernel frees the space
/// when the descriptor is closed, by `deinit` or by the process's exit.
///
/// The analyzer writes 16 bytes per cumulative sample it spills (an export's XML takes about
/// 300 bytes per record), so the file stays far below the size of the input. Thread-safe:
/// writes reserve their range under a lock and use `pwrite`; reads use `pread`.
public final class TemporaryScratchFile: ScratchSpace {
    private let descriptor: Int32
    private let end = Mutex<Int64>(0)
    /// The directory the file was made in.
    public let directory: String

    /// Creates the file in `directory`; by default `$TMPDIR`, or `/tmp` when that is unset or empty.
    /// - Throws: `ScratchFileError.cannotCreate` naming the directory and the OS error.
    public init(directory: String? = nil) throws(ScratchFileError) {
        let dir =
            directory
            ?? getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        self.directory = dir
        var template = Array((dir.hasSuffix("/") ? dir : dir + "/").utf8CString.dropLast())
        template.append(contentsOf: Array("health-analyzer-scratch-XXXXXX".utf8CString))
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .cannotCreate(directory: dir, ReportError.Errno.current) }
        if template.withUnsafeBufferPointer({ unlink($0.baseAddress!) }) != 0 {
            let error = ReportError.Errno.current
            close(fd)
            throw .cannotCreate(directory: dir, error)
        }
        descriptor = fd
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
