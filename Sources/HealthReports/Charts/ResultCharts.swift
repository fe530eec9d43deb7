import HealthAnalysis
import HealthExport

// The chart inputs of one analysis result: days, weeks and nights of the report window.

extension ReportWriter {
    /// The SVG charts written beside `report.md` (only those with data).
    func charts(_ result: AnalysisResult) -> [ChartFile] {
        ReportCharts.all(Self.chartInputs(result))
    }

    static func chartInputs(_ result: AnalysisResult) -> ChartInputs {
        var input = ChartInputs()
        input.days = result.days.indices.map { i in
            let d = result.days[i]
            return .init(
                date: d.date.description, steps: d.steps, restingHeartRateBpm: d.restingHeartRateBpm,
                hrvMs: d.hrvSdnnMs,
                gapBefore: i > 0
                    && d.date.daysSince1970 - result.days[i - 1].date.daysSince1970 - 1
                        > AnalysisResult.longestListedRunWithoutData
            )
        }
        // Workouts counted once, by the week of their local start date.
        var byWeek: [Int: [String: Int]] = [:]
        for w in result.workouts where !w.isDuplicate {
            let day = Int(floorDivide(w.start.secondsSince1970 + Int64(w.start.utcOffsetSeconds), 86_400))
            guard let k = result.weeks.firstIndex(where: { (0..<7).contains(day - $0.weekStart.daysSince1970) }) else {
                continue
            }
            byWeek[k, default: [:]][w.activity, default: 0] += 1
        }
        input.weeks = result.weeks.enumerated().map { k, w in
            .init(
                label: w.week, start: w.weekStart.description, days: w.days, moveClosedDays: w.moveRingClosedDays,
                exerciseClosedDays: w.exerciseRingClosedDays, standClosedDays: w.standRingClosedDays,
                workoutsByActivity: byWeek[k] ?? [:])
        }
        input.weekStartsOnSunday = result.weekStart == .sunday
        if let first = result.firstDay, let last = result.lastDay {
            input.months = result.months.compactMap { m in
                guard let start = CivilDate(m.month + "-01") else { return nil }
                let next = CivilDate(
                    year: start.month == 12 ? start.year + 1 : start.year, month: start.month % 12 + 1, day: 1)
                let a = max(start.daysSince1970, first.daysSince1970)
                let b = min(next.daysSince1970 - 1, last.daysSince1970)
                guard a <= b else { return nil }
                return .init(
                    month: m.month, first: CivilDate(daysSince1970: a).description,
                    last: CivilDate(daysSince1970: b).description, moveClosedDays: m.moveRingClosedDays,
                    exerciseClosedDays: m.exerciseRingClosedDays, standClosedDays: m.standRingClosedDays,
                    workoutsByActivity: m.workoutsByActivity)
            }
        }
        input.nights = result.sleep.filter { !$0.isNap && $0.asleepMinutes != nil }.map {
            .init(
                night: $0.night.description, coreMinutes: $0.coreMinutes, deepMinutes: $0.deepMinutes,
                remMinutes: $0.remMinutes, unspecifiedMinutes: $0.unspecifiedMinutes)
        }
        let profile = result.standHourProfile
        if !profile.isEmpty {
            input.standHourPercent = (0..<24).map { h -> Double? in
                guard let e = profile.first(where: { $0.hour == h }), e.daysWithRecord > 0 else { return nil }
                return Double(e.stoodDays) / Double(e.daysWithRecord) * 100
            }
        }
        return input
    }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
