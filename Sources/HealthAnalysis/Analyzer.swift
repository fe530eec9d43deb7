import HealthExport

/// Computes the daily and weekly Activity metrics of one export while it streams.
///
/// Feed every batch of the reader to `consume(_:)`, then call `finish(exportDate:timeZoneCounts:environmentTimeZone:)`
/// once. The time zone is only known at the end (the most frequent `HKTimeZone` is counted
/// while streaming), so `consume` keeps everything in instant space (UTC seconds) and all
/// local-day and local-hour bucketing happens in `finish`.
///
/// Memory: a cumulative sample (steps, energy, distance, exercise/stand/move time, …) is kept in
/// 16 bytes in 1 MiB chunks; heart rate is aggregated into 15-minute UTC buckets (32 bytes per
/// bucket with data); stand hours, once-a-day values (resting heart rate, VO2 max, body mass) and workouts are kept as small structs
/// (a few per day). Records nested in a `Correlation` are skipped.
///
/// Not thread-safe: use one analyzer from one task at a time.
public final class Analyzer {
    let options: AnalysisOptions

    // Per-type decisions, cached by the reader's type symbol (and by name for records built
    // without symbols).
    private var roleBySymbol: [TypeRole] = []
    private var roleByName: [String: TypeRole] = [:]
    var cumulativeTypes: [CumulativeType] = TypeCatalog.fixed
    var cumulative: [ChunkedStore<CumulativeSample>] = Array(
        repeating: ChunkedStore(), count: TypeCatalog.fixed.count)

    // Sources, cached by the reader's source symbol.
    private var sourceBySymbol: [Int32] = []
    private var sourceByName: [String: Int] = [:]
    var sources: [SourceFacts] = []

    var heartRate = HeartRateBuckets()
    var oncePerDay: [OncePerDaySample] = []
    var stand: [StandRecord] = []
    var workouts: [WorkoutSpan] = []
    var summaries: [CivilDate: ActivitySummary] = [:]

    /// The span of instants with data (for the zone table and the day range).
    var firstInstant = Int64.max
    var lastInstant = Int64.min

    var counters = DropCounters()
    private var finished = false

    struct DropCounters {
        var nestedInCorrelation = 0
        var negativeValue = 0
        var endBeforeStart = 0
        var unexpectedUnit = 0
        /// Line in the export of the first sample dropped for each reason (0: not known).
        var negativeValueLine = 0
        var endBeforeStartLine = 0
        var unexpectedUnitLine = 0
        var outOfRange = 0
        var tooManySources = 0
        var implausibleHeartRate = 0
        var exactDuplicates: [Int] = []  // by cumulative slot, filled in `finish`
    }

    public init(options: AnalysisOptions) {
        self.options = options
    }

    /// Takes in one batch of the reader's output. Call as often as batches arrive.
    /// - Complexity: O(1) amortized per record: array lookups by the record's type and source
    ///   symbols, no string hashing except the first time a type or source is seen.
    public func consume(_ batch: ExportBatch) {
        precondition(!finished, "Analyzer.consume called after finish")
        batch.records.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for i in 0..<buffer.count {
                consumeRecord(base + i)
            }
        }
        for w in batch.workouts { consumeWorkout(w) }
        for s in batch.activitySummaries { consumeSummary(s) }
    }

    // MARK: Records

    @inline(__always)
    private func consumeRecord(_ r: UnsafePointer<Record>) {
        if r.pointee.isNestedInCorrelation {
            counters.nestedInCorrelation += 1
            return
        }
        switch role(of: r) {
        case .ignored, .unresolved:
            return
        case .cumulative(let slot):
            consumeCumulative(r, slot: slot)
        case .heartRate:
            guard case .quantity(let q) = r.pointee.value, q.unit == .countPerMinute else {
                counters.unexpectedUnit += 1
                return
            }
            guard q.value > 0 && q.value < 1000 else {  // also false for NaN
                counters.implausibleHeartRate += 1
                return
            }
            let t = r.pointee.startDate.secondsSince1970
            heartRate.add(q.value, at: t)
            cover(t, t)
            // Heart rate is not merged by source, but its device strings are often the only
            // sign that a localized source name is an Apple Watch.
            _ = source(of: r)
        case .oncePerDay(let type):
            guard case .quantity(let q) = r.pointee.value, q.unit == type.unit, q.value > 0 else {
                if counters.unexpectedUnit == 0 { counters.unexpectedUnitLine = r.pointee.line }
                counters.unexpectedUnit += 1
                return
            }
            guard let s = source(of: r) else { return }
            let t = r.pointee.startDate.secondsSince1970
            oncePerDay.append(
                OncePerDaySample(
                    start: t, value: q.value, source: Int32(s), manual: r.pointee.wasUserEntered, type: type))
            cover(t, t)
        case .standHour:
            guard case .category(.appleStandHour(let stood)) = r.pointee.value else { return }
            guard let s = source(of: r) else { return }
            sources[s].writesStandHours = true
            let t = r.pointee.startDate.secondsSince1970
            stand.append(StandRecord(start: t, source: Int32(s), stood: stood))
            cover(t, t)
        }
    }

    @inline(__always)
    private func consumeCumulative(_ r: UnsafePointer<Record>, slot: Int) {
        guard case .quantity(let q) = r.pointee.value, q.unit == cumulativeTypes[slot].unit else {
            if counters.unexpectedUnit == 0 { counters.unexpectedUnitLine = r.pointee.line }
            counters.unexpectedUnit += 1
            return
        }
        let start = r.pointee.startDate.secondsSince1970
        let end = r.pointee.endDate.secondsSince1970
        guard end >= start else {
            if counters.endBeforeStart == 0 { counters.endBeforeStartLine = r.pointee.line }
            counters.endBeforeStart += 1
            return
        }
        guard q.value >= 0 else {  // also false for NaN
            if counters.negativeValue == 0 { counters.negativeValueLine = r.pointee.line }
            counters.negativeValue += 1
            return
        }
        guard start >= 0, end <= Int64(UInt32.max), q.value.isFinite else {
            counters.outOfRange += 1
            return
        }
        guard let s = source(of: r) else { return }
        guard s <= Int(UInt16.max) else {
            counters.tooManySources += 1
            return
        }
        let manual = !r.pointee.metadata.isEmpty && r.pointee.wasUserEntered
        cumulative[slot].append(
            CumulativeSample(
                start: UInt32(start), duration: UInt32(end - start), value: Float(q.value),
                source: UInt16(s), flags: manual ? CumulativeSample.manual : 0))
        cover(start, end > start ? end - 1 : end)
    }

    @inline(__always)
    private func cover(_ first: Int64, _ last: Int64) {
        if first < firstInstant { firstInstant = first }
        if last > lastInstant { lastInstant = last }
    }

    /// The role of the record's type: one array load after the type was first seen.
    @inline(__always)
    private func role(of r: UnsafePointer<Record>) -> TypeRole {
        let symbol = Int(r.pointee.typeSymbol)
        if symbol >= 0 && symbol < roleBySymbol.count {
            let role = roleBySymbol[symbol]
            if case .unresolved = role {} else { return role }
        }
        return resolveRole(r.pointee.type, symbol: symbol)
    }

    private func resolveRole(_ type: String, symbol: Int) -> TypeRole {
        let role: TypeRole
        if let known = roleByName[type] {
            role = known
        } else {
            let (classified, newType) = TypeCatalog.classify(type)
            if let newType {
                role = .cumulative(slot: cumulativeTypes.count)
                cumulativeTypes.append(newType)
                cumulative.append(ChunkedStore())
            } else {
                role = classified
            }
            roleByName[type] = role
        }
        if symbol >= 0 {
            if symbol >= roleBySymbol.count {
                roleBySymbol.append(contentsOf: repeatElement(.unresolved, count: symbol + 1 - roleBySymbol.count))
            }
            roleBySymbol[symbol] = role
        }
        return role
    }

    /// The source-table index of the record's source (registering it on first sight), after
    /// noting its creation date and device class.
    @inline(__always)
    private func source(of r: UnsafePointer<Record>) -> Int? {
        let symbol = Int(r.pointee.sourceSymbol)
        var s: Int
        if symbol >= 0 && symbol < sourceBySymbol.count && sourceBySymbol[symbol] >= 0 {
            s = Int(sourceBySymbol[symbol])
        } else {
            s = resolveSource(r.pointee.sourceName, symbol: symbol)
        }
        if let c = r.pointee.creationDate?.secondsSince1970, c < sources[s].earliestCreation {
            sources[s].earliestCreation = c
        }
        if !sources[s].sawWatchDevice, let device = r.pointee.device {
            observe(device, source: s)
        }
        return s
    }

    private func resolveSource(_ name: String, symbol: Int) -> Int {
        let s: Int
        if let known = sourceByName[name] {
            s = known
        } else {
            s = sources.count
            sources.append(SourceFacts(name: name))
            sourceByName[name] = s
        }
        if symbol >= 0 {
            if symbol >= sourceBySymbol.count {
                sourceBySymbol.append(contentsOf: repeatElement(-1, count: symbol + 1 - sourceBySymbol.count))
            }
            sourceBySymbol[symbol] = Int32(s)
        }
        return s
    }

    private func observe(_ device: Device, source s: Int) {
        let id = ObjectIdentifier(device)
        guard sources[s].lastDevice != id else { return }
        sources[s].lastDevice = id
        if device.isAppleWatch {
            sources[s].sawWatchDevice = true
        } else if device.isIPhone {
            sources[s].sawPhoneDevice = true
        }
    }

    // MARK: Workouts and summaries

    private func consumeWorkout(_ w: Workout) {
        let s = resolveSource(w.sourceName, symbol: -1)
        if let c = w.creationDate?.secondsSince1970, c < sources[s].earliestCreation {
            sources[s].earliestCreation = c
        }
        if !sources[s].sawWatchDevice, let device = w.device { observe(device, source: s) }
        let start = w.startDate.secondsSince1970
        let end = max(start, w.endDate.secondsSince1970)
        let minutes = w.durationMinutes ?? Double(end - start) / 60
        workouts.append(WorkoutSpan(start: start, end: end, minutes: max(0, minutes), source: Int32(s)))
        cover(start, start)
    }

    private func consumeSummary(_ summary: ActivitySummary) {
        // Two summaries for one date (seen after restores): keep the larger one, so that the
        // choice does not depend on document order.
        if let existing = summaries[summary.date], !Self.prefer(summary, over: existing) { return }
        summaries[summary.date] = summary
    }

    private static func prefer(_ a: ActivitySummary, over b: ActivitySummary) -> Bool {
        func key(_ s: ActivitySummary) -> [Double] {
            [
                s.activeEnergyBurnedKcal, s.appleExerciseTimeMinutes, s.appleStandHours,
                s.appleMoveTimeMinutes, s.activeEnergyBurnedGoalKcal, s.appleExerciseTimeGoalMinutes,
                s.appleStandHoursGoal, s.appleMoveTimeGoalMinutes,
            ].map { $0 ?? -1 }
        }
        return key(a).lexicographicallyPrecedes(key(b)) == false && key(a) != key(b)
    }

    func markFinished() {
        precondition(!finished, "Analyzer.finish called twice")
        finished = true
    }
}

@available(*, unavailable)
extension Analyzer: Sendable {}
