import HealthExport

/// Heart rate (`HKQuantityTypeIdentifierHeartRate`, count/min): the average, minimum and maximum
/// per local day over all sources (docs/deduplication.md §9: priority does not apply).
///
/// The average is time-weighted, as HealthKit weights heart rate (docs/deduplication.md §9): each sample
/// weighs the seconds until the next sample of any source (wherever that falls), at most
/// `weightCap`; the last sample weighs the cap; a sample counts on the local day of its instant.
/// So a day of 60 bpm every 10 minutes with one workout hour of 150 bpm every 5 s reads
/// (23 h × 60 + 1 h × 150) / 24 h = 63.75 bpm, where the plain mean of the 864 samples reads 135.
///
/// Memory: every sample is kept in 16 bytes in a `HeartRateSeries` (bounded buffer, sorted runs
/// in the scratch space) and nothing else while streaming. `finish` reads the sorted stream once
/// for the time-weighted mean and for minimum, maximum and the exact thousandths sum, which are
/// gathered per 15-minute UTC bucket and counted on the local day of the bucket's start (every
/// UTC offset is a whole number of 15-minute steps, so a bucket lies inside one local day).
final class HeartRate: DomainAccumulator {
    /// Every sample (instant, bpm), for the time-weighted mean.
    @exclusivity(unchecked) private(set) var series: HeartRateSeries

    init(scratch: any ScratchSpace, bufferLimit: Int) {
        series = HeartRateSeries(scratch: scratch, bufferLimit: bufferLimit)
    }
    /// The most a sample can weigh (docs/deduplication.md §9 suggests capping the gap, e.g. at 10 minutes).
    static let weightCap: Int64 = 600
    /// The statistics' bucket: 15 minutes of UTC.
    static let bucketSeconds: Int64 = 900

    func route(type: String) -> Int32? {
        TypeCatalog.classify(type).role == .heartRate ? 0 : nil
    }

    @inline(__always)
    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        guard case .quantity(let q) = r.pointee.value, q.unit == .countPerMinute else {
            context.counters.countUnexpectedUnit(line: r.pointee.line)
            return
        }
        guard PlausibleMetric.heartRate.admits(q.value) else {  // also false for NaN
            context.counters.implausible.count(.heartRate, line: r.pointee.line)
            return
        }
        let t = r.pointee.startDate.secondsSince1970
        series.append(HeartRatePoint(instant: t, bpm: q.value))
        context.cover(t, t)
        // Heart rate is not merged by source, but its device strings are often the only sign
        // that a localized source name is an Apple Watch.
        _ = context.sources.index(of: r)
    }

    func merge(_ other: HeartRate, sourceMap: [Int], context: StreamContext) {
        series.merge(other.series)
        other.series = HeartRateSeries(scratch: other.series.scratch, bufferLimit: 1)  // free its buffer
    }

    /// What the one pass over the sorted samples gives: per local day, the statistics of its
    /// buckets (folded: sums and counts are exact, so the fold order does not matter) and the
    /// time-weighted mean.
    struct Outcome {
        var days: [Int: HeartRateBucket] = [:]
        var means: [Int: Double] = [:]
    }

    /// One part: the pass over the sorted series (the only state it touches).
    func finishParts(_ context: FinishContext) -> [FinishPart<Outcome>] {
        let calendar = context.calendar
        return [FinishPart(cost: series.count) { [self] in try self.pass(calendar) }]
    }

    private func pass(_ calendar: LocalCalendar) throws -> Outcome {
        var outcome = Outcome()
        var means = TimeWeightedMeans(calendar: calendar)
        // The current 15-minute bucket's statistics (thousandths sum, count, minimum, maximum:
        // exact, so independent of the order), handed to its day when the stream leaves it.
        var bucketStart = Int64.min
        var bucket = HeartRateBucket()
        func close() {
            guard bucket.count > 0 else { return }
            let day = calendar.dayNumber(bucketStart)
            var d = outcome.days[day] ?? HeartRateBucket()
            d.sumMilli += bucket.sumMilli
            d.count += bucket.count
            d.min = min(d.min, bucket.min)
            d.max = max(d.max, bucket.max)
            outcome.days[day] = d
        }
        try series.forEachSorted { p in
            means.add(p)
            let start = floorDiv(p.instant, Self.bucketSeconds) * Self.bucketSeconds
            if start != bucketStart {
                close()
                bucketStart = start
                bucket = HeartRateBucket()
            }
            bucket.sumMilli += Int64((p.bpm * 1000).rounded())
            bucket.count += 1
            if p.bpm < bucket.min { bucket.min = p.bpm }
            if p.bpm > bucket.max { bucket.max = p.bpm }
        }
        close()
        outcome.means = means.finish()
        return outcome
    }

    func finish(_ context: inout FinishContext) throws {
        try finish(&context, prepared: [try pass(context.calendar)])
    }

    func finish(_ context: inout FinishContext, prepared: [Outcome]) throws {
        let outcome = prepared[0]
        for (day, b) in outcome.days { context.daily.addHeartRate(day: day, b) }
        for (day, mean) in outcome.means { context.daily.setHeartRateTimeWeightedMean(day: day, mean) }
    }
}

/// Per local day, the time-weighted mean of heart-rate samples fed in `HeartRatePoint.precedes`
/// order (see `HeartRate`): each sample weighs the seconds until the next one, at most
/// `HeartRate.weightCap`; the last weighs the cap. Sorting makes the result independent of the
/// input order.
struct TimeWeightedMeans {
    let calendar: LocalCalendar
    private var sums: [Int: (weighted: Double, weight: Int64, plain: Double, count: Int)] = [:]
    private var day = Int.min
    private var dayEnd = Int64.min
    private var previous: HeartRatePoint?

    init(calendar: LocalCalendar) { self.calendar = calendar }

    mutating func add(_ p: HeartRatePoint) {
        if let s = previous { account(s, weight: min(p.instant - s.instant, HeartRate.weightCap)) }
        previous = p
    }

    private mutating func account(_ s: HeartRatePoint, weight w: Int64) {
        if s.instant >= dayEnd {
            day = calendar.dayNumber(s.instant)
            dayEnd = calendar.startOfDay(day + 1)
        }
        var e = sums[day] ?? (0, 0, 0, 0)
        e.weighted += Double(w) * s.bpm
        e.weight += w
        e.plain += s.bpm
        e.count += 1
        sums[day] = e
    }

    /// The means by day. All samples of a day at one instant weigh nothing: their plain mean.
    mutating func finish() -> [Int: Double] {
        if let s = previous { account(s, weight: HeartRate.weightCap) }
        previous = nil
        return sums.mapValues { $0.weight > 0 ? $0.weighted / Double($0.weight) : $0.plain / Double($0.count) }
    }
}
