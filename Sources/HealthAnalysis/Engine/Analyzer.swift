import HealthExport

/// Computes the daily and weekly metrics of one export while it streams: a composition of one
/// accumulator per domain (`Domains/`: cumulative types, heart rate, once-a-day values, stand
/// hours, workouts, activity summaries).
///
/// Feed every batch of the reader to `consume(_:)`, then call
/// `finish(exportDate:timeZoneCounts:environmentTimeZone:)` once. The time zone is only known at
/// the end (the most frequent `HKTimeZone` is counted while streaming), so `consume` keeps
/// everything in instant space (UTC seconds) and all local-day and local-hour bucketing happens
/// in `finish`. For parallel parsing, give each parsing thread its own analyzer and `merge` them
/// before `finish`: the result is the same for any split of the export and any merge order.
///
/// Records nested in a `Correlation` are skipped (they repeat top-level records, docs/export-format.md §7.6).
///
/// Not thread-safe: use one analyzer from one task at a time.
public final class Analyzer {
    let options: AnalysisOptions
    let context = StreamContext()
    let domains: [any DomainAccumulator]
    /// The time-zone evidence (also one of `domains`), read before the others finish.
    let zoneEvidence: ZoneEvidenceAccumulator

    /// The domains of the analysis, in the order they finish (which is the order of their notes).
    static func makeDomains(
        options: AnalysisOptions, scratch: any ScratchSpace, sampleBufferLimit: Int
    ) -> [any DomainAccumulator] {
        [
            CumulativeTypes(options: options, scratch: scratch, bufferLimit: sampleBufferLimit),
            HeartRate(scratch: scratch, bufferLimit: sampleBufferLimit / 2),
            Sleep(),
            Vitals(),
            OncePerDayValues(),
            StandHours(),
            Workouts(options: options),
            ActivitySummaries(),
        ]
    }

    /// Which domains take a record type: `count` routes from `start` in `routeList`; a count of
    /// -1 marks a type symbol not yet looked up.
    private struct RouteRange {
        var start: Int32
        var count: Int32
        static let unresolved = RouteRange(start: 0, count: -1)
    }
    private struct Route {
        var domain: Int32
        var code: Int32
    }
    // Not checked at run time (one analyzer is used from one thread; consume is the hot loop).
    @exclusivity(unchecked) private var routeBySymbol: [RouteRange] = []
    @exclusivity(unchecked) private var routeByName: [String: RouteRange] = [:]
    @exclusivity(unchecked) private var routeList: [Route] = []
    @exclusivity(unchecked) private var finished = false
    /// How many analyzers were merged into this one (itself included): the threads `finish` may
    /// use for its independent parts (one per parser thread of the read).
    private(set) var mergedAnalyzers = 1

    /// Where cumulative samples are spilled (see `init(options:scratch:sampleBufferLimit:)`).
    public let scratch: any ScratchSpace
    /// 262 144 cumulative samples (4 MiB) in memory before a spill.
    public static let defaultSampleBufferLimit = CumulativeStore.defaultBufferLimit

    /// - Parameters:
    ///   - options: what to compute.
    ///   - scratch: where cumulative samples (16 bytes each) are spilled in sorted runs once
    ///     `sampleBufferLimit` of them are buffered: memory by default (which then grows with
    ///     the export); the `report` pipeline passes a temporary file. Analyzers that parse
    ///     parts of one export in parallel may share one (a `ScratchSpace` is thread-safe).
    ///   - sampleBufferLimit: cumulative samples kept in memory before a spill (at least 1).
    public init(
        options: AnalysisOptions, scratch: any ScratchSpace = InMemoryScratchSpace(),
        sampleBufferLimit: Int = Analyzer.defaultSampleBufferLimit
    ) {
        self.options = options
        self.scratch = scratch
        let zones = ZoneEvidenceAccumulator()
        self.zoneEvidence = zones
        self.domains =
            Self.makeDomains(options: options, scratch: scratch, sampleBufferLimit: max(1, sampleBufferLimit)) + [zones]
    }

    /// Takes in one batch of the reader's output. Call as often as batches arrive.
    /// - Complexity: O(1) amortized per record: array lookups by the record's type and source
    ///   symbols, no string hashing except the first time a type or source is seen.
    public func consume(_ batch: ExportBatch) {
        precondition(!finished, "Analyzer.consume called after finish or merge")
        batch.records.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for i in 0..<buffer.count {
                consumeRecord(base + i)
            }
        }
        for c in batch.correlations {
            for d in domains { d.consume(c, context: context) }
        }
        for w in batch.workouts {
            for d in domains { d.consume(w, context: context) }
        }
        for s in batch.activitySummaries {
            for d in domains { d.consume(s, context: context) }
        }
    }

    @inline(__always)
    private func consumeRecord(_ r: UnsafePointer<Record>) {
        if r.pointee.isNestedInCorrelation {
            context.counters.nestedInCorrelation += 1
            return
        }
        if !r.pointee.metadata.isEmpty { zoneEvidence.observeMetadata(r) }
        let range = routes(of: r)
        guard range.count > 0 else { return }
        for k in Int(range.start)..<Int(range.start + range.count) {
            let route = routeList[k]
            domains[Int(route.domain)].consume(r, route: route.code, context: context)
        }
    }

    /// The domains that take the record's type: one array load after the type was first seen.
    @inline(__always)
    private func routes(of r: UnsafePointer<Record>) -> RouteRange {
        let symbol = Int(r.pointee.typeSymbol)
        if symbol >= 0 && symbol < routeBySymbol.count && routeBySymbol[symbol].count >= 0 {
            return routeBySymbol[symbol]
        }
        return resolveRoutes(r.pointee.type, symbol: symbol)
    }

    private func resolveRoutes(_ type: String, symbol: Int) -> RouteRange {
        let range: RouteRange
        if let known = routeByName[type] {
            range = known
        } else {
            let start = routeList.count
            for (d, domain) in domains.enumerated() {
                if let code = domain.route(type: type) { routeList.append(Route(domain: Int32(d), code: code)) }
            }
            range = RouteRange(start: Int32(start), count: Int32(routeList.count - start))
            routeByName[type] = range
        }
        if symbol >= 0 {
            if symbol >= routeBySymbol.count {
                routeBySymbol.append(contentsOf: repeatElement(.unresolved, count: symbol + 1 - routeBySymbol.count))
            }
            routeBySymbol[symbol] = range
        }
        return range
    }

    /// Adds everything `other` consumed (another part of the same export, e.g. parsed by another
    /// thread). `other` must have the same options; it cannot be used afterwards.
    public func merge(_ other: Analyzer) {
        precondition(!finished && !other.finished, "Analyzer.merge after finish or merge")
        precondition(options == other.options, "Analyzer.merge of analyzers with different options")
        let sourceMap = context.merge(other.context)
        for (mine, theirs) in zip(domains, other.domains) {
            mine.mergeSameKind(theirs, sourceMap: sourceMap, context: context)
        }
        mergedAnalyzers += other.mergedAnalyzers
        other.finished = true
    }

    func markFinished() {
        precondition(!finished, "Analyzer.finish called twice")
        finished = true
    }
}

@available(*, unavailable)
extension Analyzer: Sendable {}
