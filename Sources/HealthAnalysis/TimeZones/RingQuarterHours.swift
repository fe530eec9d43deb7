import HealthExport

/// Apple Watch ring inputs summed per 15-minute UTC bucket: active energy (kcal), exercise
/// minutes and stood stand hours. Every UTC offset is a multiple of 15 minutes, so a bucket lies
/// inside one local day in any zone, and the per-day ring values in any candidate zone (or zone
/// timeline) follow exactly from these buckets (reference §4.3), without going back to the
/// samples.
///
/// Energy and exercise samples crossing a bucket boundary are split in proportion to time, as the
/// day totals are at midnight; a stand hour counts in the bucket of its start. Used to score
/// candidate zones by their agreement with `ActivitySummary` (reference §2.7.1, §4.4), not for
/// the reported values.
struct RingQuarterHours: Sendable {
    struct Bucket: Sendable, Equatable {
        var energyKcal: Double = 0
        var exerciseMinutes: Double = 0
        var standHours: Int = 0
    }

    static let seconds: Int64 = 900
    /// Quarter hours in a UTC day: the buckets of one page.
    static let perPage = 96

    // Storage: one page per UTC day with data, 96 buckets each, in flat arrays (page p holds
    // buckets p × 96 ..< (p + 1) × 96), instead of a dictionary entry per bucket: 1.5 KB per
    // day and source with data (plus 384 bytes once stand hours are added at finish) where the
    // dictionary took about 64 bytes per bucket and twice that while growing.
    /// Page index by UTC day number (days since 1970-01-01).
    private var pageByDay: [Int64: Int32] = [:]
    /// The UTC day of each page, in the order the pages were made.
    private var pageDays: [Int64] = []
    private var energy: [Double] = []
    private var exercise: [Double] = []
    /// Empty until the first stood hour; then 96 per page.
    private var stand: [Int32] = []
    /// Which buckets were ever added to (a bucket of zeros still counts as "ring records on
    /// that day"): 2 words of 48 bits per page.
    private var present: [UInt64] = []
    private var lastDay = Int64.min
    private var lastPage = 0

    init() {}

    var isEmpty: Bool { pageDays.isEmpty }

    /// Adds a Watch active-energy sample over `[start, end)`, prorated into buckets.
    mutating func addEnergy(start: Int64, end: Int64, kcal: Double) {
        prorate(start: start, end: end, value: kcal, energy: true)
    }

    /// Adds a Watch exercise-time sample over `[start, end)`, prorated into buckets.
    mutating func addExercise(start: Int64, end: Int64, minutes: Double) {
        prorate(start: start, end: end, value: minutes, energy: false)
    }

    /// Adds one stood stand hour starting at `start` (count each hour once, across Watches).
    mutating func addStoodHour(start: Int64) {
        let i = index(ofQuarter: floorDiv(start, Self.seconds))
        if stand.isEmpty { stand = Array(repeating: 0, count: pageDays.count * Self.perPage) }
        stand[i] += 1
    }

    /// The flat index of quarter `q`'s bucket, its page made (zeros) when new; marks it present.
    @inline(__always)
    private mutating func index(ofQuarter q: Int64) -> Int {
        let day = floorDiv(q, Int64(Self.perPage))
        let page: Int
        if day == lastDay {
            page = lastPage
        } else if let known = pageByDay[day] {
            page = Int(known)
        } else {
            page = pageDays.count
            pageByDay[day] = Int32(page)
            pageDays.append(day)
            energy.append(contentsOf: repeatElement(0, count: Self.perPage))
            exercise.append(contentsOf: repeatElement(0, count: Self.perPage))
            if !stand.isEmpty { stand.append(contentsOf: repeatElement(0, count: Self.perPage)) }
            present.append(contentsOf: [0, 0])
        }
        lastDay = day
        lastPage = page
        let slot = Int(q - day * Int64(Self.perPage))
        present[2 * page + slot / 48] |= 1 << UInt64(slot % 48)
        return page * Self.perPage + slot
    }

    private mutating func prorate(start: Int64, end: Int64, value: Double, energy isEnergy: Bool) {
        guard end > start else {
            add(value, at: index(ofQuarter: floorDiv(start, Self.seconds)), energy: isEnergy)
            return
        }
        var q = floorDiv(start, Self.seconds)
        let duration = Double(end - start)
        while q * Self.seconds < end {
            let lo = max(start, q * Self.seconds)
            let hi = min(end, (q + 1) * Self.seconds)
            if hi > lo { add(value * Double(hi - lo) / duration, at: index(ofQuarter: q), energy: isEnergy) }
            q += 1
        }
    }

    @inline(__always)
    private mutating func add(_ value: Double, at i: Int, energy isEnergy: Bool) {
        if isEnergy { energy[i] += value } else { exercise[i] += value }
    }

    /// Adds everything in `other` (bucket by bucket, as if its samples had been added here).
    mutating func merge(_ other: RingQuarterHours) {
        if isEmpty {
            self = other  // 0 + x is x for every bucket (no bucket holds -0: it starts at +0)
            return
        }
        for (p, day) in other.pageDays.enumerated() {
            for slot in 0..<Self.perPage where other.isPresent(page: p, slot: slot) {
                let j = p * Self.perPage + slot
                let i = index(ofQuarter: day * Int64(Self.perPage) + Int64(slot))
                energy[i] += other.energy[j]
                exercise[i] += other.exercise[j]
                if !other.stand.isEmpty && other.stand[j] != 0 {
                    if stand.isEmpty { stand = Array(repeating: 0, count: pageDays.count * Self.perPage) }
                    stand[i] += other.stand[j]
                }
            }
        }
    }

    @inline(__always)
    private func isPresent(page: Int, slot: Int) -> Bool {
        present[2 * page + slot / 48] & (1 << UInt64(slot % 48)) != 0
    }

    /// The quarter-hour numbers (UTC seconds / 900) of every bucket that was added to, in order.
    var quarters: [Int64] {
        var out: [Int64] = []
        for p in pageDays.indices.sorted(by: { pageDays[$0] < pageDays[$1] }) {
            for slot in 0..<Self.perPage where isPresent(page: p, slot: slot) {
                out.append(pageDays[p] * Int64(Self.perPage) + Int64(slot))
            }
        }
        return out
    }

    /// Every bucket that was added to, by quarter-hour number (UTC seconds / 900), in order.
    var buckets: [(quarter: Int64, bucket: Bucket)] {
        var out: [(quarter: Int64, bucket: Bucket)] = []
        for p in pageDays.indices.sorted(by: { pageDays[$0] < pageDays[$1] }) {
            for slot in 0..<Self.perPage where isPresent(page: p, slot: slot) {
                let i = p * Self.perPage + slot
                out.append(
                    (
                        pageDays[p] * Int64(Self.perPage) + Int64(slot),
                        Bucket(
                            energyKcal: energy[i], exerciseMinutes: exercise[i],
                            standHours: stand.isEmpty ? 0 : Int(stand[i]))
                    ))
            }
        }
        return out
    }

    /// The ring values per local day of `calendar` (days since 1970), days with Watch data only.
    /// Each day sums its buckets in the order of their instants.
    func dailyValues(_ calendar: LocalCalendar) -> [Int: Bucket] {
        var days: [Int: Bucket] = [:]
        var day = Int.min
        var current = Bucket()
        for p in pageDays.indices.sorted(by: { pageDays[$0] < pageDays[$1] }) {
            let first = pageDays[p] * Int64(Self.perPage)
            for slot in 0..<Self.perPage where isPresent(page: p, slot: slot) {
                let d = calendar.dayNumber((first + Int64(slot)) * Self.seconds)
                if d != day {
                    if day != Int.min { days[day] = current }
                    day = d
                    current = days[d] ?? Bucket()
                }
                let i = p * Self.perPage + slot
                current.energyKcal += energy[i]
                current.exerciseMinutes += exercise[i]
                if !stand.isEmpty { current.standHours += Int(stand[i]) }
            }
        }
        if day != Int.min { days[day] = current }
        return days
    }
}

/// How well one way of cutting days matches the export's `ActivitySummary` rows.
struct RingAgreement: Sendable, Equatable {
    /// Days with a summary and ring records, and how many of them agree on every ring.
    var compared = 0
    var agreeing = 0
    /// Days with a summary but no ring records (not counted as disagreements).
    var summaryOnly = 0

    /// Compares per-day ring values with the summaries (keyed by day number), with the
    /// tolerances of reference §4.3: Move ±max(1 kcal, 1 %), exercise ±1 min, stand exact. A
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
            var ok = true
            var any = false
            if !s.isMoveTimeMode, let e = s.activeEnergyBurnedKcal {
                any = true
                if abs(v.energyKcal - e) > max(1, abs(e) * 0.01) + 1e-9 { ok = false }
            }
            if let x = s.appleExerciseTimeMinutes {
                any = true
                if abs(v.exerciseMinutes - x) > 1 + 1e-9 { ok = false }
            }
            if let h = s.appleStandHours {
                any = true
                if abs(Double(v.standHours) - h) > 1e-9 { ok = false }
            }
            guard any else { continue }
            a.compared += 1
            if ok { a.agreeing += 1 }
        }
        return a
    }
}

extension ActivitySummary {
    /// True when the summary carries any ring value above zero (a summary of zeros before the
    /// Watch was worn says nothing about the zone).
    var hasRingValues: Bool {
        (activeEnergyBurnedKcal ?? 0) > 0 || (appleExerciseTimeMinutes ?? 0) > 0 || (appleStandHours ?? 0) > 0
    }
}
