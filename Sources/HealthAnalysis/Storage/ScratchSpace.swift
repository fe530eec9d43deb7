import Synchronization

/// Storage for the sorted runs the analyzer spills while it streams, so that its memory does
/// not grow with the export: cumulative samples are kept in a bounded buffer, and each time it
/// is full it is sorted and handed here as one run (16 bytes per sample), to be read back in
/// pieces by `Analyzer.finish`.
///
/// The analysis module does no I/O itself: it is given a scratch space. `InMemoryScratchSpace`
/// keeps the runs in memory (memory then grows by 16 bytes per cumulative sample, as without
/// spilling); the `report` pipeline uses a file in `$TMPDIR` (HealthReports'
/// `TemporaryScratchFile`).
///
/// Implementations must be safe to call from several threads (analyzers parsing segments in
/// parallel may share one): `write` may be called concurrently with itself and with `read`.
public protocol ScratchSpace: AnyObject, Sendable {
    /// Stores `bytes` after everything written before and returns the offset they start at.
    /// - Throws: whatever the storage reports (a full disk); the analyzer then fails in `finish`.
    func write(_ bytes: UnsafeRawBufferPointer) throws -> Int64

    /// Fills `buffer` completely with the bytes stored at `offset...` by earlier `write`s.
    /// - Throws: whatever the storage reports; reading a range never written is an error.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws
}

/// A `ScratchSpace` in memory: the default for library users and tests. Each write is kept as
/// its own array (growing never copies what is stored). Thread-safe.
public final class InMemoryScratchSpace: ScratchSpace {
    private struct Stored {
        /// Offset of each write, ascending, and its bytes.
        var offsets: [Int64] = []
        var chunks: [[UInt8]] = []
        var size: Int64 = 0
    }
    private let stored = Mutex(Stored())

    public init() {}

    /// How many bytes were written.
    public var size: Int { Int(stored.withLock { $0.size }) }

    public func write(_ data: UnsafeRawBufferPointer) throws -> Int64 {
        stored.withLock { s in
            let offset = s.size
            s.offsets.append(offset)
            s.chunks.append(Array(data))
            s.size += Int64(data.count)
            return offset
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
        try stored.withLock { s in
            guard offset >= 0, offset + Int64(buffer.count) <= s.size else {
                throw ScratchSpaceError.readOutOfRange(offset: offset, count: buffer.count)
            }
            // The last write starting at or before `offset`, then on across writes.
            var lo = 0
            var hi = s.offsets.count
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if s.offsets[mid] <= offset { lo = mid } else { hi = mid }
            }
            var done = 0
            var k = lo
            while done < buffer.count {
                let from = Int(offset + Int64(done) - s.offsets[k])
                let n = min(buffer.count - done, s.chunks[k].count - from)
                if n > 0 {
                    s.chunks[k].withUnsafeBytes { chunk in
                        UnsafeMutableRawBufferPointer(rebasing: buffer[done..<done + n]).copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: chunk[from..<from + n]))
                    }
                    done += n
                }
                k += 1
            }
        }
    }
}

/// An error of a scratch space the analysis module provides.
public enum ScratchSpaceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A read asked for bytes that were never written (a bug, not bad input).
    case readOutOfRange(offset: Int64, count: Int)

    public var description: String {
        switch self {
        case .readOutOfRange(let offset, let count):
            return "scratch space: read of \(count) bytes at offset \(offset) is past what was written"
        }
    }
}
