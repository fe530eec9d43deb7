import HealthExport

/// Puts the batches of a parallel read (`ReaderOptions.marksSegments`) back into document order
/// before the import writes them, so that rows and ids are the same for any number of parser
/// threads: ids number the records of one type and start second in the order they
/// are stored (`Schema.recordID`), and lookup ids in the order names first appear.
///
/// A batch of the segment due next goes straight to `consume`; a later segment's batches wait
/// until every earlier segment has ended (its batch marked `endsSegment`). Each segment is read
/// by one thread, in order, so its batches arrive in order. A one-thread read is all segment 0.
/// What waits is bounded by the reader's queues: a worker holds at most a few pieces ahead.
struct SegmentOrder {
    private var next = 0
    private var waiting: [Int: [(worker: Int, batch: ExportBatch)]] = [:]
    private var ended: Set<Int> = []
    private let consume: (_ worker: Int, _ batch: ExportBatch) throws -> Void

    init(consume: @escaping (_ worker: Int, _ batch: ExportBatch) throws -> Void) { self.consume = consume }

    /// Takes one batch from `worker`; consumes it now or when its segment is due.
    mutating func put(_ worker: Int, _ batch: ExportBatch) throws {
        guard batch.segment == next else {
            waiting[batch.segment, default: []].append((worker, batch))
            if batch.endsSegment { ended.insert(batch.segment) }
            return
        }
        try consume(worker, batch)
        guard batch.endsSegment else { return }
        next += 1
        while true {
            if let due = waiting.removeValue(forKey: next) { for w in due { try consume(w.worker, w.batch) } }
            guard ended.remove(next) != nil else { break }
            next += 1
        }
    }

    /// Consumes what still waits (nothing, when every segment ended), in segment order.
    mutating func finish() throws {
        for segment in waiting.keys.sorted() {
            for w in waiting[segment] ?? [] { try consume(w.worker, w.batch) }
        }
        waiting.removeAll()
    }
}
