import Foundation
import HealthExport

extension Analyzer {
    /// Buckets everything consumed into local days of the chosen zone and computes the result.
    /// Call once, after the last batch.
    ///
    /// The zone is `options.timeZoneIdentifier` if set; else the most frequent `HKTimeZone`
    /// in `timeZoneCounts`; else `environmentTimeZone` (the machine's `TZ`); else the fixed
    /// printed offset of `exportDate`, with a warning in `notes` (reference §2.7).
    ///
    /// - Parameters:
    ///   - exportDate: the `ExportDate` value: "now" for partial days and weeks.
    ///   - timeZoneCounts: how many samples carried each `HKTimeZone` value.
    ///   - environmentTimeZone: the machine's zone identifier, if known.
    /// - Throws: `AnalysisError` for an invalid `--tz` or an empty `--from`/`--to` range.
    /// - Complexity: O(n log n) in the number of stored cumulative samples.
    public func finish(
        exportDate: Timestamp?, timeZoneCounts: [String: Int], environmentTimeZone: String?
    ) throws -> AnalysisResult {
        try options.validate()
        markFinished()
        var notes: [String] = []
        let zone = Self.chooseZone(
            option: options.timeZoneIdentifier, counts: timeZoneCounts, environment: environmentTimeZone,
            exportDate: exportDate, notes: &notes)
        let priority = SourcePriority(sources: sources, preferred: options.sourceOrder)
        for name in priority.unmatchedNames {
            notes.append("--source-order: no source is named \"\(name)\"; ignored.")
        }

        var result = AnalysisResult(
            timeZone: zone.choice, weekStart: options.weekStart, deduplicated: options.deduplicate,
            sourceOrder: priority.rankedSources, exportDate: exportDate)

        // The zone table covers every instant we will look at, with margin for day ends.
        let margin: Int64 = 3 * 86_400
        var low = firstInstant
        var high = lastInstant
        if let e = exportDate?.secondsSince1970 {
            low = min(low, e)
            high = max(high, e)
        }
        let calendar: LocalCalendar
        if low <= high {
            calendar = zone.make(covering: (low - margin)...(high + margin))
        } else {
            calendar = zone.make(covering: 0...margin)
        }

        // Days with data.
        var firstDay = Int.max
        var lastDay = Int.min
        if firstInstant <= lastInstant {
            firstDay = calendar.dayNumber(firstInstant)
            lastDay = calendar.dayNumber(lastInstant)
        }
        for date in summaries.keys {
            firstDay = min(firstDay, date.daysSince1970)
            lastDay = max(lastDay, date.daysSince1970)
        }
        guard firstDay <= lastDay else {
            notes.append(
                "No activity data found (no steps, energy, exercise, stand, heart-rate, workout or ActivitySummary records)."
            )
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
            notes.append(
                "No data between \(options.from.map(\.description) ?? "the start") and \(options.to.map(\.description) ?? "the end")."
            )
            result.notes = notes
            return result
        }
        var reportFirst = windowFirst
        var reportLast = windowLast
        if options.lastCompleteWeekOnly {
            var start = options.weekStart.startOfWeek(containing: CivilDate(daysSince1970: completeLast)).daysSince1970
            if start + 6 > completeLast { start -= 7 }
            guard start >= completeFirst else {
                notes.append("--week last: the data holds no complete week.")
                result.notes = notes
                return result
            }
            reportFirst = start
            reportLast = start + 6
        }
        // Days the computation covers: the window plus the reported week (which can reach past
        // the last data day when the export was made a few days after it).
        let spanFirst = min(windowFirst, reportFirst, firstDay)
        let spanLast = max(windowLast, reportLast, lastDay)
        let span = DaySpan(first: spanFirst, count: spanLast - spanFirst + 1)
        let report = reportFirst...reportLast

        var daily = DailyColumns(span: span)
        computeCumulative(
            priority: priority, calendar: calendar, span: span, report: report, into: &daily, result: &result,
            notes: &notes)
        computeHeartRate(priority: priority, calendar: calendar, span: span, into: &daily)
        let standRows = computeStandHours(priority: priority, calendar: calendar, span: span, into: &daily)
        computeWorkouts(priority: priority, calendar: calendar, span: span, into: &daily)
        appendDropNotes(&notes)

        // Daily rows over the window (weeks need the days before the reported range too).
        let rowsFirst = min(windowFirst, reportFirst)
        let rowsLast = max(windowLast, reportLast)
        var rows: [DailyMetrics] = []
        var rings: [RingsClosed] = []
        var hasData: [Bool] = []
        for day in rowsFirst...rowsLast {
            let (row, ring, data) = daily.metrics(day: day, summary: summaries[CivilDate(daysSince1970: day)])
            rows.append(row)
            rings.append(ring)
            hasData.append(data)
        }
        let weeks = WeeklyBuilder(
            weekStart: options.weekStart, rowsFirst: rowsFirst, rows: rows, rings: rings, hasData: hasData,
            complete: completeFirst...max(completeFirst, completeLast), completeIsEmpty: completeLast < completeFirst
        ).build()

        let inReport = { (d: CivilDate) in report.contains(d.daysSince1970) }
        let reportedRows = rows.filter { inReport($0.date) }
        let reportedRings = zip(rows, rings).filter { inReport($0.0.date) }.map(\.1)
        result.firstDay = CivilDate(daysSince1970: reportFirst)
        result.lastDay = CivilDate(daysSince1970: reportLast)
        result.days = reportedRows
        result.weeks = weeks.filter { w in
            let s = w.weekStart.daysSince1970
            return s + 6 >= reportFirst && s <= reportLast
        }
        result.standHours = standRows.filter { inReport($0.date) }
        result.standHourProfile = Self.standProfile(result.standHours)
        result.crossCheck = Self.crossCheck(reportedRows, summaries: summaries)
        result.longestAllRingsStreak = Self.longestStreak(reportedRows, rings: reportedRings)
        result.notes = notes
        return result
    }

    // MARK: Zone

    struct ZoneChoice {
        var choice: TimeZoneChoice
        var timeZone: TimeZone?
        var fixedOffset: Int64

        func make(covering range: ClosedRange<Int64>) -> LocalCalendar {
            if let timeZone { return LocalCalendar(timeZone: timeZone, covering: range) }
            return LocalCalendar(fixedOffsetSeconds: fixedOffset)
        }
    }

    static func chooseZone(
        option: String?, counts: [String: Int], environment: String?, exportDate: Timestamp?,
        notes: inout [String]
    ) -> ZoneChoice {
        if let option, let tz = TimeZone.iana(option) {  // validated before
            return ZoneChoice(
                choice: TimeZoneChoice(identifier: option.trimmingCharacters(in: .whitespaces), reason: .option),
                timeZone: tz, fixedOffset: 0)
        }
        let ranked = counts.filter { $0.value > 0 }.sorted { a, b in
            a.value != b.value ? a.value > b.value : a.key < b.key
        }
        var unknown: [String] = []
        for (id, count) in ranked {
            if let tz = TimeZone.iana(id) {
                if !unknown.isEmpty {
                    notes.append(
                        "Ignored HKTimeZone values that are not IANA zones: \(unknown.joined(separator: ", ")).")
                }
                if ranked.count > 1 {
                    let others = ranked.filter { $0.key != id }.prefix(3).map { "\($0.key) (\($0.value))" }
                    notes.append(
                        "Days are bucketed in \(id), the most frequent HKTimeZone (\(count) samples); "
                            + "samples also name \(others.joined(separator: ", ")). Use --tz to choose another zone.")
                }
                return ZoneChoice(
                    choice: TimeZoneChoice(identifier: id, reason: .mostFrequentHKTimeZone(count: count)),
                    timeZone: tz, fixedOffset: 0)
            }
            unknown.append(id)
        }
        if !unknown.isEmpty {
            notes.append("Ignored HKTimeZone values that are not IANA zones: \(unknown.joined(separator: ", ")).")
        }
        if let environment, let tz = TimeZone.iana(environment) {
            let id = tz.identifier
            notes.append(
                "The export names no time zone (no HKTimeZone metadata): days are bucketed in this machine's zone, \(id). "
                    + "Use --tz to choose the zone the data was recorded in.")
            return ZoneChoice(
                choice: TimeZoneChoice(identifier: id, reason: .environment), timeZone: tz, fixedOffset: 0)
        }
        let offset = Int64(exportDate?.printedOffsetSeconds ?? 0)
        let label = Self.offsetLabel(offset)
        notes.append(
            "WARNING: no time zone known (no --tz, no HKTimeZone metadata, no TZ): days are bucketed at the "
                + "export's fixed offset \(label), ignoring daylight saving time. Use --tz to name the zone.")
        return ZoneChoice(
            choice: TimeZoneChoice(identifier: label, reason: .exportOffset), timeZone: nil, fixedOffset: offset)
    }

    /// `UTC+01:00`, `UTC-04:30`.
    static func offsetLabel(_ seconds: Int64) -> String {
        let a = abs(seconds)
        let h = a / 3600
        let m = a / 60 % 60
        return "UTC\(seconds < 0 ? "-" : "+")\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }

    // MARK: Cumulative types

    private func computeCumulative(
        priority: SourcePriority, calendar: LocalCalendar, span: DaySpan, report: ClosedRange<Int>,
        into daily: inout DailyColumns, result: inout AnalysisResult, notes: inout [String]
    ) {
        let positions = priority.order.count
        let watchOnly = priority.classes.map { $0 == .watch }
        let fillerEligible = priority.classes.map { $0 == .other }
        counters.exactDuplicates = Array(repeating: 0, count: cumulative.count)
        // Fixed slots first, then the others by identifier (their slot order is input order).
        let slots =
            Array(0..<CumulativeSlot.fixedCount)
            + (CumulativeSlot.fixedCount..<cumulative.count).sorted {
                cumulativeTypes[$0].identifier < cumulativeTypes[$1].identifier
            }
        for slot in slots {
            var samples = cumulative[slot].drain()
            guard !samples.isEmpty else { continue }
            for k in samples.indices {
                samples[k].source = UInt16(priority.position[Int(samples[k].source)])
            }
            samples.sort(by: Self.sampleOrder)
            if options.removeExactDuplicates {
                counters.exactDuplicates[slot] = Self.removeExactDuplicates(&samples)
            }
            let type = cumulativeTypes[slot]
            let tracksFiller = options.deduplicate && slot <= CumulativeSlot.basalEnergy
            samples.withUnsafeBufferPointer { buffer in
                // Raw per-source totals: plain sums prorated into days.
                var raw = MergeAccumulator(
                    firstDay: span.first, dayCount: span.count, window: report, positions: positions)
                prorate(buffer, priority: priority, include: nil, calendar: calendar, into: &raw)
                var merged = raw
                if options.deduplicate {
                    merged = MergeAccumulator(
                        firstDay: span.first, dayCount: span.count, window: report, positions: positions,
                        fillerEligible: tracksFiller ? fillerEligible : nil)
                    mergeByPriority(buffer, priority: priority, include: nil, calendar: calendar, into: &merged)
                }
                daily.setAll(slot: slot, merged)
                for p in 0..<positions where raw.samples[p] > 0 {
                    result.sources.append(
                        SourceContribution(
                            type: type.identifier, sourceName: priority.names[p], sourceClass: priority.classes[p],
                            samples: raw.samples[p], rawTotal: raw.counted[p], countedTotal: merged.counted[p],
                            unit: type.unit))
                }
                notes.append(contentsOf: Self.fillerNotes(merged.fillers, type: type, priority: priority))
                // The rings count Apple Watch samples only (reference §4.1).
                if slot == CumulativeSlot.activeEnergy || slot == CumulativeSlot.exerciseTime
                    || slot == CumulativeSlot.moveTime
                {
                    var watch = MergeAccumulator(
                        firstDay: span.first, dayCount: span.count, window: report, positions: positions)
                    if options.deduplicate {
                        mergeByPriority(
                            buffer, priority: priority, include: watchOnly, calendar: calendar, into: &watch)
                    } else {
                        prorate(buffer, priority: priority, include: watchOnly, calendar: calendar, into: &watch)
                    }
                    daily.setWatch(slot: slot, watch)
                }
            }
        }
    }

    /// Sort order of samples: by start (the sweep needs it), then by every other field, so that
    /// exact duplicates are adjacent and the order never depends on the input order.
    static func sampleOrder(_ a: CumulativeSample, _ b: CumulativeSample) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.duration != b.duration { return a.duration < b.duration }
        if a.source != b.source { return a.source < b.source }
        if a.value != b.value { return a.value < b.value }
        return a.flags < b.flags
    }

    /// Removes samples equal to their predecessor in type, source, start, end and value (the
    /// type is the array's); a manual flag on either copy survives. Returns how many went.
    static func removeExactDuplicates(_ samples: inout [CumulativeSample]) -> Int {
        guard samples.count > 1 else { return 0 }
        var kept = 0
        for k in 1..<samples.count {
            let s = samples[k]
            let last = samples[kept]
            if s.start == last.start && s.duration == last.duration && s.source == last.source && s.value == last.value
            {
                samples[kept].flags |= s.flags
            } else {
                kept += 1
                samples[kept] = s
            }
        }
        let removed = samples.count - (kept + 1)
        samples.removeLast(removed)
        return removed
    }

    static func fillerNotes(
        _ fillers: [(day: Int, position: Int, share: Double)], type: CumulativeType, priority: SourcePriority
    ) -> [String] {
        guard !fillers.isEmpty else { return [] }
        let name = type.identifier.replacingOccurrences(of: TypeCatalog.prefix, with: "")
        var byPosition: [Int: [(day: Int, share: Double)]] = [:]
        for f in fillers { byPosition[f.position, default: []].append((f.day, f.share)) }
        return byPosition.keys.sorted().map { p in
            let days = byPosition[p]!
            let top = days.max { a, b in a.share != b.share ? a.share < b.share : a.day > b.day }!
            let pct = Int((top.share * 100).rounded())
            return "\(name): the low-priority source \"\(priority.names[p])\" filled gaps for "
                + "\(Int((MergeAccumulator.fillerShare * 100).rounded())) % or more of the day's total on \(days.count) day(s) "
                + "(most: \(pct) % on \(CivilDate(daysSince1970: top.day))). A coarse source filling hours that "
                + "better sources left empty can inflate totals; --source-order or --no-dedup show the alternatives."
        }
    }

    private func appendDropNotes(_ notes: inout [String]) {
        let c = counters
        let duplicates = c.exactDuplicates.reduce(0, +)
        if duplicates > 0 {
            let perType = c.exactDuplicates.indices.filter { c.exactDuplicates[$0] > 0 }.map {
                "\(cumulativeTypes[$0].identifier.replacingOccurrences(of: TypeCatalog.prefix, with: "")) \(c.exactDuplicates[$0])"
            }
            notes.append("Removed \(duplicates) exact duplicate sample(s) (\(perType.joined(separator: ", "))).")
        }
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
        if c.implausibleHeartRate > 0 {
            notes.append("Dropped \(c.implausibleHeartRate) heart-rate sample(s) outside 0–1000 bpm.")
        }
        if c.tooManySources > 0 {
            notes.append("Dropped \(c.tooManySources) sample(s) of sources beyond the first 65 536.")
        }
    }

    // MARK: Heart rate

    private func computeHeartRate(
        priority: SourcePriority, calendar: LocalCalendar, span: DaySpan, into daily: inout DailyColumns
    ) {
        heartRate.forEachBucket { start, bucket in
            daily.addHeartRate(day: calendar.dayNumber(start), bucket)
        }
        // Once-a-day types: the highest-priority source's latest value of the day (§5.6).
        struct Key: Hashable {
            var day: Int
            var type: OncePerDayType
        }
        var best: [Key: (rank: Int, start: Int64, value: Double)] = [:]
        for s in oncePerDay {
            let day = Key(day: calendar.dayNumber(s.start), type: s.type)
            let rank = priority.rank(position: priority.position[Int(s.source)], manual: s.manual)
            if let b = best[day] {
                let better = rank != b.rank ? rank < b.rank : s.start != b.start ? s.start > b.start : s.value > b.value
                if !better { continue }
            }
            best[day] = (rank, s.start, s.value)
        }
        for (key, b) in best { daily.setOncePerDay(day: key.day, key.type, b.value) }
    }

    // MARK: Stand hours

    /// Stand hours: a local hour counts once when any Apple Watch source recorded Stood for it.
    /// Hours are keyed by their start instant, so the repeated hour of a fall-back day stays two
    /// hours (same label).
    private func computeStandHours(
        priority: SourcePriority, calendar: LocalCalendar, span: DaySpan, into daily: inout DailyColumns
    ) -> [StandHour] {
        var hours: [Int64: Bool] = [:]
        for r in stand where priority.classes[priority.position[Int(r.source)]] == .watch {
            let h = calendar.startOfHour(r.start)
            hours[h] = (hours[h] ?? false) || r.stood
        }
        var rows: [StandHour] = []
        rows.reserveCapacity(hours.count)
        for h in hours.keys.sorted() {
            let stood = hours[h]!
            let day = calendar.dayNumber(h)
            daily.addStandHour(day: day, stood: stood)
            rows.append(StandHour(date: CivilDate(daysSince1970: day), hour: calendar.hourOfDay(h), stood: stood))
        }
        return rows
    }

    static func standProfile(_ rows: [StandHour]) -> [(hour: Int, stoodDays: Int, daysWithRecord: Int)] {
        // One entry per (day, hour): the repeated fall-back hour counts once, stood if either was.
        var cells: [CivilDate: [Int: Bool]] = [:]
        for r in rows { cells[r.date, default: [:]][r.hour] = (cells[r.date]?[r.hour] ?? false) || r.stood }
        var stood = [Int](repeating: 0, count: 24)
        var recorded = [Int](repeating: 0, count: 24)
        for (_, hours) in cells {
            for (h, s) in hours where (0..<24).contains(h) {
                recorded[h] += 1
                if s { stood[h] += 1 }
            }
        }
        return (0..<24).map { (hour: $0, stoodDays: stood[$0], daysWithRecord: recorded[$0]) }
    }

    // MARK: Workouts

    /// Workouts by the local day they start on. With de-duplication on, a workout that overlaps
    /// a higher-priority source's workout by at least half of the shorter one is the same
    /// session recorded twice (e.g. a Watch run copied by a running app) and counts once.
    private func computeWorkouts(
        priority: SourcePriority, calendar: LocalCalendar, span: DaySpan, into daily: inout DailyColumns
    ) {
        var list = workouts.map { w in
            (w: w, rank: priority.rank(position: priority.position[Int(w.source)], manual: false))
        }
        list.sort { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if a.w.start != b.w.start { return a.w.start < b.w.start }
            if a.w.end != b.w.end { return a.w.end < b.w.end }
            return a.w.minutes < b.w.minutes
        }
        // Accepted workouts sorted by start; only those starting within the longest accepted
        // duration before a candidate can overlap it.
        var accepted: [WorkoutSpan] = []
        var longest: Int64 = 0
        for item in list {
            let w = item.w
            var lo = 0
            var hi = accepted.count  // first index with start > w.end
            while lo < hi {
                let mid = (lo + hi) / 2
                if accepted[mid].start <= w.end { lo = mid + 1 } else { hi = mid }
            }
            var duplicate = false
            var k = lo - 1
            while k >= 0 && accepted[k].start >= w.start - longest {
                let a = accepted[k]
                k -= 1
                if a.source == w.source {
                    if options.removeExactDuplicates && a.start == w.start && a.end == w.end {
                        duplicate = true
                        break
                    }
                    continue
                }
                guard options.deduplicate else { continue }
                let overlap = min(a.end, w.end) - max(a.start, w.start)
                let shorter = min(a.end - a.start, w.end - w.start)
                if overlap > 0 && 2 * overlap >= shorter {
                    duplicate = true
                    break
                }
            }
            if !duplicate {
                var at = lo  // keep the order by start: first index with start > w.start
                while at > 0 && accepted[at - 1].start > w.start { at -= 1 }
                accepted.insert(w, at: at)
                longest = max(longest, w.end - w.start)
            }
        }
        for a in accepted { daily.addWorkout(day: calendar.dayNumber(a.start), minutes: a.minutes) }
    }

    // MARK: Cross-check and streak

    /// Compares record-derived ring values with the day's ActivitySummary (reference §4.3):
    /// exercise and move minutes ±1 min, stand hours exact, energy ±max(1 kcal, 1 %).
    /// A missing record value compares as 0 (a summary of zeros before the Watch was worn agrees).
    static func crossCheck(_ rows: [DailyMetrics], summaries: [CivilDate: ActivitySummary]) -> SummaryCrossCheck {
        var check = SummaryCrossCheck()
        for row in rows {
            guard let s = summaries[row.date] else { continue }
            var compared = false
            var agrees = true
            func compare(_ metric: String, _ record: Double?, _ summary: Double?, tolerance: (Double) -> Double) {
                guard let summary else { return }
                compared = true
                if abs((record ?? 0) - summary) > tolerance(summary) + 1e-9 {
                    agrees = false
                    check.disagreements.append(
                        SummaryDisagreement(date: row.date, metric: metric, recordValue: record, summaryValue: summary))
                }
            }
            if s.isMoveTimeMode {
                compare("move_min", row.moveMinutes, s.appleMoveTimeMinutes) { _ in 1 }
            } else {
                compare("move_kcal", row.moveKcal, s.activeEnergyBurnedKcal) { max(1, abs($0) * 0.01) }
            }
            compare("exercise_min", row.exerciseMinutes, s.appleExerciseTimeMinutes) { _ in 1 }
            compare("stand_hours", row.standHours.map(Double.init), s.appleStandHours) { _ in 0 }
            if compared {
                check.daysCompared += 1
                if agrees { check.daysAgreeing += 1 }
            }
        }
        return check
    }

    static func longestStreak(_ rows: [DailyMetrics], rings: [RingsClosed]) -> RingStreak {
        var best = RingStreak()
        var run = 0
        var runFirst: CivilDate?
        for (row, ring) in zip(rows, rings) {
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

/// The local days a computation covers.
struct DaySpan {
    var first: Int
    var count: Int
    func index(_ day: Int) -> Int? {
        let i = day - first
        return i >= 0 && i < count ? i : nil
    }
}
