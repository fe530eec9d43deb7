import CBareSAX
import Glibc
import HealthExport

/// One measured phase. Each run of a phase happens in a child process of its own, so that its
/// peak RSS is the phase's alone.
enum Phase: String, CaseIterable {
    case bare
    case reader
    case readerThreads = "reader-threads"
    case report
    case reportThreads = "report-threads"
    /// From a zip of the input (`--zip`): inflating is serial work of its own.
    case readerZipThreads = "reader-zip-threads"
    case reportZipThreads = "report-zip-threads"
    /// `health-analyzer import` into a new archive, then the same export again.
    case importFirst = "import"
    case reimport
    /// `health-analyzer report --db` over the archive the last import made: the archive's
    /// records replayed through the report pipeline, the files written, the results stored.
    case reportDB = "report-db"

    /// The benchmark's name, "Subject operation (variant)".
    var title: String {
        let n = "\(benchmarkThreads) thread\(benchmarkThreads == 1 ? "" : "s")"
        switch self {
        case .bare: return "libxml2 SAX2 count (bare)"
        case .reader: return "HealthExport read (1 thread)"
        case .readerThreads: return "HealthExport read (\(n))"
        case .report: return "Report end-to-end (1 thread)"
        case .reportThreads: return "Report end-to-end (\(n))"
        case .readerZipThreads: return "HealthExport read from zip (\(n))"
        case .reportZipThreads: return "Report end-to-end from zip (\(n))"
        case .importFirst: return "Archive import, new archive (\(n))"
        case .reimport: return "Archive re-import, same export (\(n))"
        case .reportDB: return "Report from the archive, report --db (\(n))"
        }
    }

    /// What `PhaseOutcome.items` counts.
    var itemName: String {
        switch self {
        case .bare: return "elements"
        default: return "records"
        }
    }

    /// Parser threads the phase uses.
    var threads: Int {
        switch self {
        case .bare, .reader, .report: return 1
        case .readerThreads, .reportThreads, .readerZipThreads, .reportZipThreads, .importFirst, .reimport, .reportDB:
            return benchmarkThreads
        }
    }

    /// True for the phases that read `<input>.zip` instead of the XML.
    var fromZip: Bool { self == .readerZipThreads || self == .reportZipThreads }

    var isReader: Bool { self == .reader || self == .readerThreads || self == .readerZipThreads }
    var isReport: Bool { self == .report || self == .reportThreads || self == .reportZipThreads }

    /// Runs the phase once, in this process.
    ///
    /// - Returns: what it read, or nil when the phase is not implemented yet.
    /// - Throws: `PhaseSkipped` when the phase cannot run yet (with the reason).
    func run(file: String) throws -> PhaseOutcome? {
        switch self {
        case .bare: return try runBareCount(file: file)
        case .reader, .readerThreads, .readerZipThreads: return try runReaderRead(file: file, threads: threads)
        case .report, .reportThreads, .reportZipThreads: return try runReportEndToEnd(file: file, threads: threads)
        case .importFirst: return try runArchiveImport(file: file, first: true, threads: threads)
        case .reimport: return try runArchiveImport(file: file, first: false, threads: threads)
        case .reportDB: return try runArchiveReport(threads: threads)
        }
    }
}

/// Parser threads of the N-thread phases: `--threads N` (passed to the children in the
/// environment as HEALTH_BENCHMARKS_THREADS), by default the cores available (ExportReader.availableCores).
let benchmarkThreads: Int = {
    if let text = getenv("HEALTH_BENCHMARKS_THREADS").map({ String(cString: $0) }), let n = Int(text), n >= 1 {
        return n
    }
    return ExportReader.availableCores
}()

/// A phase that cannot run yet; the reason is printed instead of figures.
struct PhaseSkipped: Error {
    var reason: String
}

/// What one run of a phase read.
struct PhaseOutcome {
    /// Bytes of XML read.
    var bytes: Int64
    /// Elements (bare pass) or records delivered in batches (reader, report).
    var items: Int64
    /// Every element the parser saw, the root included, when the phase knows it. The bare pass
    /// and the reader must agree: that is the check that both parsed the same document.
    var elements: Int64?
    /// The archive's size on disk after the import (import phases only).
    var archiveBytes: Int64? = nil
    /// Rows the import added to the archive (import phases only).
    var rowsAdded: Int64? = nil
    /// Records in the archive after the import (import phases only).
    var archiveRecords: Int64? = nil
}

/// A phase that failed.
struct PhaseError: Error, CustomStringConvertible {
    var description: String
}

/// (a) The baseline: libxml2's push parser with a counting startElementNs and nothing else,
/// fed from one 512 KiB buffer (the reader's default chunk size).
func runBareCount(file: String) throws -> PhaseOutcome {
    var result = cbaresax_result()
    let code = cbaresax_count_file(file, 0, &result)
    let message = withUnsafeBytes(of: result.error_message) { raw in
        String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
    }
    switch code {
    case 0:
        return PhaseOutcome(bytes: result.bytes, items: result.elements, elements: result.elements)
    case 2:
        throw PhaseError(
            description: "\(file): line \(result.error_line), column \(result.error_column): libxml2: \(message)"
                + " (after \(result.elements) elements; benchmark inputs must be well-formed XML without"
                + " control characters, and their DOCTYPE must parse)")
    default:
        throw PhaseError(description: "\(file): \(message)")
    }
}

/// (b) The reader: every batch of typed samples is counted and dropped. With `threads` > 1,
/// the parallel read, one counter per parser thread.
func runReaderRead(file: String, threads: Int) throws -> PhaseOutcome {
    final class Counter { var records: Int64 = 0 }
    let counters = (0..<threads).map { _ in Counter() }
    let summary = try ExportReader().read(.path(file), threads: threads) { worker in
        let counter = counters[worker]
        // used in the result, so the batches cannot be optimized away
        return { batch in counter.records &+= Int64(batch.records.count) }
    }
    let elements = summary.elementCounts.values.reduce(0, +)
    return PhaseOutcome(
        bytes: summary.bytesRead, items: counters.reduce(0) { $0 + $1.records }, elements: Int64(elements))
}
