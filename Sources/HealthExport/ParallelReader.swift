import CHealthSAX

/// A consumer of batches, as `ExportReader.read(_:threads:makeConsumer:)` takes them.
public typealias ExportBatchConsumer = (ExportBatch) throws -> Void

extension ExportReader {
    /// Reads `input` with `threads` parser threads and returns the same summary as a read with
    /// one thread.
    ///
    /// The calling thread reads the input (and inflates a zip), applies the pre-filter of
    /// docs/export-format.md §6 and cuts the filtered XML into segments of whole children of
    /// `<HealthData>` (about `options.segmentSize` bytes each); past the prolog it reads straight
    /// into the segments' buffers (`hsax_splitter_input`), so the bytes are not copied there. Each of the `threads` workers
    /// owns one libxml2 push parser, fed the document's prolog and root start tag once and then
    /// the segments it is given, each on a line of its own, so every segment is parsed inside
    /// the real `<HealthData …>` start tag; line numbers are mapped back to the file's. A worker
    /// decodes into batches exactly as a serial read does and hands them to its own consumer.
    /// Memory stays bounded: at most two pieces of at most `2 × segmentSize` bytes wait per
    /// worker (one huge element is handed on in pieces, never held whole).
    ///
    /// - Parameters:
    ///   - threads: parser threads; `1` (or less) is exactly `read(_:consume:)` with
    ///     `makeConsumer(0)`. Standard input is always read with one thread (it cannot be
    ///     read a second time, which the error path below needs).
    ///   - makeConsumer: called on the calling thread, once for each worker `0 ..< threads`,
    ///     before reading starts (only for worker 0 when the read is serial). Consumer `i` is then called only from worker `i`'s thread, one
    ///     batch at a time, with the elements of its segments in document order; the symbols
    ///     (`Record.typeSymbol`, `sourceSymbol`) are stable within one consumer, not across
    ///     consumers. Which elements go to which consumer depends on timing; together the
    ///     consumers receive every element exactly once.
    /// - Returns: the header, counts and diagnostics of the whole export, equal to those of a
    ///   one-thread read (diagnostics with the file's line numbers, in document order).
    /// - Throws: exactly the `ExportReadError` a one-thread read throws. A document that is not
    ///   well-formed, an input that the splitter cannot cut soundly (docs/export-format.md §6's prolog
    ///   aside: anything but whitespace, comments and PIs around the root, a root other than
    ///   `<HealthData>`), and a truncated or damaged input all stop the parallel read; the
    ///   input is then read again with one thread and no consumer to throw the authoritative
    ///   error (file, line, column, message and elements read before the error). When nothing
    ///   was handed to a worker yet (empty input, not XML, another root), the input is simply
    ///   read with one thread and consumer 0. If a consumer throws, the read stops and that
    ///   error is rethrown.
    public func read(
        _ input: ExportInput, threads: Int, makeConsumer: (_ worker: Int) -> ExportBatchConsumer
    ) throws -> ExportSummary {
        guard threads > 1, case .path(let path) = input else {
            return try read(input, consume: makeConsumer(0))
        }
        let consumers = (0..<threads).map { UncheckedConsumer(consume: makeConsumer($0)) }
        let outcome: ParallelOutcome
        switch try resolve(path) {
        case .xml(let file, let fd, let size):
            var source = FileDescriptorSource(fd: fd, closeWhenDone: true, total: size)
            defer { source.close() }
            outcome = try parseParallel(&source, name: file, consumers: consumers)
        case .zip(let zipPath):
            var zip = try ZipEntrySource(path: zipPath)
            defer { zip.close() }
            let entry = try zip.selectExportEntry()
            outcome = try parseParallel(&zip, name: "\(zipPath):\(entry)", consumers: consumers)
        }
        switch outcome {
        case .done(let summary):
            return summary
        case .serial:
            return try read(input, consume: consumers[0].consume)
        case .verdict(let name):
            var quiet = options
            quiet.progress = nil
            _ = try ExportReader(options: quiet).read(input) { _ in }
            // The serial read found nothing wrong where the parallel one stopped: a bug in the
            // splitter, reported rather than hidden.
            throw ExportReadError.consumerFailed(
                input: name,
                message: "the parallel read stopped on an error that a one-thread read does not find;"
                    + " read with --threads 1 (and report this)")
        }
    }

    /// Reads `source` with one splitter (this thread) and `consumers.count` parser threads.
    func parseParallel<S: ChunkSource>(_ source: inout S, name: String, consumers: [UncheckedConsumer]) throws
        -> ParallelOutcome
    {
        let run = ParallelRun(
            workers: consumers.count, inputName: name, batchSize: options.batchSize,
            feedSize: max(1, min(options.chunkSize, 256 * 1024)), marksSegments: options.marksSegments)
        guard
            let splitter = hsax_splitter_create(
                Unmanaged.passUnretained(run).toOpaque(), onPiece, max(1, options.segmentSize))
        else { throw ExportReadError.cannotOpen(path: name, reason: "out of memory") }
        defer { hsax_splitter_free(splitter) }
        run.splitter = splitter
        var threads: [PlatformThread] = []
        for i in 0..<consumers.count {
            let worker = ParallelWorker(run: run, index: i, consumer: consumers[i])
            guard let thread = PlatformThread.start({ worker.main() }) else {
                run.stopAll()
                for t in threads { t.join() }
                throw ExportReadError.cannotOpen(path: name, reason: "cannot start a parser thread")
            }
            threads.append(thread)
        }

        // The source reads straight into the splitter's region (mostly the piece being filled), so
        // the bytes are not copied on this thread; at most `chunkSize` bytes a read.
        let chunk = max(1, options.chunkSize)
        var total: Int64 = 0
        var rc: Int32 = 0
        var sourceFailed = false
        while true {
            var room = 0
            guard let region = hsax_splitter_input(splitter, chunk, &room) else {
                rc = Int32(HSAX_ERR_MEMORY)
                break
            }
            let n: Int
            do {
                n = try source.read(into: UnsafeMutableRawBufferPointer(start: region, count: room))
            } catch {
                sourceFailed = true
                break
            }
            if n == 0 {
                rc = total == 0 ? Int32(HSAX_ERR_SPLIT) : hsax_splitter_feed_input(splitter, 0, 1)
                break
            }
            total += Int64(n)
            rc = hsax_splitter_feed_input(splitter, n, 0)
            if rc != 0 { break }
            options.progress?(source.consumed, source.total)
        }
        if sourceFailed || rc != 0 { run.stopAll() } else { run.finishPushing() }
        for t in threads { t.join() }

        if let failure = run.consumerFailure { throw failure }
        if sourceFailed || rc != 0 || run.parseFailed {
            return run.dispatched ? .verdict(name) : .serial
        }
        var tally: SessionTally?
        var participants = 0
        for result in run.results {
            guard let result else { continue }
            participants += 1
            if tally == nil { tally = result } else { tally!.merge(result) }
        }
        guard var merged = tally else { return .serial }
        // Every worker parsed the root's start tag; the document has it once.
        if participants > 1 {
            merged.elementCounts[elementName(Int32(HSAX_EL_HEALTH_DATA.rawValue))]! -= participants - 1
        }
        return .done(
            merged.summary(
                inputName: name, bytesRead: total, removed: hsax_splitter_removed_control_characters(splitter),
                droppedDoctype: hsax_splitter_dropped_doctype(splitter) != 0,
                exportVersion: hsax_splitter_export_version(splitter)))
    }
}

enum ParallelOutcome {
    /// The read completed; the merged summary.
    case done(ExportSummary)
    /// Nothing was handed to a worker: read the input serially, with the first consumer.
    case serial
    /// The read stopped after handing out segments: a serial read must name the error.
    case verdict(String)
}

/// A consumer that is called from one worker thread only (the contract of
/// `read(_:threads:makeConsumer:)`), so it may cross to that thread.
struct UncheckedConsumer: @unchecked Sendable {
    let consume: ExportBatchConsumer
}

/// A piece of the filtered stream (see `hsax_piece`), owned until freed.
struct Piece {
    var bytes: UnsafeMutablePointer<UInt8>?
    var count: Int
    var info: hsax_piece

    func free() { Platform.free(bytes) }
}

/// The state shared by the splitting thread and the workers, under one mutex.
final class ParallelRun: @unchecked Sendable {
    let inputName: String
    let batchSize: Int
    let feedSize: Int
    /// `ReaderOptions.marksSegments`.
    let marksSegments: Bool
    /// Pieces that may wait in one worker's queue.
    let queueLimit = 2

    /// Guards the state below; its condition is "the queues or the flags changed".
    private let lock = ConditionLock()

    // Guarded by `lock`.
    private var queues: [[Piece]]
    private var heads: [Int]
    private var queuedBytes: [Int]
    private var finished = false
    private var stopped = false
    private var current = 0
    var dispatched = false
    var parseFailed = false
    var consumerFailure: Error?
    var results: [SessionTally?]

    /// Set once, before the workers start: where they hand parsed pieces' buffers back.
    var splitter: OpaquePointer?
    /// Set once, before any segment is handed out; read-only afterwards.
    var prefix: Piece?
    /// A day after the `ExportDate` in the first segment (where exports have it), set before
    /// that segment is handed out: the bound of plausible dates for the later segments, whose
    /// workers never see the element (a serial read has seen it by then).
    var exportDateBound: Int64?

    init(workers: Int, inputName: String, batchSize: Int, feedSize: Int, marksSegments: Bool) {
        self.inputName = inputName
        self.batchSize = batchSize
        self.feedSize = feedSize
        self.marksSegments = marksSegments
        queues = Array(repeating: [], count: workers)
        heads = Array(repeating: 0, count: workers)
        queuedBytes = Array(repeating: 0, count: workers)
        results = Array(repeating: nil, count: workers)
    }

    deinit {
        for q in 0..<queues.count { for i in heads[q]..<queues[q].count { queues[q][i].free() } }
        prefix?.free()
    }

    private func locked<T>(_ body: () -> T) -> T { lock.withLock(body) }

    /// Splitting thread: hands a piece on. A segment's first piece goes to the worker with the
    /// fewest bytes waiting, its other pieces to the same worker. Waits while that worker's queue
    /// is full. Returns false (and frees the piece) when the run was stopped.
    func push(_ piece: Piece) -> Bool {
        if piece.info.kind & Int32(HSAX_PIECE_PREFIX) != 0 {
            prefix = piece
            return true
        }
        lock.lock()
        defer { lock.unlock() }
        if piece.info.kind & Int32(HSAX_PIECE_START) != 0, piece.info.segment == 0, let bytes = piece.bytes {
            exportDateBound = ReaderSession.exportDateBound(in: UnsafeBufferPointer(start: bytes, count: piece.count))
        }
        if piece.info.kind & Int32(HSAX_PIECE_START) != 0 {
            var best = 0
            for w in 1..<queues.count where queuedBytes[w] < queuedBytes[best] { best = w }
            current = best
        }
        while !stopped, queues[current].count - heads[current] >= queueLimit { lock.wait() }
        if stopped {
            piece.free()
            return false
        }
        queues[current].append(piece)
        queuedBytes[current] += piece.count
        dispatched = true
        lock.broadcast()
        return true
    }

    /// Worker `w`: the next piece, or nil at the end of the input or when the run was stopped.
    func pop(_ w: Int) -> Piece? {
        lock.lock()
        defer { lock.unlock() }
        while !stopped, !finished, heads[w] == queues[w].count { lock.wait() }
        if stopped || heads[w] == queues[w].count { return nil }
        let piece = queues[w][heads[w]]
        heads[w] += 1
        if heads[w] == queues[w].count {
            queues[w].removeAll(keepingCapacity: true)
            heads[w] = 0
        }
        queuedBytes[w] -= piece.count
        lock.broadcast()
        return piece
    }

    /// Worker: a piece it has parsed; its buffer goes back to the splitter for a later piece.
    func recycle(_ piece: Piece) {
        hsax_splitter_recycle(splitter, piece.bytes, piece.info.capacity)
    }

    var isStopped: Bool { locked { stopped } }

    func finishPushing() {
        locked {
            finished = true
            lock.broadcast()
        }
    }

    func stopAll() {
        locked {
            stopped = true
            lock.broadcast()
        }
    }

    /// Worker: libxml2 stopped on an error (or the worker could not go on).
    func failParse() {
        locked {
            parseFailed = true
            stopped = true
            lock.broadcast()
        }
    }

    /// Worker: its consumer threw (or its session failed otherwise).
    func failConsumer(_ error: Error) {
        locked {
            if consumerFailure == nil { consumerFailure = error }
            stopped = true
            lock.broadcast()
        }
    }

    func finish(_ w: Int, _ tally: SessionTally) { locked { results[w] = tally } }
}

/// One parser thread: its session (decoding, batches, diagnostics) and libxml2 parser.
final class ParallelWorker {
    let run: ParallelRun
    let index: Int
    let consumer: UncheckedConsumer

    init(run: ParallelRun, index: Int, consumer: UncheckedConsumer) {
        self.run = run
        self.index = index
        self.consumer = consumer
    }

    func main() {
        let session = ReaderSession(inputName: run.inputName, batchSize: run.batchSize, deliver: consumer.consume)
        withExtendedLifetime(session) {
            guard let parser = hsax_parser_create(Unmanaged.passUnretained(session).toOpaque(), onStart, onEnd) else {
                run.failParse()
                return
            }
            defer { hsax_parser_free(parser) }
            // A worker's error only stops the read (a one-thread read names it), so its libxml2
            // need not count the file's columns: unpadded tokens spare it the padding's bytes.
            guard hsax_parser_set_attribute_rewriting(parser, Int32(HSAX_REWRITE_SHORT_TOKENS)) == 0 else {
                run.failParse()
                return
            }
            session.parser = parser
            work(session, parser)
        }
    }

    private func feed(_ parser: OpaquePointer, _ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let n = min(run.feedSize, count - offset)
            if hsax_parser_feed_filtered(parser, bytes! + offset, n, 0) != 0 { return false }
            offset += n
        }
        return true
    }

    private func feed(_ parser: OpaquePointer, _ text: StaticString) -> Bool {
        hsax_parser_feed_filtered(parser, text.utf8Start, text.utf8CodeUnitCount, 0) == 0
    }

    private func work(_ session: ReaderSession, _ parser: OpaquePointer) {
        var streamLine: Int64 = 1
        var started = false
        var sawFinal = false
        var inSegment = false  // a segment was begun (for `marksSegments`)
        var ok = true
        while ok, let piece = run.pop(index) {
            defer { run.recycle(piece) }
            let kind = piece.info.kind
            if kind & Int32(HSAX_PIECE_START) != 0 {
                if piece.info.segment > 0, let bound = run.exportDateBound { session.latestPlausible = bound }
                if !started {
                    guard let prefix = run.prefix else {
                        ok = false
                        break
                    }
                    started = true
                    // The prefix (the prolog and the root's start tag, at most the splitter's
                    // prefix limit) goes to libxml2 in one piece, as the serial read's filter
                    // hands it on: libxml2 2.9.14's push parser takes "<!-->" in the prolog for a
                    // whole comment when the real "-->" is not in the buffer yet, and then fails
                    // with "Comment not terminated" (glue_split_differential).
                    ok =
                        hsax_parser_map_lines(parser, 1, 1, -1) == 0
                        && hsax_parser_feed_filtered(parser, prefix.bytes, prefix.count, 0) == 0
                    streamLine += prefix.info.newlines
                }
                // Each segment on a line of its own, so that a stream line belongs to one segment.
                ok = ok && feed(parser, "\n")
                streamLine += 1
                // The previous segment's elements are all delivered by now (it ends after a
                // child's '>'): its last batch, marked, then the new segment's.
                if run.marksSegments {
                    if inSegment { session.endSegment() }
                    inSegment = true
                }
                session.segment = Int(piece.info.segment)
                ok = ok && hsax_parser_map_lines(parser, streamLine, piece.info.first_line, piece.info.segment) == 0
            }
            ok = ok && started && feed(parser, piece.bytes, piece.count)
            streamLine += piece.info.newlines
            if kind & Int32(HSAX_PIECE_FINAL) != 0 { sawFinal = true }
        }
        if ok, started, !run.isStopped {
            if !sawFinal { ok = feed(parser, "\n</HealthData>") }
            ok = ok && hsax_parser_feed_filtered(parser, nil, 0, 1) == 0
            if ok {
                if run.marksSegments && inSegment { session.endSegment() } else { session.flush() }
            }
        }
        if let failure = session.failure {
            run.failConsumer(failure)
        } else if !ok {
            run.failParse()
        } else if started {
            run.finish(index, session.tally())
        }
    }
}

// Non-capturing C callbacks.
private let onPiece: hsax_piece_fn = { context, bytes, length, info in
    let run = Unmanaged<ParallelRun>.fromOpaque(context!).takeUnretainedValue()
    return run.push(Piece(bytes: bytes, count: length, info: info!.pointee)) ? 0 : 1
}

private let onStart: hsax_start_fn = { context, start in
    Unmanaged<ReaderSession>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.start(start!) }
}
private let onEnd: hsax_end_fn = { context, element, depth in
    Unmanaged<ReaderSession>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.end(element, depth: Int(depth)) }
}
