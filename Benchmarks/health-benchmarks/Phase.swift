import CBareSAX
import HealthExport

/// One measured phase. Each run of a phase happens in a child process of its own, so that its
/// peak RSS is the phase's alone.
enum Phase: String, CaseIterable {
    case bare
    case reader
    case report

    /// The benchmark's name, "Subject operation (variant)".
    var title: String {
        switch self {
        case .bare: return "libxml2 SAX2 count (bare)"
        case .reader: return "HealthExport read (typed samples, discarded)"
        case .report: return "Report end-to-end (read, analyze, render)"
        }
    }

    /// What `PhaseOutcome.items` counts.
    var itemName: String {
        switch self {
        case .bare: return "elements"
        case .reader, .report: return "records"
        }
    }

    /// Runs the phase once, in this process.
    ///
    /// - Returns: what it read, or nil when the phase is not implemented yet.
    func run(file: String) throws -> PhaseOutcome? {
        switch self {
        case .bare: return try runBareCount(file: file)
        case .reader: return try runReaderRead(file: file)
        case .report: return try runReportEndToEnd(file: file)
        }
    }
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

/// (b) The reader: every batch of typed samples is counted and dropped.
func runReaderRead(file: String) throws -> PhaseOutcome {
    var records: Int64 = 0
    let summary = try ExportReader().read(.path(file)) { batch in
        records &+= Int64(batch.records.count)  // used in the result, so the batches cannot be optimized away
    }
    let elements = summary.elementCounts.values.reduce(0, +)
    return PhaseOutcome(bytes: summary.bytesRead, items: records, elements: Int64(elements))
}
