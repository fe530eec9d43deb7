import HealthExport

/// Heart rate (`HKQuantityTypeIdentifierHeartRate`, count/min): the discrete average, minimum
/// and maximum per local day over all sources (reference §5.6: priority does not apply).
///
/// Memory: samples are aggregated into 15-minute UTC buckets while streaming (every UTC offset
/// is a whole number of 15-minute steps, so a bucket lies inside one local day in any zone).
final class HeartRate: DomainAccumulator {
    private var buckets = HeartRateBuckets()

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
        context.cover(t, t)
        // Heart rate is not merged by source, but its device strings are often the only sign
        // that a localized source name is an Apple Watch.
        _ = context.sources.index(of: r)
    }

    func merge(_ other: any DomainAccumulator, sourceMap: [Int], context: StreamContext) {
        let other = other as! HeartRate
        other.buckets.forEachBucket { start, bucket in buckets.add(bucket, at: start) }
    }

    func finish(_ context: inout FinishContext) {
        let calendar = context.calendar
        buckets.forEachBucket { start, bucket in
            context.daily.addHeartRate(day: calendar.dayNumber(start), bucket)
        }
    }
}
