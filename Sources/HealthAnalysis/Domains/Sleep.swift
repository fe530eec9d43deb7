import HealthExport

/// Sleep (`HKCategoryTypeIdentifierSleepAnalysis`, docs/sleep-and-workouts.md §2):
/// one row per night, filed under the local date on which it ends (the wake-up day).
///
/// The rule, in order:
/// 1. identical rows (same source, start, end and value) count once;
/// 2. all sleep samples of all sources (InBed and Awake included) are joined into episodes:
///    intervals less than `episodeGap` apart belong together;
/// 3. an episode asleep from 10:00 and awake by 20:00 on one local day is a nap, reported in
///    its own row for that day; every other episode belongs to the night of the local day on
///    which it ends (two episodes ending the same morning are one night);
/// 4. per night: the highest-priority source that has asleep samples (`AsleepCore`, `…Deep`,
///    `…REM`, `…Unspecified` and the legacy `…Asleep`, the same value) gives the row; asleep is
///    the union of its asleep intervals, each stage the union of its intervals; `InBed` (of the
///    highest-priority source that has it) and `Awake` are reported apart and are not sleep;
///    other sources are never added.
final class Sleep: DomainAccumulator {
    static let type = "HKCategoryTypeIdentifierSleepAnalysis"
    /// Samples less than this far apart are one sleep episode.
    static let episodeGap: Int64 = 3600

    struct Sample: Hashable, SourceIndexed {
        var start: Int64
        var end: Int64
        var stage: SleepStage
        var source: Int32
    }
    private var samples: [Sample] = []

    func route(type: String) -> Int32? { type == Self.type ? 0 : nil }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        guard case .category(.sleepAnalysis(let stage)) = r.pointee.value else { return }
        let start = r.pointee.startDate.secondsSince1970
        let end = r.pointee.endDate.secondsSince1970
        guard end >= start else {
            context.counters.countEndBeforeStart(line: r.pointee.line)
            return
        }
        guard let s = context.sources.index(of: r) else {
            context.counters.tooManySources += 1
            return
        }
        samples.append(Sample(start: start, end: end, stage: stage, source: Int32(s)))
        // A night belongs to its wake-up day: only the end widens the days with data.
        context.cover(end, end)
    }

    func merge(_ other: Sleep, sourceMap: [Int], context: StreamContext) {
        samples.appendRemapped(&other.samples, sourceMap: sourceMap, context: context)
    }

    func finish(_ context: inout FinishContext) {
        context.result.sleep = Self.nights(
            samples, calendar: context.calendar, priority: context.priority,
            report: context.days)
        for n in context.result.sleep where !n.isNap {
            if let m = n.asleepMinutes { context.daily.sleepMinutes[n.night.daysSince1970] = m }
        }
        context.result.sleep.removeAll { !context.report.contains($0.night.daysSince1970) }
    }

    /// The rows for `samples` (see the type's rule), for nights whose day lies in `report`.
    static func nights(
        _ samples: [Sample], calendar: LocalCalendar, priority: SourcePriority, report: ClosedRange<Int>
    ) -> [SleepNight] {
        let unique = Array(Set(samples)).sorted { ($0.start, $0.end, $0.source) < ($1.start, $1.end, $1.source) }
        guard !unique.isEmpty else { return [] }
        // Episodes.
        struct Key: Hashable {
            var day: Int
            var isNap: Bool
        }
        var groups: [Key: [Sample]] = [:]
        var order: [Key] = []
        var episode: [Sample] = []
        var episodeEnd = Int64.min
        func close() {
            guard let first = episode.first else { return }
            let start = first.start
            let end = episodeEnd
            let startLocal = calendar.localSeconds(start)
            let endLocal = calendar.localSeconds(max(start, end - 1))
            let day = Int(floorDiv(endLocal, 86_400))
            let sameDay = Int(floorDiv(startLocal, 86_400)) == day
            let isNap = sameDay && floorMod(startLocal, 86_400) >= 10 * 3600 && floorMod(endLocal, 86_400) < 20 * 3600
            let key = Key(day: day, isNap: isNap)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(contentsOf: episode)
            episode = []
        }
        for s in unique {
            if !episode.isEmpty && s.start >= episodeEnd + episodeGap { close() }
            if episode.isEmpty { episodeEnd = s.end }
            episode.append(s)
            episodeEnd = max(episodeEnd, s.end)
        }
        close()

        func rank(_ source: Int32) -> Int { priority.rank(position: priority.position[Int(source)], manual: false) }
        func name(_ source: Int32) -> String { priority.names[priority.position[Int(source)]] }
        func local(_ t: Int64) -> LocalTime {
            LocalTime(secondsSince1970: t, utcOffsetSeconds: Int(calendar.offset(at: t)))
        }
        var rows: [SleepNight] = []
        for key in order where report.contains(key.day) {
            let group = groups[key]!
            var row = SleepNight(night: CivilDate(daysSince1970: key.day), isNap: key.isNap)
            row.sourceCount = Set(group.map(\.source)).count
            let inBed = group.filter { $0.stage == .inBed }
            if let top = inBed.map(\.source).min(by: { (rank($0), $0) < (rank($1), $1) }) {
                row.inBedMinutes = minutes(inBed.filter { $0.source == top })
            }
            if let winner = group.filter(\.stage.isAsleep).map(\.source).min(by: { (rank($0), $0) < (rank($1), $1) }) {
                let mine = group.filter { $0.source == winner }
                let asleep = mine.filter(\.stage.isAsleep)
                row.source = name(winner)
                row.bedtime = local(asleep.map(\.start).min()!)
                row.wakeTime = local(asleep.map(\.end).max()!)
                row.asleepMinutes = minutes(asleep)
                let staged = mine.contains { [.asleepCore, .asleepDeep, .asleepREM].contains($0.stage) }
                func stage(_ s: SleepStage) -> Double { minutes(mine.filter { $0.stage == s }) }
                if staged {
                    row.coreMinutes = stage(.asleepCore)
                    row.deepMinutes = stage(.asleepDeep)
                    row.remMinutes = stage(.asleepREM)
                }
                if mine.contains(where: { $0.stage == .asleepUnspecified }) {
                    row.unspecifiedMinutes = stage(.asleepUnspecified)
                }
                if staged || mine.contains(where: { $0.stage == .awake }) { row.awakeMinutes = stage(.awake) }
            }
            rows.append(row)
        }
        return rows.sorted { a, b in
            (a.bedtime?.secondsSince1970 ?? Int64(a.night.daysSince1970) * 86_400)
                < (b.bedtime?.secondsSince1970 ?? Int64(b.night.daysSince1970) * 86_400)
        }
    }

    /// Minutes covered by the union of the samples' intervals.
    static func minutes(_ samples: [Sample]) -> Double {
        var total: Int64 = 0
        var current: (Int64, Int64)?
        for s in samples.sorted(by: { $0.start < $1.start }) where s.end > s.start {
            if let c = current, s.start <= c.1 {
                current = (c.0, max(c.1, s.end))
            } else {
                if let c = current { total += c.1 - c.0 }
                current = (s.start, s.end)
            }
        }
        if let c = current { total += c.1 - c.0 }
        return Double(total) / 60
    }
}
