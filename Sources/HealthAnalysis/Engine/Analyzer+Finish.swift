import Foundation
import HealthExport

extension Analyzer {
    /// Names the local days on which the reader rejected records and nothing else was recorded:
    /// their empty cells are rejected input, not "no data". `hasData` is per day of
    /// `kept`; a day that is not kept has no data.
    static func noteDaysOfRejectedRecords(
        _ starts: [Int64], calendar: LocalCalendar, kept: KeptDays, hasData: [Bool], notes: inout [AnalysisNote]
    ) {
        let days = Set(starts.map { calendar.dayNumber($0) }).filter { day in
            guard let i = kept.index(day) else { return true }
            return !hasData[i]
        }.sorted()
        guard !days.isEmpty else { return }
        let shown = days.prefix(10).map { CivilDate(daysSince1970: $0).description }.joined(separator: ", ")
        notes.append(
            .info(
                "Every record of \(counted(days.count, "day")) was rejected (see the diagnostics): \(shown)"
                    + (days.count > 10 ? ", …" : "") + ". Their empty cells mean rejected records, not \"no data\"."))
    }

    /// Buckets everything consumed into local days of the chosen zone and computes the result.
    /// Call once, after the last batch.
    ///
    /// The zones come from a `ZoneTimeline` (docs/days-and-time-zones.md §5): `options.timeZoneIdentifier`
    /// for everything if set; else periods decided from the `HKTimeZone` values with their
    /// instants (a change takes effect at the new zone's local midnight, see `ZoneTimeline`);
    /// without any, the IANA zones with the printed offset of `exportDate` at the export instant,
    /// scored by `ActivitySummary` agreement and HRV beat times, split into periods where no one
    /// zone fits all the days (§6.1); `environmentTimeZone` (the
    /// machine's `TZ`) only when the export cannot tell its candidates apart; else the fixed
    /// printed offset, with a warning in `notes`.
    ///
    /// The stages, in order: the zone timeline over `coveredInstants`, the `reportWindow`, the
    /// domains' parts and finishes, the `dailyRows`, the rollups (`rollUp`: weeks, months), and
    /// the cross-check against the ActivitySummary (`checkAgainstSummaries`).
    ///
    /// - Parameters:
    ///   - exportDate: the `ExportDate` value: "now" for partial days and weeks.
    ///   - timeZoneCounts: how many samples carried each `HKTimeZone` value; used only when the
    ///     analyzer saw no `HKTimeZone` itself (records built without metadata).
    ///   - environmentTimeZone: the machine's zone identifier, if known: used only when nothing in
    ///     the export tells the candidate zones apart, with a warning (docs/days-and-time-zones.md §6).
    ///   - locale: the export's `HealthData locale` (`de_DE`): its region breaks ties between
    ///     zones that fit the export equally well.
    ///   - rejectedRecordStarts: start instants of records the reader skipped for their value or
    ///     unit (`ExportSummary.rejectedRecordStarts`); days without other data among them are
    ///     named in a note, so that their empty cells are not read as "no data".
    ///   - earlierExportDates: in an archive, the other exports' `ExportDate` values: without
    ///     `HKTimeZone`, each one's printed offset must be the offset in force when it was made
    ///     (docs/days-and-time-zones.md §6.1).
    /// - Throws: `AnalysisError` for an invalid `--tz` or an empty `--from`/`--to` range; the
    ///   scratch space's error when spilling cumulative samples or reading them back failed.
    /// - Complexity: O(n log n) in the number of stored cumulative samples; memory bounded by
    ///   the sample buffer (see `init(options:scratch:sampleBufferLimit:)`). Per-day state and
    ///   rows cost O(days with data × 32), whatever the span of the dates: runs of more than 31
    ///   days without data are left out of the rows (`KeptDays`), and cumulative samples longer
    ///   than 31 days are dropped (`CumulativeTypes.maxDurationSeconds`), both with a note.
    public func finish(
        exportDate: Timestamp?, timeZoneCounts: [String: Int], environmentTimeZone: String?,
        locale: String? = nil, rejectedRecordStarts: [Int64] = [], earlierExportDates: [Timestamp] = []
    ) throws -> AnalysisResult {
        try options.validate()
        markFinished()
        var notes: [AnalysisNote] = []
        let priority = SourcePriority(sources: context.sources.facts, preferred: options.sourceOrder)
        for name in priority.unmatchedNames {
            notes.append(.info("--source-order: no source is named \"\(name)\"; ignored."))
        }

        let covered = coveredInstants(exportDate: exportDate, rejectedRecordStarts: rejectedRecordStarts)
        let timeline = makeZoneTimeline(
            priority: priority, exportDate: exportDate, environmentTimeZone: environmentTimeZone, range: covered,
            timeZoneCounts: timeZoneCounts, locale: locale, earlierExportDates: earlierExportDates)
        notes.append(contentsOf: timeline.notes.map(\.note))
        let calendar = timeline.calendar(covering: covered)
        let current = timeline.periods[timeline.periods.count - 1]

        var result = AnalysisResult(
            timeZone: TimeZoneChoice(identifier: current.identifier, reason: current.reason),
            weekStart: options.weekStart, deduplicated: options.deduplicate, sourceOrder: priority.rankedSources,
            exportDate: exportDate)
        // Without reported days (no data, an empty window), the periods carry no dates.
        result.timeZonePeriods = timeline.periods.map {
            TimeZonePeriod(identifier: $0.identifier, reason: $0.reason, change: $0.change, instant: $0.instant)
        }
        guard let window = reportWindow(calendar: calendar, exportDate: exportDate, result: &result, notes: &notes)
        else {
            result.notes = notes
            return result
        }
        let report = window.report

        var finishing = FinishContext(
            options: options, calendar: calendar, priority: priority, days: window.span, report: report,
            daily: DailyColumns(), result: result, notes: notes)
        finishing.threads = mergedAnalyzers
        // The domains' independent parts at once (the costliest first), then every finish in order.
        let partsByDomain = domains.map { $0.boxedFinishParts(finishing) }
        let all = partsByDomain.flatMap { $0 }
        let outcomes = try ParallelWork.map(
            count: all.count, order: all.indices.sorted { all[$0].cost > all[$1].cost }, threads: mergedAnalyzers
        ) { try all[$0].run() }
        var next = 0
        for (domain, domainParts) in zip(domains, partsByDomain) {
            try domain.finish(&finishing, boxed: Array(outcomes[next..<next + domainParts.count]))
            next += domainParts.count
        }
        let summaries = finishing.summaries
        result = finishing.result
        notes = finishing.notes
        appendDropNotes(&notes)

        let rows = dailyRows(
            finishing.daily, summaries: summaries, window: window, timeline: timeline, calendar: calendar,
            rejectedRecordStarts: rejectedRecordStarts, notes: &notes)
        let reported = rows.within(report)
        // `--week last` whose week has no data is refused like an empty window (docs/weeks.md §7):
        // a cron job keeps last week's report instead of one saying "no data".
        if options.lastCompleteWeekOnly, !reported.hasData.contains(true) {
            let week = EmptyWindow(
                from: options.from, to: options.to, lastCompleteWeek: true,
                dataFirstDay: CivilDate(daysSince1970: window.data.lowerBound),
                dataLastDay: CivilDate(daysSince1970: window.data.upperBound),
                week: CivilDate(daysSince1970: report.lowerBound)...CivilDate(daysSince1970: report.upperBound))
            result.emptyWindow = week
            notes.append(.warning(week.description + "."))
            result.notes = notes
            return result
        }
        result.trends = Self.trends(
            finishing.daily, summaries: summaries, end: report.upperBound, historyFirst: window.data.lowerBound)
        rollUp(rows, reported: reported, window: window, into: &result)
        result.timeZonePeriods = Self.reportedPeriods(timeline, report: report)
        checkAgainstSummaries(
            reported.metrics, summaries: summaries, timeline: timeline, priority: priority, covered: covered,
            window: window, result: &result, notes: &notes)
        result.notes = notes
        return result
    }

    /// The days of `finish`, as local day numbers (days since 1970).
    struct ReportWindow {
        /// The first and last day with data.
        var data: ClosedRange<Int>
        /// The days `--from` and `--to` ask for, within `data`.
        var window: ClosedRange<Int>
        /// The days reported: `window`, or the one week of `--week last`.
        var report: ClosedRange<Int>
        /// The complete days, for partial weeks and months (`CompleteDays`, docs/weeks.md §3):
        /// from the window's first day to the reported period's last day, the export's own day
        /// and later left out.
        var complete: CompleteDays

        /// The days with rows: the window and the reported week (which can reach past the last
        /// data day when the export was made a few days after it). Weeks need the days before
        /// the reported range too.
        var rows: ClosedRange<Int> {
            min(window.lowerBound, report.lowerBound)...max(window.upperBound, report.upperBound)
        }

        /// The days the computation covers: the rows and every day with data. Nothing is
        /// allocated per day of it: the columns hold the days with data only.
        var span: ClosedRange<Int> { min(rows.lowerBound, data.lowerBound)...max(rows.upperBound, data.upperBound) }
    }

    /// The rows of `finish`, each with the rings it closed and whether it has any data.
    struct DailyRows {
        var metrics: [DailyMetrics] = []
        var rings: [RingsClosed] = []
        var hasData: [Bool] = []

        /// The rows of the days in `days`, in the same order.
        func within(_ days: ClosedRange<Int>) -> DailyRows {
            let kept = metrics.indices.filter { days.contains(metrics[$0].date.daysSince1970) }
            return DailyRows(
                metrics: kept.map { metrics[$0] }, rings: kept.map { rings[$0] }, hasData: kept.map { hasData[$0] })
        }
    }

    /// The instants the zone timeline covers: every instant `finish` looks at (the records, the
    /// export instant, the rejected records' starts), with 3 days' margin for the day ends.
    private func coveredInstants(exportDate: Timestamp?, rejectedRecordStarts: [Int64]) -> ClosedRange<Int64> {
        let margin: Int64 = 3 * 86_400
        var low = context.firstInstant
        var high = context.lastInstant
        if let e = exportDate?.secondsSince1970 {
            low = min(low, e)
            high = max(high, e)
        }
        if let first = rejectedRecordStarts.min(), let last = rejectedRecordStarts.max(), low <= high {
            low = min(low, first)
            high = max(high, last)
        }
        return low <= high ? (low - margin)...(high + margin) : 0...margin
    }

    /// The report window: the days with data, the window the options ask for, and the days
    /// reported in it (the last complete week for `--week last`). Nil when nothing is reported:
    /// the export has no data (a note says so, after the dropped samples' notes), or none in
    /// the window (`result.emptyWindow` is set, and a warning says where the data is).
    private func reportWindow(
        calendar: LocalCalendar, exportDate: Timestamp?, result: inout AnalysisResult, notes: inout [AnalysisNote]
    ) -> ReportWindow? {
        var firstDay = Int.max
        var lastDay = Int.min
        if context.firstInstant <= context.lastInstant {
            firstDay = calendar.dayNumber(context.firstInstant)
            lastDay = calendar.dayNumber(context.lastInstant)
        }
        for extent in domains.compactMap(\.calendarDayExtent) {
            firstDay = min(firstDay, extent.lowerBound)
            lastDay = max(lastDay, extent.upperBound)
        }
        guard firstDay <= lastDay else {
            notes.append(
                .info(
                    "No activity data found (no steps, energy, exercise, stand, heart-rate, workout or ActivitySummary records)."
                ))
            appendDropNotes(&notes)
            return nil
        }
        let dataRange =
            "the export has data from \(CivilDate(daysSince1970: firstDay)) to \(CivilDate(daysSince1970: lastDay))"

        // The window the options ask for, and the last day before the export's own (the last
        // complete week of --week last ends on it or before).
        let exportDay = exportDate.map { calendar.dayNumber($0.secondsSince1970) }
        let windowFirst = max(firstDay, options.from?.daysSince1970 ?? .min)
        let windowLast = min(lastDay, options.to?.daysSince1970 ?? .max)
        let completeLast = min((exportDay.map { $0 - 1 }) ?? lastDay, options.to?.daysSince1970 ?? .max)
        guard windowFirst <= windowLast else {
            result.emptyWindow = EmptyWindow(
                from: options.from, to: options.to, lastCompleteWeek: false,
                dataFirstDay: CivilDate(daysSince1970: firstDay), dataLastDay: CivilDate(daysSince1970: lastDay))
            notes.append(
                .warning(
                    "no data between \(options.from.map(\.description) ?? "the start") and "
                        + "\(options.to.map(\.description) ?? "the end"): \(dataRange)."))
            return nil
        }
        var report = windowFirst...windowLast
        if options.lastCompleteWeekOnly {
            var start = options.weekStart.startOfWeek(containing: CivilDate(daysSince1970: completeLast)).daysSince1970
            if start + 6 > completeLast { start -= 7 }
            guard start >= windowFirst else {
                result.emptyWindow = EmptyWindow(
                    from: options.from, to: options.to, lastCompleteWeek: true,
                    dataFirstDay: CivilDate(daysSince1970: firstDay), dataLastDay: CivilDate(daysSince1970: lastDay))
                notes.append(.warning("--week last: no complete week with data (\(dataRange))."))
                return nil
            }
            report = start...(start + 6)
        }
        // The weeks before a reported week keep their days (the change against the previous
        // week needs them); the days after the period's last day are not complete.
        return ReportWindow(
            data: firstDay...lastDay, window: windowFirst...windowLast, report: report,
            complete: CompleteDays(first: windowFirst, last: min(completeLast, report.upperBound)))
    }

    /// The daily rows: one per day of `window.rows`, in the zone in force that day, except runs of
    /// more than 31 days without data (`KeptDays`): only the days with data are computed first,
    /// the short runs between them are then filled with empty rows. Notes the left-out runs in
    /// the report and the days whose every record was rejected.
    private func dailyRows(
        _ daily: DailyColumns, summaries: [CivilDate: ActivitySummary], window: ReportWindow, timeline: ZoneTimeline,
        calendar: LocalCalendar, rejectedRecordStarts: [Int64], notes: inout [AnalysisNote]
    ) -> DailyRows {
        let rowRange = window.rows
        // The anchors' rows are not kept: they are computed again below (a row is about 500 bytes,
        // a dictionary of them grew with the days; `day` is a pure function of the columns).
        var anchors: [Int] = []
        let summaryDays = summaries.keys.map(\.daysSince1970).filter { rowRange.contains($0) }
        for day in Set(daily.dataDays(in: rowRange) + summaryDays) {
            let d = daily.day(day, summary: summaries[CivilDate(daysSince1970: day)])
            if d.hasData || d.metrics != DailyMetrics(date: d.metrics.date) { anchors.append(day) }
        }
        // The one week of `--week last` is listed whatever it holds.
        if options.lastCompleteWeekOnly { anchors.append(contentsOf: window.report) }
        let kept = KeptDays(range: rowRange, anchors: anchors)
        var rows = DailyRows()
        rows.metrics.reserveCapacity(kept.days.count)
        for day in kept.days {
            var d = daily.day(day, summary: summaries[CivilDate(daysSince1970: day)])
            d.metrics.timeZone = timeline.periods[timeline.periodIndex(day: day)].identifier
            rows.metrics.append(d.metrics)
            rows.rings.append(d.rings)
            rows.hasData.append(d.hasData)
        }
        notes.append(contentsOf: kept.gapNotes(report: window.report))
        Self.noteDaysOfRejectedRecords(
            rejectedRecordStarts, calendar: calendar, kept: kept, hasData: rows.hasData, notes: &notes)
        return rows
    }

    /// The trends at `end` (docs/trends.md), each with its direction a week before
    /// (docs/trends.md §4): the rows of the 365 days up to `end` and of the week before them are
    /// computed from the columns, which hold every day of the input, so that a window's trends
    /// use the days before it too.
    static func trends(
        _ daily: DailyColumns, summaries: [CivilDate: ActivitySummary], end: Int, historyFirst: Int
    ) -> Trends {
        let range = (end - Trends.yearWindowDays - Trends.previousWeekDays + 1)...end
        let summaryDays = summaries.keys.map(\.daysSince1970).filter { range.contains($0) }
        var rows: [DailyMetrics] = []
        var standMinutes: [CivilDate: Double] = [:]
        var speeds: [TrendMetric: [CivilDate: Double]] = [:]
        for day in Set(daily.dataDays(in: range) + summaryDays).sorted() {
            let d = daily.day(day, summary: summaries[CivilDate(daysSince1970: day)])
            rows.append(d.metrics)
            if let m = d.standMinutes { standMinutes[d.metrics.date] = m }
            if let v = d.walkingSpeedKmh { speeds[.walkingSpeed, default: [:]][d.metrics.date] = v }
            if let v = d.runningSpeedKmh { speeds[.runningSpeed, default: [:]][d.metrics.date] = v }
        }
        let now = Trends.compute(
            rows: rows, standMinutes: standMinutes, speeds: speeds, end: CivilDate(daysSince1970: end),
            historyFirst: CivilDate(daysSince1970: min(historyFirst, end)))
        let before = end - Trends.previousWeekDays
        let previous = Trends.compute(
            rows: rows, standMinutes: standMinutes, speeds: speeds, end: CivilDate(daysSince1970: before),
            historyFirst: CivilDate(daysSince1970: min(historyFirst, before)))
        return now.withPreviousDirections(from: previous)
    }

    /// The rollups: the reported days, the weeks that overlap them (each with its workouts by
    /// activity), the calendar months, and the longest run of days with all rings closed. The
    /// weeks are built from every row, the days before the reported ones included.
    private func rollUp(
        _ rows: DailyRows, reported: DailyRows, window: ReportWindow, into result: inout AnalysisResult
    ) {
        let weeks = WeeklyBuilder(
            weekStart: options.weekStart, seriesFirst: window.rows.lowerBound, rows: rows.metrics, rings: rows.rings,
            hasData: rows.hasData, complete: window.complete
        ).build()
        let report = window.report
        result.firstDay = CivilDate(daysSince1970: report.lowerBound)
        result.lastDay = CivilDate(daysSince1970: report.upperBound)
        result.days = reported.metrics
        result.weeks = weeks.filter { w in
            let s = w.weekStart.daysSince1970
            return s + 6 >= report.lowerBound && s <= report.upperBound
        }
        // Workouts by activity, counted once, by the local day of their start.
        for w in result.workouts where !w.isDuplicate {
            let day = Int(floorDiv(w.start.secondsSince1970 + Int64(w.start.utcOffsetSeconds), 86_400))
            if let k = result.weeks.firstIndex(where: { (0..<7).contains(day - $0.weekStart.daysSince1970) }) {
                result.weeks[k].workoutsByActivity[w.activity, default: 0] += 1
            }
        }
        result.months = MonthlyBuilder(
            rows: reported.metrics, rings: reported.rings, hasData: reported.hasData, workouts: result.workouts,
            complete: window.complete
        ).build()
        result.longestAllRingsStreak = Self.longestStreak(reported.metrics, rings: reported.rings)
    }

    /// The cross-check against the ActivitySummary: the reported rows compared with the days'
    /// summaries (docs/rings.md §4), which source each ring's days came from and how well they
    /// agree, and a warning when the rings disagree on more than 5 % of the days compared.
    private func checkAgainstSummaries(
        _ reported: [DailyMetrics], summaries: [CivilDate: ActivitySummary], timeline: ZoneTimeline,
        priority: SourcePriority, covered: ClosedRange<Int64>, window: ReportWindow, result: inout AnalysisResult,
        notes: inout [AnalysisNote]
    ) {
        result.crossCheck = Self.crossCheck(reported, summaries: summaries)
        result.ringSources = Self.ringSources(reported, check: result.crossCheck, summaries: summaries)
        if let warning = agreementWarning(
            result.crossCheck, timeline: timeline, priority: priority, covered: covered,
            reportedDays: window.report, lastDataDay: window.data.upperBound)
        {
            notes.append(warning)
        }
    }

    private func appendDropNotes(_ notes: inout [AnalysisNote]) {
        let c = context.counters
        func at(_ line: Int) -> String { line > 0 ? " (first at line \(line))" : "" }
        if c.negativeValue > 0 {
            notes.append(
                .info("Dropped \(counted(c.negativeValue, "sample")) with a negative value\(at(c.negativeValueLine))."))
        }
        if c.endBeforeStart > 0 {
            notes.append(
                .info(
                    "Dropped \(counted(c.endBeforeStart, "sample")) that \(c.endBeforeStart == 1 ? "ends" : "end") before \(c.endBeforeStart == 1 ? "it starts" : "they start")\(at(c.endBeforeStartLine))."
                ))
        }
        if c.unexpectedUnit > 0 {
            notes.append(
                .info(
                    "Dropped \(counted(c.unexpectedUnit, "sample")) without a value in the unit their type needs\(at(c.unexpectedUnitLine))."
                ))
        }
        if c.outOfRange > 0 {
            notes.append(.info("Dropped \(counted(c.outOfRange, "sample")) dated before 1970 or after 2106."))
        }
        if c.tooLong > 0 {
            notes.append(
                .info("Dropped \(counted(c.tooLong, "cumulative sample")) longer than 31 days\(at(c.tooLongLine))."))
        }
        notes += c.implausible.notes
        if c.tooManySources > 0 {
            notes.append(.info("Dropped \(counted(c.tooManySources, "sample")) of sources beyond the first 65,536."))
        }
    }

    // MARK: Streak

    /// The longest run of consecutive days with all three rings closed; a day missing from `rows`
    /// (a left-out run without data, `KeptDays`) ends a run.
    static func longestStreak(_ rows: [DailyMetrics], rings: [RingsClosed]) -> RingStreak {
        var best = RingStreak()
        var run = 0
        var runFirst: CivilDate?
        var previous = Int.min
        for (row, ring) in zip(rows, rings) {
            if row.date.daysSince1970 != previous &+ 1 { run = 0 }
            previous = row.date.daysSince1970
            if ring.all {
                if run == 0 { runFirst = row.date }
                run += 1
                if run > best.days { best = RingStreak(days: run, first: runFirst, last: row.date) }
            } else {
                run = 0
            }
        }
        return best
    }
}
