import Foundation
import HealthExport

extension Analyzer {
    /// Names the local days on which the reader rejected records and nothing else was recorded:
    /// their empty cells are rejected input, not "no data" (issue 10). `hasData` is per day of
    /// `kept`; a day that is not kept has no data.
    static func noteDaysOfRejectedRecords(
        _ starts: [Int64], calendar: LocalCalendar, kept: KeptDays, hasData: [Bool], notes: inout [String]
    ) {
        let days = Set(starts.map { calendar.dayNumber($0) }).filter { day in
            guard let i = kept.index(day) else { return true }
            return !hasData[i]
        }.sorted()
        guard !days.isEmpty else { return }
        let shown = days.prefix(10).map { CivilDate(daysSince1970: $0).description }.joined(separator: ", ")
        notes.append(
            "Every record of \(days.count) day(s) was rejected (see the diagnostics): \(shown)"
                + (days.count > 10 ? ", …" : "") + ". Their empty cells mean rejected records, not \"no data\".")
    }

    /// Buckets everything consumed into local days of the chosen zone and computes the result.
    /// Call once, after the last batch.
    ///
    /// The zones come from a `ZoneTimeline` (reference §2.7.1): `options.timeZoneIdentifier`
    /// for everything if set; else periods decided from the `HKTimeZone` values with their
    /// instants (a change takes effect at the new zone's local midnight, see `ZoneTimeline`);
    /// without any, the IANA zones with the printed offset of `exportDate` at the export instant,
    /// scored by `ActivitySummary` agreement and HRV beat times; `environmentTimeZone` (the
    /// machine's `TZ`) only when the export cannot tell its candidates apart; else the fixed
    /// printed offset, with a warning in `notes`.
    ///
    /// - Parameters:
    ///   - exportDate: the `ExportDate` value: "now" for partial days and weeks.
    ///   - timeZoneCounts: how many samples carried each `HKTimeZone` value; used only when the
    ///     analyzer saw no `HKTimeZone` itself (records built without metadata).
    ///   - environmentTimeZone: the machine's zone identifier, if known.
    ///   - rejectedRecordStarts: start instants of records the reader skipped for their value or
    ///     unit (`ExportSummary.rejectedRecordStarts`); days without other data among them are
    ///     named in a note, so that their empty cells are not read as "no data" (issue 10).
    /// - Throws: `AnalysisError` for an invalid `--tz` or an empty `--from`/`--to` range; the
    ///   scratch space's error when spilling cumulative samples or reading them back failed.
    /// - Complexity: O(n log n) in the number of stored cumulative samples; memory bounded by
    ///   the sample buffer (see `init(options:scratch:sampleBufferLimit:)`). Per-day state and
    ///   rows cost O(days with data × 32), whatever the span of the dates: runs of more than 31
    ///   days without data are left out of the rows (`KeptDays`), and cumulative samples longer
    ///   than 31 days are dropped (`CumulativeTypes.maxDurationSeconds`), both with a note.
    public func finish(
        exportDate: Timestamp?, timeZoneCounts: [String: Int], environmentTimeZone: String?,
        rejectedRecordStarts: [Int64] = []
    ) throws -> AnalysisResult {
        try options.validate()
        markFinished()
        var notes: [String] = []
        let priority = SourcePriority(sources: context.sources.facts, preferred: options.sourceOrder)
        for name in priority.unmatchedNames {
            notes.append("--source-order: no source is named \"\(name)\"; ignored.")
        }

        // The zone table covers every instant we will look at, with margin for day ends.
        let margin: Int64 = 3 * 86_400
        let firstInstant = context.firstInstant
        let lastInstant = context.lastInstant
        var low = firstInstant
        var high = lastInstant
        if let e = exportDate?.secondsSince1970 {
            low = min(low, e)
            high = max(high, e)
        }
        if let first = rejectedRecordStarts.min(), let last = rejectedRecordStarts.max(), low <= high {
            low = min(low, first)
            high = max(high, last)
        }
        let covered = low <= high ? (low - margin)...(high + margin) : 0...margin
        let timeline = makeZoneTimeline(
            priority: priority, exportDate: exportDate, environmentTimeZone: environmentTimeZone, range: covered,
            timeZoneCounts: timeZoneCounts)
        notes.append(contentsOf: timeline.notes)
        let calendar = timeline.calendar(covering: covered)
        let current = timeline.periods[timeline.periods.count - 1]

        var result = AnalysisResult(
            timeZone: TimeZoneChoice(identifier: current.identifier, reason: current.reason),
            weekStart: options.weekStart, deduplicated: options.deduplicate, sourceOrder: priority.rankedSources,
            exportDate: exportDate)
        // Without reported days (no data, an empty window), the periods carry no dates.
        result.timeZonePeriods = timeline.periods.map {
            TimeZonePeriod(identifier: $0.identifier, reason: $0.reason, changeNote: $0.changeNote)
        }

        // Days with data.
        var firstDay = Int.max
        var lastDay = Int.min
        if firstInstant <= lastInstant {
            firstDay = calendar.dayNumber(firstInstant)
            lastDay = calendar.dayNumber(lastInstant)
        }
        for extent in domains.compactMap(\.calendarDayExtent) {
            firstDay = min(firstDay, extent.lowerBound)
            lastDay = max(lastDay, extent.upperBound)
        }
        guard firstDay <= lastDay else {
            notes.append(
                "No activity data found (no steps, energy, exercise, stand, heart-rate, workout or ActivitySummary records)."
            )
            appendDropNotes(&notes)
            result.notes = notes
            return result
        }

        // The window the options ask for, and the range of complete days for partial weeks.
        let exportDay = exportDate.map { calendar.dayNumber($0.secondsSince1970) }
        let windowFirst = max(firstDay, options.from?.daysSince1970 ?? .min)
        let windowLast = min(lastDay, options.to?.daysSince1970 ?? .max)
        let completeFirst = windowFirst
        let completeLast = min((exportDay.map { $0 - 1 }) ?? lastDay, options.to?.daysSince1970 ?? .max)
        guard windowFirst <= windowLast else {
            result.emptyWindow = EmptyWindow(
                from: options.from, to: options.to, lastCompleteWeek: false,
                dataFirstDay: CivilDate(daysSince1970: firstDay), dataLastDay: CivilDate(daysSince1970: lastDay))
            notes.append(
                "WARNING: no data between \(options.from.map(\.description) ?? "the start") and "
                    + "\(options.to.map(\.description) ?? "the end"): the export has data from "
                    + "\(CivilDate(daysSince1970: firstDay)) to \(CivilDate(daysSince1970: lastDay)).")
            result.notes = notes
            return result
        }
        var reportFirst = windowFirst
        var reportLast = windowLast
        if options.lastCompleteWeekOnly {
            var start = options.weekStart.startOfWeek(containing: CivilDate(daysSince1970: completeLast)).daysSince1970
            if start + 6 > completeLast { start -= 7 }
            guard start >= completeFirst else {
                result.emptyWindow = EmptyWindow(
                    from: options.from, to: options.to, lastCompleteWeek: true,
                    dataFirstDay: CivilDate(daysSince1970: firstDay), dataLastDay: CivilDate(daysSince1970: lastDay))
                notes.append(
                    "WARNING: --week last: no complete week with data (the export has data from "
                        + "\(CivilDate(daysSince1970: firstDay)) to \(CivilDate(daysSince1970: lastDay))).")
                result.notes = notes
                return result
            }
            reportFirst = start
            reportLast = start + 6
        }
        // Days the computation covers: the window plus the reported week (which can reach past
        // the last data day when the export was made a few days after it). Nothing is allocated
        // per day of it: the columns hold the days with data only (issue 10).
        let spanFirst = min(windowFirst, reportFirst, firstDay)
        let spanLast = max(windowLast, reportLast, lastDay)
        let report = reportFirst...reportLast

        var finishing = FinishContext(
            options: options, calendar: calendar, priority: priority, days: spanFirst...spanLast, report: report,
            daily: DailyColumns(), result: result, notes: notes)
        finishing.threads = mergedAnalyzers
        // The domains' independent parts at once (the costliest first), then every finish in order.
        let partsByDomain = domains.map { $0.finishParts(finishing) }
        let all = partsByDomain.flatMap { $0 }
        let outcomes = try ParallelWork.map(
            count: all.count, order: all.indices.sorted { all[$0].cost > all[$1].cost }, threads: mergedAnalyzers
        ) { try all[$0].run() }
        var next = 0
        for (domain, domainParts) in zip(domains, partsByDomain) {
            try domain.finish(&finishing, prepared: Array(outcomes[next..<next + domainParts.count]))
            next += domainParts.count
        }
        let daily = finishing.daily
        let summaries = finishing.summaries
        result = finishing.result
        notes = finishing.notes
        appendDropNotes(&notes)

        // Daily rows over the window (weeks need the days before the reported range too), except
        // runs of more than 31 days without data (`KeptDays`): only the days with data are
        // computed first, the short runs between them are then filled with empty rows.
        let rowsFirst = min(windowFirst, reportFirst)
        let rowsLast = max(windowLast, reportLast)
        let rowRange = rowsFirst...rowsLast
        // The anchors' rows are not kept: they are computed again below (a row is about 500 bytes,
        // a dictionary of them grew with the days; `metrics` is a pure function of the columns).
        var anchors: [Int] = []
        let summaryDays = summaries.keys.map(\.daysSince1970).filter { rowRange.contains($0) }
        for day in Set(daily.dataDays(in: rowRange) + summaryDays) {
            let m = daily.metrics(day: day, summary: summaries[CivilDate(daysSince1970: day)])
            if m.2 || m.0 != DailyMetrics(date: m.0.date) { anchors.append(day) }
        }
        // The one week of `--week last` is listed whatever it holds.
        if options.lastCompleteWeekOnly { anchors.append(contentsOf: report) }
        let kept = KeptDays(range: rowRange, anchors: anchors)
        var rows: [DailyMetrics] = []
        var rings: [RingsClosed] = []
        var hasData: [Bool] = []
        rows.reserveCapacity(kept.days.count)
        for day in kept.days {
            var (row, ring, data) = daily.metrics(day: day, summary: summaries[CivilDate(daysSince1970: day)])
            row.timeZone = timeline.periods[timeline.periodIndex(day: day)].identifier
            rows.append(row)
            rings.append(ring)
            hasData.append(data)
        }
        notes.append(contentsOf: kept.gapNotes(report: report))
        Self.noteDaysOfRejectedRecords(
            rejectedRecordStarts, calendar: calendar, kept: kept, hasData: hasData, notes: &notes)
        let weeks = WeeklyBuilder(
            weekStart: options.weekStart, seriesFirst: rowsFirst, rows: rows, rings: rings, hasData: hasData,
            complete: completeFirst...max(completeFirst, completeLast), completeIsEmpty: completeLast < completeFirst
        ).build()

        let inReport = { (d: CivilDate) in report.contains(d.daysSince1970) }
        let reportedRows = rows.filter { inReport($0.date) }
        let reportedRings = zip(rows, rings).filter { inReport($0.0.date) }.map(\.1)
        let reportedHasData = zip(rows, hasData).filter { inReport($0.0.date) }.map(\.1)
        result.firstDay = CivilDate(daysSince1970: reportFirst)
        result.lastDay = CivilDate(daysSince1970: reportLast)
        result.days = reportedRows
        result.weeks = weeks.filter { w in
            let s = w.weekStart.daysSince1970
            return s + 6 >= reportFirst && s <= reportLast
        }
        // Workouts by activity, counted once, by the local day of their start.
        for w in result.workouts where !w.isDuplicate {
            let day = Int(floorDiv(w.start.secondsSince1970 + Int64(w.start.utcOffsetSeconds), 86_400))
            if let k = result.weeks.firstIndex(where: { (0..<7).contains(day - $0.weekStart.daysSince1970) }) {
                result.weeks[k].workoutsByActivity[w.activity, default: 0] += 1
            }
        }
        result.months = MonthlyBuilder(
            rows: reportedRows, rings: reportedRings, hasData: reportedHasData, workouts: result.workouts
        ).build()
        result.timeZonePeriods = Self.reportedPeriods(timeline, report: report)
        result.crossCheck = Self.crossCheck(reportedRows, summaries: summaries)
        result.ringSources = Self.ringSources(reportedRows, check: result.crossCheck, summaries: summaries)
        if let warning = agreementWarning(
            result.crossCheck, timeline: timeline, priority: priority, covered: covered,
            reportedDays: report, lastDataDay: lastDay)
        {
            notes.append(warning)
        }
        result.longestAllRingsStreak = Self.longestStreak(reportedRows, rings: reportedRings)
        result.notes = notes
        return result
    }

    private func appendDropNotes(_ notes: inout [String]) {
        let c = context.counters
        func at(_ line: Int) -> String { line > 0 ? " (first at line \(line))" : "" }
        if c.negativeValue > 0 {
            notes.append("Dropped \(c.negativeValue) sample(s) with a negative value\(at(c.negativeValueLine)).")
        }
        if c.endBeforeStart > 0 {
            notes.append("Dropped \(c.endBeforeStart) sample(s) that end before they start\(at(c.endBeforeStartLine)).")
        }
        if c.unexpectedUnit > 0 {
            notes.append(
                "Dropped \(c.unexpectedUnit) sample(s) without a value in the unit their type needs\(at(c.unexpectedUnitLine))."
            )
        }
        if c.outOfRange > 0 { notes.append("Dropped \(c.outOfRange) sample(s) dated before 1970 or after 2106.") }
        if c.tooLong > 0 {
            notes.append(
                "Dropped \(c.tooLong) cumulative sample(s) longer than 31 days\(at(c.tooLongLine)).")
        }
        if c.implausibleHeartRate > 0 {
            notes.append("Dropped \(c.implausibleHeartRate) heart-rate sample(s) outside 0–1000 bpm.")
        }
        if c.tooManySources > 0 {
            notes.append("Dropped \(c.tooManySources) sample(s) of sources beyond the first 65 536.")
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
