import HealthExport

/// Calendar months from the reported local-day rows: totals sum the days, per-day values are
/// means over the days with a value for that measure, and a month not fully inside the complete
/// days is partial (`CompleteDays`, docs/weeks.md §3, the rule weeks use).
struct MonthlyBuilder {
    var rows: [DailyMetrics]
    var rings: [RingsClosed]
    /// Per row: whether the day has data, as the weeks count it (`DailyColumns.metrics`: any
    /// measure, workout or ActivitySummary), so that a month's `days` and its weeks' agree.
    var hasData: [Bool]
    var workouts: [WorkoutRow]
    /// Which months are partial; nil: the rows' first to last day (for tests of the sums).
    var complete: CompleteDays? = nil

    func build() -> [MonthlyMetrics] {
        guard let first = rows.first?.date, let last = rows.last?.date else { return [] }
        var months: [MonthlyMetrics] = []
        var index: [String: Int] = [:]
        struct Sums {
            var values: [String: (sum: Double, count: Int)] = [:]
            mutating func add(_ key: String, _ v: Double?) {
                guard let v else { return }
                values[key, default: (0, 0)].sum += v
                values[key, default: (0, 0)].count += 1
            }
            func mean(_ key: String) -> Double? { values[key].map { $0.sum / Double($0.count) } }
            func total(_ key: String) -> Double? { values[key]?.sum }
        }
        var sums: [Sums] = []
        func label(_ d: CivilDate) -> String { String(d.description.prefix(7)) }
        for (i, d) in rows.enumerated() {
            let key = label(d.date)
            if index[key] == nil {
                index[key] = months.count
                months.append(MonthlyMetrics(month: key))
                sums.append(Sums())
            }
            let k = index[key]!
            if hasData[i] { months[k].days += 1 }
            sums[k].add("steps", d.steps)
            sums[k].add("distance", d.distanceKm)
            sums[k].add("active", d.activeEnergyKcal)
            sums[k].add("move", d.moveKcal)
            sums[k].add("exercise", d.exerciseMinutes)
            sums[k].add("stand", d.standHours.map(Double.init))
            sums[k].add("resting", d.restingHeartRateBpm)
            sums[k].add("hrv", d.hrvSdnnMs)
            sums[k].add("sleep", d.sleepMinutes)
            sums[k].add("mass", d.bodyMassKg)
            sums[k].add("vo2", d.vo2MaxMlPerMinKg)
            sums[k].add("oxygen", d.oxygenSaturationPercent)
            sums[k].add("respiratory", d.respiratoryRateBreathsPerMin)
            sums[k].add("wrist", d.wristTemperatureC)
            sums[k].add("systolic", d.bloodPressureSystolicMmHg)
            sums[k].add("diastolic", d.bloodPressureDiastolicMmHg)
            let r = rings[i]
            if r.move { months[k].moveRingClosedDays += 1 }
            if r.exercise { months[k].exerciseRingClosedDays += 1 }
            if r.stand { months[k].standRingClosedDays += 1 }
            if r.all { months[k].allRingsClosedDays += 1 }
            months[k].workouts += d.workouts
            months[k].workoutMinutes += d.workoutMinutes
        }
        for w in workouts where !w.isDuplicate {
            let day = Int(floorDiv(w.start.secondsSince1970 + Int64(w.start.utcOffsetSeconds), 86_400))
            if let k = index[label(CivilDate(daysSince1970: day))] {
                months[k].workoutsByActivity[w.activity, default: 0] += 1
            }
        }
        for k in months.indices {
            let s = sums[k]
            months[k].steps = s.total("steps")
            months[k].stepsPerDay = s.mean("steps")
            months[k].distanceKm = s.total("distance")
            months[k].activeEnergyKcalPerDay = s.mean("active")
            months[k].moveKcalPerDay = s.mean("move")
            months[k].exerciseMinutesPerDay = s.mean("exercise")
            months[k].standHoursPerDay = s.mean("stand")
            months[k].restingHeartRateAvgBpm = s.mean("resting")
            months[k].hrvSdnnAvgMs = s.mean("hrv")
            months[k].sleepMinutesPerNight = s.mean("sleep")
            months[k].bodyMassKg = s.mean("mass")
            months[k].vo2MaxMlPerMinKg = s.mean("vo2")
            months[k].oxygenSaturationPercent = s.mean("oxygen")
            months[k].respiratoryRateBreathsPerMin = s.mean("respiratory")
            months[k].wristTemperatureC = s.mean("wrist")
            months[k].bloodPressureSystolicMmHg = s.mean("systolic")
            months[k].bloodPressureDiastolicMmHg = s.mean("diastolic")
        }
        // Partial: the month's first or last day is outside the complete days.
        let complete = self.complete ?? CompleteDays(first: first.daysSince1970, last: last.daysSince1970)
        for k in months.indices {
            let parts = months[k].month.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 2 else { continue }
            let start = CivilDate(year: parts[0], month: parts[1], day: 1).daysSince1970
            let next =
                parts[1] == 12
                ? CivilDate(year: parts[0] + 1, month: 1, day: 1)
                : CivilDate(year: parts[0], month: parts[1] + 1, day: 1)
            months[k].partial = complete.isPartial(first: start, last: next.daysSince1970 - 1)
        }
        return months
    }
}
