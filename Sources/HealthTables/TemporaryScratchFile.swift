import HealthAnalysis
import Synchronization

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
        let dir = directory ?? ScratchFileCalls.temporaryDirectory
        self.directory = dir
        Self.removeStaleFiles(in: dir)
        do throws(ReportError.Errno) {
            descriptor = try ScratchFileCalls.createUnnamed(in: dir, namePrefix: Self.namePrefix)
        } catch {
            throw .cannotCreate(directory: dir, error)
        }
    }

    /// Removes, best effort, the named scratch files a killed run left in `directory`: regular
    /// files (never a link: `lstat`, and `unlink` removes a name only) named
    /// `health-analyzer-scratch-` and 6 characters, owned by this process's user and last
    /// changed more than `staleAge` seconds ago.
    static func removeStaleFiles(in directory: String) {
        ScratchFileCalls.removeStaleFiles(
            in: directory, namePrefix: namePrefix, nameLength: namePrefix.utf8.count + 6, olderThan: staleAge)
    }

    deinit { ScratchFileCalls.close(descriptor) }

    /// Bytes written so far.
    public var size: Int64 { end.withLock { $0 } }

    public func write(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let offset = end.withLock { end in
            let offset = end
            end += Int64(bytes.count)
            return offset
        }
        do throws(ReportError.Errno) {
            try ScratchFileCalls.write(descriptor, bytes, at: offset)
        } catch {
            throw ScratchFileError.cannotWrite(directory: directory, error)
        }
        return offset
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
        let complete: Bool
        do throws(ReportError.Errno) {
            complete = try ScratchFileCalls.read(descriptor, into: buffer, at: offset)
        } catch {
            throw ScratchFileError.cannotRead(directory: directory, error)
        }
        if !complete { throw ScratchFileError.truncated(directory: directory) }
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
