import HealthExport

/// Workouts: per local day (of the workout's start), how many and their minutes (`duration`,
/// which excludes pauses; reference §2.5).
///
/// With de-duplication on, a workout that overlaps a higher-priority source's workout by at least
/// half of the shorter one is the same session recorded twice (e.g. a Watch run copied by a
/// running app) and counts once; with exact-duplicate removal on, a source's second copy of the
/// same start and end counts once.
final class Workouts: DomainAccumulator {
    private let options: AnalysisOptions
    private var workouts: [WorkoutSpan] = []

    init(options: AnalysisOptions) { self.options = options }

    func route(type: String) -> Int32? { nil }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {}

    func consume(_ w: Workout, context: StreamContext) {
        let s = context.sources.index(named: w.sourceName)
        context.sources.observe(creation: w.creationDate, device: w.device, source: s)
        let start = w.startDate.secondsSince1970
        let end = max(start, w.endDate.secondsSince1970)
        let minutes = w.durationMinutes ?? Double(end - start) / 60
        workouts.append(WorkoutSpan(start: start, end: end, minutes: max(0, minutes), source: Int32(s)))
        context.cover(start, start)
    }

    func merge(_ other: any DomainAccumulator, sourceMap: [Int], context: StreamContext) {
        let other = other as! Workouts
        for var w in other.workouts {
            w.source = Int32(sourceMap[Int(w.source)])
            workouts.append(w)
        }
    }

    func finish(_ context: inout FinishContext) {
        for a in counted(priority: context.priority) {
            context.daily.addWorkout(day: context.calendar.dayNumber(a.start), minutes: a.minutes)
        }
    }

    /// The workouts that count, after removing sessions recorded twice.
    private func counted(priority: SourcePriority) -> [WorkoutSpan] {
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
        return accepted
    }
}
