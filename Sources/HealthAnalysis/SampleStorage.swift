import HealthExport

/// One stored cumulative sample: 16 bytes.
///
/// Times are whole seconds (exports have 1-second resolution), so `UInt32` seconds since 1970
/// cover 1970–2106 exactly; samples outside are dropped and counted. The value is the canonical
/// unit's value as a `Float` (24 significant bits: exact for integer step counts below 16.7 M,
/// relative error ≤ 6·10⁻⁸ otherwise — far below the cross-check tolerances).
struct CumulativeSample: Sendable {
    var start: UInt32
    var duration: UInt32
    var value: Float
    /// The source: its index in the analyzer's source table while streaming, its position in the
    /// priority order after `finish` remaps it.
    var source: UInt16
    var flags: UInt16

    /// `HKWasUserEntered = 1` (reference §5.4: manual samples rank first).
    static let manual: UInt16 = 1

    var end: Int64 { Int64(start) + Int64(duration) }
    var isManual: Bool { flags & Self.manual != 0 }
}

/// Heart-rate statistics of one 15-minute UTC bucket (every zone offset is a multiple of
/// 15 minutes, so a bucket lies inside one local day in any zone).
///
/// The sum is kept in thousandths of a bpm as an integer, so that it is exact and therefore
/// independent of the order the samples arrive in.
struct HeartRateBucket: Sendable {
    var sumMilli: Int64 = 0
    var min: Double = .infinity
    var max: Double = -.infinity
    var count: UInt32 = 0
}

/// 15-minute heart-rate buckets, stored in pages of 4 096 buckets (~43 days) created on demand.
struct HeartRateBuckets {
    static let bucketSeconds: Int64 = 900
    private static let pageShift: Int64 = 12
    private static var pageSize: Int { 1 << 12 }
    private var pageIndex: [Int64: Int] = [:]
    private var pages: [ContiguousArray<HeartRateBucket>] = []
    private var pageNumbers: [Int64] = []
    private var lastPage: Int64 = .min
    private var lastPageSlot = -1

    @inline(__always)
    mutating func add(_ bpm: Double, at t: Int64) {
        let i = locate(t)
        pages[lastPageSlot].withUnsafeMutableBufferPointer { b in
            b[i].sumMilli += Int64((bpm * 1000).rounded())
            b[i].count += 1
            if bpm < b[i].min { b[i].min = bpm }
            if bpm > b[i].max { b[i].max = bpm }
        }
    }

    /// Adds another bucket's statistics to the bucket containing `t` (merging two analyzers).
    mutating func add(_ other: HeartRateBucket, at t: Int64) {
        let i = locate(t)
        pages[lastPageSlot].withUnsafeMutableBufferPointer { b in
            b[i].sumMilli += other.sumMilli
            b[i].count += other.count
            b[i].min = Swift.min(b[i].min, other.min)
            b[i].max = Swift.max(b[i].max, other.max)
        }
    }

    /// Makes the page of the bucket containing `t` current (creating it on first use) and
    /// returns the bucket's index in that page.
    @inline(__always)
    private mutating func locate(_ t: Int64) -> Int {
        let bucket = floorDiv(t, Self.bucketSeconds)
        let page = bucket >> Self.pageShift
        if page != lastPage {
            if let slot = pageIndex[page] {
                lastPageSlot = slot
            } else {
                lastPageSlot = pages.count
                pages.append(ContiguousArray(repeating: HeartRateBucket(), count: Self.pageSize))
                pageNumbers.append(page)
                pageIndex[page] = lastPageSlot
            }
            lastPage = page
        }
        return Int(bucket & Int64(Self.pageSize - 1))
    }

    /// Calls `body` with each non-empty bucket's start instant, in no particular order.
    func forEachBucket(_ body: (Int64, HeartRateBucket) -> Void) {
        for (slot, page) in pages.enumerated() {
            let base = pageNumbers[slot] << Self.pageShift
            for (i, b) in page.enumerated() where b.count > 0 {
                body((base + Int64(i)) * Self.bucketSeconds, b)
            }
        }
    }
}

/// A sample of a once-a-day type (resting heart rate, VO2 max, body mass; reference §5.6).
struct OncePerDaySample: Sendable {
    var start: Int64
    var value: Double
    var source: Int32
    var manual: Bool
    var type: OncePerDayType
}

/// An `AppleStandHour` record.
struct StandRecord: Sendable {
    var start: Int64
    var source: Int32
    var stood: Bool
}

/// A workout, reduced to what the daily metrics need.
struct WorkoutSpan: Sendable {
    var start: Int64
    var end: Int64
    var minutes: Double
    var source: Int32
}
