import HealthExport

/// One domain of the analysis (cumulative types, heart rate, stand hours, workouts, …): the state
/// it keeps while the export streams, and how that state becomes its part of the result.
///
/// Every domain has the same three steps:
/// 1. **consume**: records of the types it routed (`route(type:)`), and every workout and
///    `ActivitySummary`, in any order and from any segment of the export;
/// 2. **merge**: add the state of another accumulator of the same kind, built from another part
///    of the export (parallel parsing); the result must not depend on how the export was split
///    or in which order parts are merged;
/// 3. **finish**: once, after the last merge, bucket into local days of `FinishContext.calendar`
///    and write the domain's columns, rows and notes into the context. A domain whose finish
///    has heavy parts that need nothing but its own state and the context's inputs returns them
///    from `finishParts(_:)`: the parts of all domains run at once on the parser threads, and
///    their outcomes come back to `finish(_:prepared:)`, which writes them into the context.
///
/// Adding a domain is a new file with a new conformance and one line in `Analyzer.makeDomains`.
/// Accumulators are not thread-safe: each analyzer (and so each parsing thread) has its own.
/// Every requirement is typed by the domain itself (`merge` takes `Self`, the parts' outcomes are
/// `Prepared`); the analyzer lists its domains as `any DomainAccumulator`, and only the
/// extension below, `mergeSameKind` and `boxedFinishParts`, erases those types, in one place.
protocol DomainAccumulator: AnyObject {
    /// What one part of `finishParts(_:)` computes (say, one type's pass over its samples); a
    /// domain without parts leaves it `Void`.
    associatedtype Prepared = Void

    /// The route code for records of `type` (an HKObjectType identifier), or nil when this domain
    /// does not take them. Asked once per type and analyzer; the code comes back in `consume`.
    func route(type: String) -> Int32?

    /// Takes one top-level record of a routed type (records nested in a `Correlation` never come here).
    func consume(_ record: UnsafePointer<Record>, route: Int32, context: StreamContext)

    /// Takes one workout (all domains see every workout).
    func consume(_ workout: Workout, context: StreamContext)

    /// Takes one `ActivitySummary` (all domains see every summary).
    func consume(_ summary: ActivitySummary, context: StreamContext)

    /// Takes one `Correlation` with its nested records (all domains see every correlation).
    func consume(_ correlation: Correlation, context: StreamContext)

    /// Adds `other`'s state (another analyzer's accumulator of this domain, which is discarded
    /// afterwards: a merge may take its memory).
    /// - Parameters:
    ///   - sourceMap: for each index of `other`'s source table, the index of the same source in
    ///     this analyzer's table (-1: none; `Array.appendRemapped` does the remapping).
    ///   - context: this analyzer's context (already merged with `other`'s).
    func merge(_ other: Self, sourceMap: [Int], context: StreamContext)

    /// Local days this domain has data on without a record instant (e.g. `ActivitySummary`
    /// dates), as days since 1970-01-01; nil when none.
    var calendarDayExtent: ClosedRange<Int>? { get }

    /// Computes the domain's part of the result into `context`. Called once (by the default
    /// `finish(_:prepared:)`).
    /// - Throws: what reading the domain's spilled state back throws (a scratch space's error).
    func finish(_ context: inout FinishContext) throws

    /// The heavy, independent parts of this domain's finish (default: none). Called once, before
    /// any domain finishes; each part may run on another thread, at the same time as the other
    /// parts of every domain, so it may read `context` (and must not change it) and touch only
    /// this domain's own state; two parts of one domain may only read that state (heart rate's
    /// one part sorts its series; the cumulative types' parts read the store, prepared before).
    func finishParts(_ context: FinishContext) -> [FinishPart<Prepared>]

    /// `finish(_:)` with the outcomes of `finishParts`, in their order. Called once, on the
    /// calling thread, in the order of the domains. The default ignores `prepared` and calls
    /// `finish(_:)`.
    /// - Throws: what a part threw, or what `finish(_:)` throws.
    func finish(_ context: inout FinishContext, prepared: [Prepared]) throws
}

/// A part of a domain's finish (see `DomainAccumulator.finishParts`) that computes an `Outcome`.
struct FinishPart<Outcome> {
    /// The part's relative cost (say, the samples it reads): the costliest start first.
    var cost: Int
    /// Computes the part's outcome.
    var run: () throws -> Outcome
}

extension DomainAccumulator {
    func finishParts(_ context: FinishContext) -> [FinishPart<Prepared>] { [] }
    func finish(_ context: inout FinishContext, prepared: [Prepared]) throws { try finish(&context) }
    func consume(_ workout: Workout, context: StreamContext) {}
    func consume(_ summary: ActivitySummary, context: StreamContext) {}
    func consume(_ correlation: Correlation, context: StreamContext) {}
    var calendarDayExtent: ClosedRange<Int>? { nil }
}

/// What all domains of one analyzer share while streaming: the source table, the counters of
/// dropped samples, and the span of instants with data.
///
/// Not thread-safe: it belongs to one analyzer.
final class StreamContext {
    @exclusivity(unchecked) var sources = SourceTable()
    @exclusivity(unchecked) var counters = DropCounters()
    /// The span of instants with data (UTC seconds), for the zone table and the day range.
    @exclusivity(unchecked) var firstInstant = Int64.max
    @exclusivity(unchecked) var lastInstant = Int64.min

    /// Widens the span of instants with data to include `[first, last]`.
    @inline(__always)
    func cover(_ first: Int64, _ last: Int64) {
        if first < firstInstant { firstInstant = first }
        if last > lastInstant { lastInstant = last }
    }

    /// Adds `other`'s sources, counters and span; returns the source map for the domains' merge.
    func merge(_ other: StreamContext) -> [Int] {
        counters.merge(other.counters)
        cover(other.firstInstant, other.lastInstant)
        return sources.merge(other.sources)
    }
}

/// Samples dropped while streaming, by reason (reported in the notes of the result).
struct DropCounters: Sendable {
    var nestedInCorrelation = 0
    var negativeValue = 0
    var endBeforeStart = 0
    var unexpectedUnit = 0
    /// Line in the export of the first sample dropped for each reason (0: not known).
    var negativeValueLine = 0
    var endBeforeStartLine = 0
    var unexpectedUnitLine = 0
    var outOfRange = 0
    /// Cumulative samples longer than `CumulativeTypes.maxDurationSeconds`, and the first line.
    var tooLong = 0
    var tooLongLine = 0
    var tooManySources = 0
    /// Samples outside their metric's plausible range (docs/plausible-ranges.md).
    var implausible = ImplausibleCounts()

    /// Counts a sample without a value in the unit its type needs, at `line`.
    mutating func countUnexpectedUnit(line: Int) {
        Self.note(line, first: &unexpectedUnitLine)
        unexpectedUnit += 1
    }

    mutating func countNegativeValue(line: Int) {
        Self.note(line, first: &negativeValueLine)
        negativeValue += 1
    }

    mutating func countTooLong(line: Int) {
        Self.note(line, first: &tooLongLine)
        tooLong += 1
    }

    mutating func countEndBeforeStart(line: Int) {
        Self.note(line, first: &endBeforeStartLine)
        endBeforeStart += 1
    }

    /// The first line is the smallest known one, so that it does not depend on how the export
    /// was split for parallel parsing.
    private static func note(_ line: Int, first: inout Int) {
        if line > 0 && (first == 0 || line < first) { first = line }
    }

    mutating func merge(_ o: DropCounters) {
        nestedInCorrelation += o.nestedInCorrelation
        negativeValue += o.negativeValue
        endBeforeStart += o.endBeforeStart
        unexpectedUnit += o.unexpectedUnit
        Self.note(o.negativeValueLine, first: &negativeValueLine)
        Self.note(o.endBeforeStartLine, first: &endBeforeStartLine)
        Self.note(o.unexpectedUnitLine, first: &unexpectedUnitLine)
        outOfRange += o.outOfRange
        tooLong += o.tooLong
        Self.note(o.tooLongLine, first: &tooLongLine)
        tooManySources += o.tooManySources
        implausible.merge(o.implausible)
    }
}

/// What `finish` hands every domain: the zone's calendar, the source priority, the days, and the
/// result being built.
struct FinishContext {
    let options: AnalysisOptions
    let calendar: LocalCalendar
    let priority: SourcePriority
    /// The local days the computation covers (a range to filter by: nothing is allocated per day
    /// of it).
    let days: ClosedRange<Int>
    /// The local days reported (the window of `--from`/`--to`/`--week last`).
    let report: ClosedRange<Int>
    /// The per-day columns the domains fill.
    var daily: DailyColumns
    var result: AnalysisResult
    /// Notes for the report, in the order the domains finish.
    var notes: [AnalysisNote]
    /// The day's `ActivitySummary` by date (set by the summaries domain).
    var summaries: [CivilDate: ActivitySummary] = [:]
    /// Threads a domain may use for independent parts of its finish (the parser threads of the
    /// read; 1: all on the calling thread). The result never depends on it.
    var threads = 1
}

// The analyzer's domains as `any DomainAccumulator`: the one place their kinds are erased.
extension DomainAccumulator {
    /// `merge(_:sourceMap:context:)` with an accumulator known only as a domain. Analyzers of
    /// one export list the same domains in the same order (`Analyzer.makeDomains`), so `other`
    /// is of this kind; anything else is a programming error and stops the process.
    func mergeSameKind(_ other: any DomainAccumulator, sourceMap: [Int], context: StreamContext) {
        guard let other = other as? Self else {
            preconditionFailure("DomainAccumulator.merge: \(type(of: other)) is not a \(Self.self)")
        }
        merge(other, sourceMap: sourceMap, context: context)
    }

    /// `finishParts(_:)` with the outcomes boxed, so that the parts of all domains can run as one
    /// list; `finish(_:boxed:)` unboxes them.
    func boxedFinishParts(_ context: FinishContext) -> [FinishPart<Any>] {
        finishParts(context).map { part in FinishPart(cost: part.cost) { try part.run() } }
    }

    /// `finish(_:prepared:)` with the boxed outcomes of `boxedFinishParts`, in their order.
    func finish(_ context: inout FinishContext, boxed: [Any]) throws {
        let prepared = boxed.map { outcome in
            guard let p = outcome as? Prepared else {
                preconditionFailure("DomainAccumulator.finish: an outcome of \(Self.self) is not a \(Prepared.self)")
            }
            return p
        }
        try finish(&context, prepared: prepared)
    }
}
