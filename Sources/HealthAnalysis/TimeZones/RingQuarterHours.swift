import HealthExport

/// Apple Watch ring inputs summed per 15-minute UTC bucket: active energy (kcal), exercise
/// minutes and stood stand hours. Every UTC offset is a multiple of 15 minutes, so a bucket lies
/// inside one local day in any zone, and the per-day ring values in any candidate zone (or zone
/// timeline) follow exactly from these buckets (docs/rings.md §4), without going back to the
/// samples.
///
/// Energy and exercise samples crossing a bucket boundary are split in proportion to time, as the
/// day totals are at midnight; a stand hour counts in the bucket of its start. Used to score
/// candidate zones by their agreement with `ActivitySummary` (docs/days-and-time-zones.md §6,
/// docs/rings.md §5), not for the reported values.
struct RingQuarterHours: Sendable {
    struct Bucket: Sendable, Equatable {
        var energyKcal: Double = 0
        var exerciseMinutes: Double = 0
        var standHours: Int = 0
    }

    static let seconds: Int64 = 900

    // Storage: one `QuarterPages` per ring input, so a bucket costs only the inputs that were
    // added to it, and pages of 4 hours exist only where there is data (a Watch is not worn
    // at night; exercise minutes come in a few runs a day; a parsing thread that reads every
    // other part of an export holds pages only for its parts). A bucket of the series is one
    // that any of the three was added to.
    private var energy = QuarterPages<Double>()
    private var exercise = QuarterPages<Double>()
    /// Empty until the first stood hour (added only to the Watch rings, at finish).
    private var stand = QuarterPages<Int32>()

    init() {}

    var isEmpty: Bool { energy.isEmpty && exercise.isEmpty && stand.isEmpty }

    /// Adds a Watch active-energy sample over `[start, end)`, prorated into buckets.
    mutating func addEnergy(start: Int64, end: Int64, kcal: Double) {
        Self.prorate(start: start, end: end, value: kcal, into: &energy)
    }

    /// Adds a Watch exercise-time sample over `[start, end)`, prorated into buckets.
    mutating func addExercise(start: Int64, end: Int64, minutes: Double) {
        Self.prorate(start: start, end: end, value: minutes, into: &exercise)
    }

    /// Adds one stood stand hour starting at `start` (count each hour once, across Watches).
    mutating func addStoodHour(start: Int64) {
        stand.add(1, quarter: floorDiv(start, Self.seconds))
    }

    private static func prorate(start: Int64, end: Int64, value: Double, into pages: inout QuarterPages<Double>) {
        guard end > start else {
            pages.add(value, quarter: floorDiv(start, Self.seconds))
            return
        }
        var q = floorDiv(start, Self.seconds)
        let duration = Double(end - start)
        while q * Self.seconds < end {
            let lo = max(start, q * Self.seconds)
            let hi = min(end, (q + 1) * Self.seconds)
            if hi > lo { pages.add(value * Double(hi - lo) / duration, quarter: q) }
            q += 1
        }
    }

    /// Adds everything in `other` (bucket by bucket, as if its samples had been added here).
    mutating func merge(_ other: RingQuarterHours) {
        energy.merge(other.energy)
        exercise.merge(other.exercise)
        stand.merge(other.stand)
    }

    /// The quarter-hour numbers (UTC seconds / 900) of every bucket that was added to, in order.
    var quarters: [Int64] {
        // Page by page: the union of the three inputs' presence bits (the pages line up).
        let numbers = Set(energy.pageNumbers).union(exercise.pageNumbers).union(stand.pageNumbers).sorted()
        var out: [Int64] = []
        let perPage = Int64(QuarterPages<Double>.perPage)
        for n in numbers {
            let bits = energy.presence(ofPage: n) | exercise.presence(ofPage: n) | stand.presence(ofPage: n)
            for slot in 0..<perPage where bits & (1 << UInt16(slot)) != 0 { out.append(n * perPage + slot) }
        }
        return out
    }

    /// Every bucket that was added to, by quarter-hour number (UTC seconds / 900), in order.
    var buckets: [(quarter: Int64, bucket: Bucket)] {
        var out: [(quarter: Int64, bucket: Bucket)] = []
        // The three inputs' buckets, each in order, merged.
        let e = energy.sorted
        let x = exercise.sorted
        let s = stand.sorted
        var i = 0
        var j = 0
        var k = 0
        while i < e.count || j < x.count || k < s.count {
            let q = min(
                i < e.count ? e[i].quarter : .max, j < x.count ? x[j].quarter : .max, k < s.count ? s[k].quarter : .max)
            var b = Bucket()
            if i < e.count && e[i].quarter == q {
                b.energyKcal = e[i].value
                i += 1
            }
            if j < x.count && x[j].quarter == q {
                b.exerciseMinutes = x[j].value
                j += 1
            }
            if k < s.count && s[k].quarter == q {
                b.standHours = Int(s[k].value)
                k += 1
            }
            out.append((q, b))
        }
        return out
    }

    /// The ring values per local day of `calendar` (days since 1970), days with Watch data only.
    /// Each day sums its buckets in the order of their instants.
    func dailyValues(_ calendar: LocalCalendar) -> [Int: Bucket] {
        var days: [Int: Bucket] = [:]
        // One input at a time: a day's sum of one input runs over its buckets in instant order,
        // as when all three were summed bucket by bucket (a bucket without that input added +0).
        func sum<Value>(_ pages: QuarterPages<Value>, _ add: (inout Bucket, Value) -> Void) {
            var day = Int.min
            var current = Bucket()
            pages.forEachInOrder { q, v in
                let d = calendar.dayNumber(q * Self.seconds)
                if d != day {
                    if day != Int.min { days[day] = current }
                    day = d
                    current = days[d] ?? Bucket()
                }
                add(&current, v)
            }
            if day != Int.min { days[day] = current }
        }
        sum(energy) { $0.energyKcal += $1 }
        sum(exercise) { $0.exerciseMinutes += $1 }
        sum(stand) { $0.standHours += Int($1) }
        return days
    }
}

/// Sums per 15-minute bucket (quarter-hour number = UTC seconds / 900), kept in pages of
/// `perPage` consecutive buckets that exist only once something was added to one of their
/// buckets: flat arrays of values and a presence bit per bucket (a bucket of zeros still counts
/// as added to). About 8 bytes a bucket for `Double` plus 30 a page, where a dictionary entry per
/// bucket took about 64 bytes.
struct QuarterPages<Value: AdditiveArithmetic & Sendable>: Sendable {
    /// Buckets per page: 4 hours of UTC.
    static var perPage: Int { 16 }

    /// Page index by page number (quarter-hour number / `perPage`, rounded down).
    private var pageByNumber: [Int64: Int32] = [:]
    /// The page number of each page, in the order the pages were made.
    private var numbers: [Int64] = []
    /// `perPage` per page: page p holds values p × perPage ..< (p + 1) × perPage.
    private var values: [Value] = []
    /// One bit per bucket of a page: added to.
    private var present: [UInt16] = []
    private var lastNumber = Int64.min
    private var lastPage = 0

    var isEmpty: Bool { numbers.isEmpty }

    /// Adds `value` to the bucket of quarter hour `q`, making its page (zeros) when new.
    @inline(__always)
    mutating func add(_ value: Value, quarter q: Int64) {
        let number = floorDiv(q, Int64(Self.perPage))
        let page: Int
        if number == lastNumber {
            page = lastPage
        } else if let known = pageByNumber[number] {
            page = Int(known)
        } else {
            page = numbers.count
            pageByNumber[number] = Int32(page)
            numbers.append(number)
            values.append(contentsOf: repeatElement(.zero, count: Self.perPage))
            present.append(0)
        }
        lastNumber = number
        lastPage = page
        let slot = Int(q - number * Int64(Self.perPage))
        present[page] |= 1 << UInt16(slot)
        values[page * Self.perPage + slot] += value
    }

    /// Adds every bucket of `other` that was added to (each as one addition of its sum).
    mutating func merge(_ other: QuarterPages) {
        if isEmpty {
            self = other  // 0 + x is x for every bucket (no bucket holds -0: it starts at +0)
            return
        }
        for (p, number) in other.numbers.enumerated() {
            let bits = other.present[p]
            for slot in 0..<Self.perPage where bits & (1 << UInt16(slot)) != 0 {
                add(other.values[p * Self.perPage + slot], quarter: number * Int64(Self.perPage) + Int64(slot))
            }
        }
    }

    /// Calls `body` with every bucket that was added to (quarter-hour number, sum), in order.
    func forEachInOrder(_ body: (Int64, Value) -> Void) {
        for p in numbers.indices.sorted(by: { numbers[$0] < numbers[$1] }) {
            let bits = present[p]
            let first = numbers[p] * Int64(Self.perPage)
            for slot in 0..<Self.perPage where bits & (1 << UInt16(slot)) != 0 {
                body(first + Int64(slot), values[p * Self.perPage + slot])
            }
        }
    }

    /// The page numbers (quarter-hour number / `perPage`) of the pages, in the order they were made.
    var pageNumbers: [Int64] { numbers }

    /// The presence bits of page `number` (bit s: bucket number × `perPage` + s was added to);
    /// 0 when there is no such page.
    func presence(ofPage number: Int64) -> UInt16 {
        pageByNumber[number].map { present[Int($0)] } ?? 0
    }

    /// Every bucket that was added to, in order.
    var sorted: [(quarter: Int64, value: Value)] {
        var out: [(quarter: Int64, value: Value)] = []
        forEachInOrder { out.append(($0, $1)) }
        return out
    }
}

/// How well one way of cutting days matches the export's `ActivitySummary` rows.
public struct RingAgreement: Hashable, Sendable {
    /// Days with a summary and ring records, and how many of them agree on every ring.
    public internal(set) var compared = 0
    public internal(set) var agreeing = 0
    /// Days with a summary but no ring records (not counted as disagreements).
    public internal(set) var summaryOnly = 0
    /// How far the compared days are from their summaries, in tolerances: per day and ring,
    /// |value − summary| ÷ that ring's tolerance, summed. Tells apart two ways of cutting days
    /// that agree on as many days (a few kcal moved between days stay within the Move tolerance).
    public internal(set) var deviation = 0.0

    /// True when `self` fits the summaries better than `other`: more agreeing days, or as many
    /// and a deviation smaller by more than rounding.
    func isBetter(than other: RingAgreement) -> Bool {
        if agreeing != other.agreeing { return agreeing > other.agreeing }
        return deviation < other.deviation - 1e-6 * max(1, other.deviation)
    }

    /// Compares per-day ring values with the summaries (keyed by day number), within
    /// `RingTolerance` (docs/rings.md §4). A
    /// summary in Move-time mode is compared on exercise and stand only. Only days in `days`
    /// count when it is given.
    static func score(
        _ values: [Int: RingQuarterHours.Bucket], summaries: [Int: ActivitySummary], days: ClosedRange<Int>? = nil
    ) -> RingAgreement {
        var a = RingAgreement()
        for (day, s) in summaries {
            if let days, !days.contains(day) { continue }
            guard let v = values[day] else {
                if s.hasRingValues { a.summaryOnly += 1 }
                continue
            }
            guard let c = compare(v, s) else { continue }
            a.compared += 1
            a.deviation += c.deviation
            if c.agrees { a.agreeing += 1 }
        }
        return a
    }

    /// One day's ring values against its summary, within `RingTolerance` (docs/rings.md §4):
    /// whether every ring agrees, and the deviation (per ring, `RingTolerance.deviation`,
    /// summed). Nil when the summary has no ring to compare.
    static func compare(_ v: RingQuarterHours.Bucket, _ s: ActivitySummary) -> (agrees: Bool, deviation: Double)? {
        var ok = true
        var any = false
        var deviation = 0.0
        func ring(_ value: Double, _ summary: Double?, _ tolerance: RingTolerance) {
            guard let summary else { return }
            any = true
            if !tolerance.agrees(value, summary) { ok = false }
            deviation += tolerance.deviation(value, summary)
        }
        if !s.isMoveTimeMode { ring(v.energyKcal, s.activeEnergyBurnedKcal, .energy) }
        ring(v.exerciseMinutes, s.appleExerciseTimeMinutes, .minutes)
        ring(Double(v.standHours), s.appleStandHours, .standHours)
        return any ? (ok, deviation) : nil
    }
}

extension ActivitySummary {
    /// True when the summary carries any ring value above zero (a summary of zeros before the
    /// Watch was worn says nothing about the zone).
    var hasRingValues: Bool {
        (activeEnergyBurnedKcal ?? 0) > 0 || (appleExerciseTimeMinutes ?? 0) > 0 || (appleStandHours ?? 0) > 0
    }
}
