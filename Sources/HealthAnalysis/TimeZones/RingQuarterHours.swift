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
    private(set) var buckets: [Int64: Bucket] = [:]

    init() {}

    var isEmpty: Bool { buckets.isEmpty }

    /// Adds a Watch active-energy sample over `[start, end)`, prorated into buckets.
    mutating func addEnergy(start: Int64, end: Int64, kcal: Double) {
        prorate(start: start, end: end, value: kcal) { $0.energyKcal += $1 }
    }

    /// Adds a Watch exercise-time sample over `[start, end)`, prorated into buckets.
    mutating func addExercise(start: Int64, end: Int64, minutes: Double) {
        prorate(start: start, end: end, value: minutes) { $0.exerciseMinutes += $1 }
    }

    /// Adds one stood stand hour starting at `start` (count each hour once, across Watches).
    mutating func addStoodHour(start: Int64) {
        buckets[floorDiv(start, Self.seconds), default: Bucket()].standHours += 1
    }

    private mutating func prorate(
        start: Int64, end: Int64, value: Double, _ add: (inout Bucket, Double) -> Void
    ) {
        guard end > start else {
            add(&buckets[floorDiv(start, Self.seconds), default: Bucket()], value)
            return
        }
        var q = floorDiv(start, Self.seconds)
        let duration = Double(end - start)
        while q * Self.seconds < end {
            let lo = max(start, q * Self.seconds)
            let hi = min(end, (q + 1) * Self.seconds)
            if hi > lo { add(&buckets[q, default: Bucket()], value * Double(hi - lo) / duration) }
            q += 1
        }
    }

    /// Adds everything in `other`.
    mutating func merge(_ other: RingQuarterHours) {
        for (q, b) in other.buckets {
            buckets[q, default: Bucket()].energyKcal += b.energyKcal
            buckets[q, default: Bucket()].exerciseMinutes += b.exerciseMinutes
            buckets[q, default: Bucket()].standHours += b.standHours
        }
    }

    /// The ring values per local day of `calendar` (days since 1970), days with Watch data only.
    func dailyValues(_ calendar: LocalCalendar) -> [Int: Bucket] {
        var days: [Int: Bucket] = [:]
        for (q, b) in buckets {
            let d = calendar.dayNumber(q * Self.seconds)
            days[d, default: Bucket()].energyKcal += b.energyKcal
            days[d, default: Bucket()].exerciseMinutes += b.exerciseMinutes
            days[d, default: Bucket()].standHours += b.standHours
        }
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
