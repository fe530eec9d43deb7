import HealthExport

/// Workouts (docs/export-format.md §7.7): the rows of `workouts.csv`, and per local day (of the workout's
/// start) how many and their minutes (`duration`, which excludes pauses).
///
/// Values: `WorkoutStatistics` first (distance = the sum of the workout's own `Distance…`
/// statistics, active energy = its `ActiveEnergyBurned` sum, heart rate = its `HeartRate`
/// average and maximum), the old `totalDistance` / `totalEnergyBurned` attributes as the
/// fallback; a multisport workout's `WorkoutActivity` legs are sub-totals and are never added
/// to it again. A value that was not measured stays nil (an empty cell, not 0).
///
/// With de-duplication on, a workout that overlaps a higher-priority source's workout by at least
/// half of the shorter one is the same session recorded twice (e.g. a Watch run copied by a
/// running app): it is shown as a duplicate and counts once; with exact-duplicate removal on, a
/// source's second copy of the same start and end counts once.
final class Workouts: DomainAccumulator {
    private let options: AnalysisOptions
    private var workouts: [WorkoutSpan] = []
    /// Parallel to `workouts`.
    private var details: [Detail] = []

    struct Detail {
        var activityType: String
        var durationMinutes: Double?
        var distanceKm: Double?
        var activeEnergyKcal: Double?
        var heartRateAvgBpm: Double?
        var heartRateMaxBpm: Double?
        var routeFiles: [String]
        var legs: Int
    }

    init(options: AnalysisOptions) { self.options = options }

    func route(type: String) -> Int32? { nil }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {}

    func consume(_ w: Workout, context: StreamContext) {
        guard let s = context.sources.index(named: w.sourceName) else {
            context.counters.tooManySources += 1
            return
        }
        context.sources.observe(creation: w.creationDate, device: w.device, source: s)
        let start = w.startDate.secondsSince1970
        let end = max(start, w.endDate.secondsSince1970)
        let minutes = w.durationMinutes ?? Double(end - start) / 60
        workouts.append(WorkoutSpan(start: start, end: end, minutes: max(0, minutes), source: Int32(s)))
        details.append(Self.detail(w))
        context.cover(start, start)
    }

    /// The values of one workout, statistics first (see the type's comment).
    static func detail(_ w: Workout) -> Detail {
        let distances = w.statistics.filter {
            $0.type.hasPrefix("HKQuantityTypeIdentifierDistance") && $0.unit == .kilometre && $0.sum != nil
        }
        var distance: Double? = distances.isEmpty ? nil : distances.reduce(0) { $0 + $1.sum! }
        if distance == nil { distance = w.totalDistanceKm }
        var energy = w.statistics(for: "HKQuantityTypeIdentifierActiveEnergyBurned").flatMap {
            $0.unit == .kilocalorie ? $0.sum : nil
        }
        if energy == nil { energy = w.totalEnergyBurnedKcal }
        let hr = w.statistics(for: "HKQuantityTypeIdentifierHeartRate").flatMap {
            $0.unit == .countPerMinute ? $0 : nil
        }
        return Detail(
            activityType: w.activityType, durationMinutes: w.durationMinutes ?? activeMinutes(w), distanceKm: distance,
            activeEnergyKcal: energy, heartRateAvgBpm: hr?.average, heartRateMaxBpm: hr?.maximum,
            routeFiles: w.routes.flatMap(\.filePaths), legs: w.activities.count)
    }

    /// Active minutes from the workout's own events when it has no `duration`: elapsed time minus
    /// each pause (`…Pause` or `…MotionPaused` until the next `…Resume` / `…MotionResumed`, or the
    /// end); nil without events (then nothing says whether it was paused).
    static func activeMinutes(_ w: Workout) -> Double? {
        guard !w.events.isEmpty else { return nil }
        let start = w.startDate.secondsSince1970
        let end = max(start, w.endDate.secondsSince1970)
        var paused: Int64 = 0
        var pausedAt: Int64?
        for e in w.events.sorted(by: { $0.date.secondsSince1970 < $1.date.secondsSince1970 }) {
            let t = min(max(e.date.secondsSince1970, start), end)
            switch e.type {
            case "HKWorkoutEventTypePause", "HKWorkoutEventTypeMotionPaused":
                if pausedAt == nil { pausedAt = t }
            case "HKWorkoutEventTypeResume", "HKWorkoutEventTypeMotionResumed":
                if let p = pausedAt { paused += t - p }
                pausedAt = nil
            default: break
            }
        }
        if let p = pausedAt { paused += end - p }
        return Double(end - start - paused) / 60
    }

    func merge(_ other: Workouts, sourceMap: [Int], context: StreamContext) {
        workouts.appendRemapped(&other.workouts, sourceMap: sourceMap, context: context)
        details.append(contentsOf: other.details)
        other.details = []
    }

    func finish(_ context: inout FinishContext) {
        let (accepted, duplicateOf) = counted(priority: context.priority)
        for i in accepted {
            let a = workouts[i]
            context.daily.addWorkout(day: context.calendar.dayNumber(a.start), minutes: a.minutes)
        }
        // Rows: every workout in the report window, by start (then source), duplicates marked.
        let calendar = context.calendar
        let priority = context.priority
        func local(_ t: Int64) -> LocalTime {
            LocalTime(secondsSince1970: t, utcOffsetSeconds: Int(calendar.offset(at: t)))
        }
        let shown = workouts.indices.filter { context.report.contains(calendar.dayNumber(workouts[$0].start)) }
            .sorted { (workouts[$0].start, workouts[$0].source, $0) < (workouts[$1].start, workouts[$1].source, $1) }
        var rowIndex: [Int: Int] = [:]
        for (k, i) in shown.enumerated() { rowIndex[i] = k }
        context.result.workouts = shown.map { i in
            let w = workouts[i]
            let d = details[i]
            var row = WorkoutRow(
                start: local(w.start), end: local(w.end), activityType: d.activityType,
                activity: WorkoutRow.readableName(d.activityType),
                source: priority.names[priority.position[Int(w.source)]],
                elapsedMinutes: Double(w.end - w.start) / 60)
            row.durationMinutes = d.durationMinutes
            row.distanceKm = d.distanceKm
            row.activeEnergyKcal = d.activeEnergyKcal
            row.heartRateAvgBpm = d.heartRateAvgBpm
            row.heartRateMaxBpm = d.heartRateMaxBpm
            row.routeFiles = d.routeFiles
            row.legs = d.legs
            if let original = duplicateOf[i] {
                row.isDuplicate = true
                row.duplicateOf = rowIndex[original]
            }
            return row
        }
    }

    /// The indices of the workouts that count, and for each other one the workout it repeats.
    private func counted(priority: SourcePriority) -> (accepted: [Int], duplicateOf: [Int: Int]) {
        var list = workouts.indices.map { i in
            (i: i, rank: priority.rank(position: priority.position[Int(workouts[i].source)], manual: false))
        }
        list.sort { a, b in
            let (x, y) = (workouts[a.i], workouts[b.i])
            if a.rank != b.rank { return a.rank < b.rank }
            if x.start != y.start { return x.start < y.start }
            if x.end != y.end { return x.end < y.end }
            if x.minutes != y.minutes { return x.minutes < y.minutes }
            return a.i < b.i
        }
        // Accepted workouts sorted by start; only those starting within the longest accepted
        // duration before a candidate can overlap it.
        var accepted: [Int] = []
        var duplicateOf: [Int: Int] = [:]
        var longest: Int64 = 0
        for item in list {
            let w = workouts[item.i]
            var lo = 0
            var hi = accepted.count  // first index with start > w.end
            while lo < hi {
                let mid = (lo + hi) / 2
                if workouts[accepted[mid]].start <= w.end { lo = mid + 1 } else { hi = mid }
            }
            var original: Int?
            var k = lo - 1
            while k >= 0 && workouts[accepted[k]].start >= w.start - longest {
                let a = workouts[accepted[k]]
                let candidate = accepted[k]
                k -= 1
                if a.source == w.source {
                    if options.removeExactDuplicates && a.start == w.start && a.end == w.end {
                        original = candidate
                        break
                    }
                    continue
                }
                guard options.deduplicate else { continue }
                let overlap = min(a.end, w.end) - max(a.start, w.start)
                let shorter = min(a.end - a.start, w.end - w.start)
                if overlap > 0 && 2 * overlap >= shorter {
                    original = candidate
                    break
                }
            }
            if let original {
                duplicateOf[item.i] = original
            } else {
                var at = lo  // keep the order by start: first index with start > w.start
                while at > 0 && workouts[accepted[at - 1]].start > w.start { at -= 1 }
                accepted.insert(item.i, at: at)
                longest = max(longest, w.end - w.start)
            }
        }
        return (accepted, duplicateOf)
    }
}
