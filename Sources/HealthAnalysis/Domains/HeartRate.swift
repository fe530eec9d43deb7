import HealthExport

/// Heart rate (`HKQuantityTypeIdentifierHeartRate`, count/min): the average, minimum and maximum
/// per local day over all sources (reference §5.6: priority does not apply).
///
/// The average is time-weighted, as HealthKit weights heart rate (reference §5.6): each sample
/// weighs the seconds until the next sample of any source (wherever that falls), at most
/// `weightCap`; the last sample weighs the cap; a sample counts on the local day of its instant.
/// So a day of 60 bpm every 10 minutes with one workout hour of 150 bpm every 5 s reads
/// (23 h × 60 + 1 h × 150) / 24 h = 63.75 bpm, where the plain mean of the 864 samples reads 135.
///
/// Memory: samples are aggregated into 15-minute UTC buckets while streaming (every UTC offset
/// is a whole number of 15-minute steps, so a bucket lies inside one local day in any zone).
final class HeartRate: DomainAccumulator {
    private var buckets = HeartRateBuckets()
    /// Every sample (instant, bpm), for the time-weighted mean: 16 bytes a sample.
    private var series: [(instant: Int64, bpm: Double)] = []
    /// The most a sample can weigh (reference §5.6 suggests capping the gap, e.g. at 10 minutes).
    static let weightCap: Int64 = 600

    func route(type: String) -> Int32? {
        TypeCatalog.classify(type).role == .heartRate ? 0 : nil
    }

    @inline(__always)
    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        guard case .quantity(let q) = r.pointee.value, q.unit == .countPerMinute else {
            context.counters.countUnexpectedUnit(line: r.pointee.line)
            return
        }
        guard q.value > 0 && q.value < 1000 else {  // also false for NaN
            context.counters.implausibleHeartRate += 1
            return
        }
        let t = r.pointee.startDate.secondsSince1970
        buckets.add(q.value, at: t)
        series.append((t, q.value))
        context.cover(t, t)
        // Heart rate is not merged by source, but its device strings are often the only sign
        // that a localized source name is an Apple Watch.
        _ = context.sources.index(of: r)
    }

    func merge(_ other: any DomainAccumulator, sourceMap: [Int], context: StreamContext) {
        let other = other as! HeartRate
        other.buckets.forEachBucket { start, bucket in buckets.add(bucket, at: start) }
        series.append(contentsOf: other.series)
    }

    func finish(_ context: inout FinishContext) {
        let calendar = context.calendar
        buckets.forEachBucket { start, bucket in
            context.daily.addHeartRate(day: calendar.dayNumber(start), bucket)
        }
        for (day, mean) in Self.timeWeightedMeans(series, calendar: calendar) {
            context.daily.setHeartRateTimeWeightedMean(day: day, mean)
        }
    }

    /// Per local day, the time-weighted mean of the samples (see the type's comment).
    static func timeWeightedMeans(_ samples: [(instant: Int64, bpm: Double)], calendar: LocalCalendar) -> [Int: Double]
    {
        // Sorting by (instant, bpm) makes the result independent of the input order.
        let sorted = samples.sorted { ($0.instant, $0.bpm) < ($1.instant, $1.bpm) }
        var sums: [Int: (weighted: Double, weight: Int64, plain: Double, count: Int)] = [:]
        var day = Int.min
        var dayEnd = Int64.min
        for (n, s) in sorted.enumerated() {
            if s.instant >= dayEnd {
                day = calendar.dayNumber(s.instant)
                dayEnd = calendar.startOfDay(day + 1)
            }
            let w = n + 1 < sorted.count ? min(sorted[n + 1].instant - s.instant, weightCap) : weightCap
            var e = sums[day] ?? (0, 0, 0, 0)
            e.weighted += Double(w) * s.bpm
            e.weight += w
            e.plain += s.bpm
            e.count += 1
            sums[day] = e
        }
        // All samples of a day at one instant weigh nothing: their plain mean.
        return sums.mapValues { $0.weight > 0 ? $0.weighted / Double($0.weight) : $0.plain / Double($0.count) }
    }
}
