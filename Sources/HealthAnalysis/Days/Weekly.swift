import HealthExport

/// Weekly trends from local-day rows (docs/weeks.md).
///
/// * Weeks are ISO weeks (Monday start, `2025-W01`) or Sunday weeks (`week of 2025-01-05`),
///   built from local days, so a week can be 167 or 169 hours long.
/// * Totals sum the days' values; per-day averages divide by the days that have a value for
///   that metric ("days with data"; `days` is the week's coverage).
/// * A week is partial when it is not fully inside the complete days (`CompleteDays`, the rule
///   months share).
/// * Week-over-week change compares the per-day averages of two consecutive weeks, in percent;
///   nil when either week is partial, either has fewer than 4 days with data for the metric,
///   or the previous average is 0 (docs/weeks.md §4).
/// * The 4-week rolling steps/day is the mean over the days with step data of this week and the
///   three before it; nil when fewer than three weeks precede it in the series or fewer than 14
///   of those 28 days have step data.
/// * Rows may leave out runs of days without data (`KeptDays`): a week none of whose days is in
///   the rows is left out, and counts as a week without data in the comparisons of its
///   neighbours, so every week that is listed has the values it would have over every day.
struct WeeklyBuilder {
    var weekStart: WeekStart
    /// The first day of the series (its week is the series' first week), as days since 1970;
    /// the rows start on it or later.
    var seriesFirst: Int
    /// Ascending local days, not necessarily consecutive.
    var rows: [DailyMetrics]
    var rings: [RingsClosed]
    var hasData: [Bool]
    /// Which weeks are partial (docs/weeks.md §3).
    var complete: CompleteDays

    static let minimumDaysForChange = 4
    static let minimumDaysForRolling = 14

    /// Per-week helpers for the comparisons.
    private struct Coverage {
        var stepDays = 0
        var energyDays = 0
        var exerciseDays = 0
    }

    func build() -> [WeeklyMetrics] {
        guard !rows.isEmpty else { return [] }
        let seriesStart = weekStart.startOfWeek(containing: CivilDate(daysSince1970: seriesFirst)).daysSince1970
        var weeks: [WeeklyMetrics] = []
        var coverage: [Coverage] = []
        var i = 0
        while i < rows.count {
            let start = weekStart.startOfWeek(containing: rows[i].date).daysSince1970
            let first = CivilDate(daysSince1970: start)
            var w = WeeklyMetrics(week: weekStart.label(weekStarting: first), weekStart: first)
            var c = Coverage()
            var restingSum = 0.0
            var restingDays = 0
            var moveDays = 0
            var sleep = (sum: 0.0, nights: 0)
            var mass = (sum: 0.0, days: 0)
            while i < rows.count && rows[i].date.daysSince1970 < start + 7 {
                defer { i += 1 }
                let d = rows[i]
                if hasData[i] { w.days += 1 }
                Self.add(d.steps, to: &w.steps, count: &c.stepDays)
                var ignored = 0
                Self.add(d.distanceKm, to: &w.distanceKm, count: &ignored)
                Self.add(d.activeEnergyKcal, to: &w.activeEnergyKcal, count: &c.energyDays)
                Self.add(d.exerciseMinutes, to: &w.exerciseMinutes, count: &c.exerciseDays)
                if let s = d.standHours { w.standHours = (w.standHours ?? 0) + s }
                let r = rings[i]
                if r.move { w.moveRingClosedDays += 1 }
                if r.exercise { w.exerciseRingClosedDays += 1 }
                if r.stand { w.standRingClosedDays += 1 }
                if r.all { w.allRingsClosedDays += 1 }
                w.workouts += d.workouts
                w.workoutMinutes += d.workoutMinutes
                Self.add(d.moveKcal, to: &w.moveKcal, count: &moveDays)
                if let s = d.sleepMinutes { sleep = (sleep.sum + s, sleep.nights + 1) }
                if let m = d.bodyMassKg { mass = (mass.sum + m, mass.days + 1) }
                if let rhr = d.restingHeartRateBpm {
                    restingSum += rhr
                    restingDays += 1
                }
            }
            w.stepsPerDay = w.steps.map { $0 / Double(c.stepDays) }
            w.activeEnergyKcalPerDay = w.activeEnergyKcal.map { $0 / Double(c.energyDays) }
            w.exerciseMinutesPerDay = w.exerciseMinutes.map { $0 / Double(c.exerciseDays) }
            w.restingHeartRateAvgBpm = restingDays > 0 ? restingSum / Double(restingDays) : nil
            w.moveKcalPerDay = w.moveKcal.map { $0 / Double(moveDays) }
            w.sleepMinutesPerNight = sleep.nights > 0 ? sleep.sum / Double(sleep.nights) : nil
            w.bodyMassKg = mass.days > 0 ? mass.sum / Double(mass.days) : nil
            w.partial = complete.isPartial(first: start, last: start + 6)
            weeks.append(w)
            coverage.append(c)
        }
        for k in weeks.indices {
            let start = weeks[k].weekStart.daysSince1970
            // A left-out previous week has no data: no change.
            if k >= 1 && weeks[k - 1].weekStart.daysSince1970 == start - 7 {
                let (a, b) = (weeks[k - 1], weeks[k])
                let (ca, cb) = (coverage[k - 1], coverage[k])
                if !a.partial && !b.partial {
                    weeks[k].stepsChangePercent = Self.change(a.stepsPerDay, ca.stepDays, b.stepsPerDay, cb.stepDays)
                    weeks[k].activeEnergyChangePercent = Self.change(
                        a.activeEnergyKcalPerDay, ca.energyDays, b.activeEnergyKcalPerDay, cb.energyDays)
                    weeks[k].exerciseChangePercent = Self.change(
                        a.exerciseMinutesPerDay, ca.exerciseDays, b.exerciseMinutesPerDay, cb.exerciseDays)
                }
            }
            // This week and the three before it in the series; left-out weeks add nothing.
            if start - 21 >= seriesStart {
                var steps = 0.0
                var days = 0
                for j in max(0, k - 3)...k where weeks[j].weekStart.daysSince1970 >= start - 21 {
                    steps += weeks[j].steps ?? 0
                    days += coverage[j].stepDays
                }
                if days >= Self.minimumDaysForRolling { weeks[k].stepsPerDayRolling4Weeks = steps / Double(days) }
            }
        }
        return weeks
    }

    private static func add(_ value: Double?, to total: inout Double?, count: inout Int) {
        guard let value else { return }
        total = (total ?? 0) + value
        count += 1
    }

    /// (this − previous) / previous × 100 of per-day averages, or nil (see the type's comment).
    static func change(_ previous: Double?, _ previousDays: Int, _ current: Double?, _ currentDays: Int) -> Double? {
        guard let previous, let current, previousDays >= minimumDaysForChange, currentDays >= minimumDaysForChange,
            previous != 0
        else { return nil }
        return (current - previous) / previous * 100
    }
}
