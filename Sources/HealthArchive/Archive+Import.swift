import CSQLite
import HealthExport

/// What one import added to the archive.
public struct ImportOutcome: Sendable, Equatable {
    /// The input as the reader names it (`export.zip:apple_health_export/export.xml`).
    public var inputName: String
    public var exportDate: Timestamp?
    /// Bytes of XML read.
    public var bytesRead: Int64 = 0
    /// Top-level records read (records inside correlations are counted with their correlation).
    public var recordsRead = 0
    public var recordsNew = 0
    public var workoutsRead = 0
    public var workoutsNew = 0
    public var correlationsRead = 0
    public var correlationsNew = 0
    public var summariesRead = 0
    public var summariesNew = 0
    /// Days whose ActivitySummary this (later) export changed.
    public var summariesReplaced = 0
    /// Records not stored because their start is outside 1901-12-13 to 2174-02-25 (or of a 512th type).
    public var recordsSkipped = 0
    /// The line of the first of them.
    public var firstSkippedLine = 0
    /// True when the archive already held this export (same `ExportDate` and size).
    public var exportWasKnown = false

    /// Records the archive already held (neither new nor skipped).
    public var recordsPresent: Int { recordsRead - recordsNew - recordsSkipped }
}

extension Archive {
    /// Imports one export in one transaction: afterwards the archive holds all of it or, when
    /// reading or writing failed (or the process was killed), none of it.
    ///
    /// A record already in the archive (same type, source, start and end instants, value and
    /// unit; never the printed text) is not added again; records the archive holds and the
    /// export does not are kept (the archive is the union). Workouts (with statistics, events,
    /// activities and routes) and correlations (with their records) are matched by type, source,
    /// start and end. A day's ActivitySummary from a later export replaces the stored one when
    /// they differ; `Me` is the latest export's.
    ///
    /// - Throws: `ExportReadError` when the input cannot be read, `ArchiveError` when the
    ///   archive cannot be written. Either way the archive is as it was before.
    ///
    /// - Parameter threads: parser threads (`ExportReader.read(_:threads:makeConsumer:)`); the
    ///   archive is the same for any number, rows and ids (the threads' batches are written in
    ///   document order: `SegmentOrder`).
    ///
    /// - Parameter batchStored: called on the importing thread after each batch's rows are in
    ///   the open transaction (not yet committed), with the records stored so far; the CLI's
    ///   crash tests use it to know that an import has begun writing.
    public func importExport(
        _ input: ExportInput, readerOptions: ReaderOptions = ReaderOptions(), threads: Int = 1,
        batchStored: ((_ records: Int) -> Void)? = nil
    ) throws -> ImportOutcome {
        var options = readerOptions
        options.marksSegments = true
        return try importWorkers(batchStored: batchStored) { put in
            try ExportReader(options: options).read(input, threads: threads) { worker in
                { batch in try put(worker, batch) }
            }
        }
    }

    /// `importExport` over batches from anywhere: `read` hands every batch of one export to the
    /// consumer and returns the export's summary (as `ExportReader.read` does).
    public func importBatches(reading read: ((ExportBatch) throws -> Void) throws -> ExportSummary) throws
        -> ImportOutcome
    {
        try withoutActuallyEscaping(read) { read in
            try importWorkers { put in try read { batch in try put(0, batch) } }
        }
    }

    /// The import of batches from one or more reader workers (`put(worker, batch)`).
    func importWorkers(
        batchStored: ((Int) -> Void)? = nil,
        reading read: (_ put: @escaping (Int, ExportBatch) throws -> Void) throws -> ExportSummary
    ) throws -> ImportOutcome {
        do {
            return try writeTransaction {
                let session = try ImportSession(archive: self)
                var stored = 0
                // Parsing on a thread of its own, inserting here: the two overlap. The batches are
                // written in document order, whichever thread parsed them.
                var order = SegmentOrder { worker, batch in
                    try session.consume(batch, worker: worker)
                    if let batchStored {
                        stored += batch.records.count
                        batchStored(stored)
                    }
                }
                let summary = try BatchPipe.run(reading: read) { worker, batch in try order.put(worker, batch) }
                try order.finish()
                return try session.finish(summary)
            }
        } catch let e as SQLiteError {
            throw classify(e)
        }
    }
}
