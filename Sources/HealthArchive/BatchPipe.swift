import Foundation
import HealthExport

/// Runs an export's reader (serial or with parser threads) on a thread of its own while the
/// caller writes its batches into SQLite: parsing and inserting overlap. Each batch comes with
/// the reader's worker index (its symbols are only valid with that worker's other batches);
/// the batches of one worker arrive in its order.
///
/// At most `capacity` batches wait between the two (16 by default: with 4, the parser threads
/// stopped on a full queue while the writer was busy and their core idled; the 1,800-day
/// benchmark import, 2 cores, 4.8 to 5.1 s with 4 and 4.7 to 4.85 s with 16, for about 5 MB more
/// peak RSS), so memory stays bounded by a few MB of batches. When the
/// consumer fails, the reader is stopped at its next batch; when the reader fails, the consumer
/// sees the end and the reader's error is rethrown.
final class BatchPipe: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(worker: Int, batch: ExportBatch)] = []
    private var finished = false
    private var cancelled = false
    private let capacity: Int

    struct Cancelled: Error {}

    init(capacity: Int) { self.capacity = capacity }

    /// Called on a reading thread for every batch.
    func put(_ worker: Int, _ batch: ExportBatch) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw Cancelled() }
        queue.append((worker, batch))
        condition.broadcast()
    }

    /// The next batch, or nil when the reader is done (or failed).
    func take() -> (worker: Int, batch: ExportBatch)? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && !finished { condition.wait() }
        if queue.isEmpty { return nil }
        let batch = queue.removeFirst()
        condition.broadcast()
        return batch
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// How much nicer (`nice`, Linux: per thread, inherited by the threads it starts) the reading
    /// thread and its parser threads run than the consumer. The consumer (an import's one SQLite
    /// writer) is the one serial step: with as many parser threads as cores, an equal share of
    /// the cores left it about 2/3 of one, and the import waited for it. Nice 5 gives it about
    /// three times a parser thread's share when all compete, and changes nothing when cores are
    /// idle. `health-benchmarks --phase import` on the 150-day export, 2 cores: 0.52 to 0.63 s
    /// wall at nice 0, 0.46 s at 5 (and at 10).
    static let readerNiceIncrement: Int32 = 5

    /// Reads with `read` on a new thread and hands every batch to `consume` on this one.
    /// - Returns: what `read` returned. Throws what `consume` or `read` threw (the consumer's first).
    static func run(
        reading read: (_ put: @escaping (Int, ExportBatch) throws -> Void) throws -> ExportSummary,
        capacity: Int = 16, consume: (_ worker: Int, _ batch: ExportBatch) throws -> Void
    ) throws -> ExportSummary {
        try withoutActuallyEscaping(read) { read in
            let pipe = BatchPipe(capacity: capacity)
            let box = ReaderBox(read: read)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                ArchivePlatform.lowerThisThreadsPriority(by: BatchPipe.readerNiceIncrement)
                do {
                    box.summary = try box.read! { worker, batch in try pipe.put(worker, batch) }
                } catch {
                    box.error = error
                }
                box.read = nil  // released here, before the caller's scope ends
                pipe.finish()
                done.signal()
            }
            thread.stackSize = 8 << 20
            thread.start()
            var consumerError: Error?
            while let next = pipe.take() {
                do {
                    try consume(next.worker, next.batch)
                } catch {
                    consumerError = error
                    pipe.cancel()
                    break
                }
            }
            done.wait()  // the reader has returned: `read` is not used after this scope
            if let consumerError { throw consumerError }
            if let error = box.error { throw error }
            return box.summary!
        }
    }
}

/// The reader's closure and outcome, shared with its thread (which is joined before use).
private final class ReaderBox: @unchecked Sendable {
    typealias Read = (_ put: @escaping (Int, ExportBatch) throws -> Void) throws -> ExportSummary
    var read: Read?
    var summary: ExportSummary?
    var error: Error?
    init(read: @escaping Read) { self.read = read }
}
