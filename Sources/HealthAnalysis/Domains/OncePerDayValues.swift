import HealthExport

/// Types written about once a day (resting heart rate, walking heart rate average, VO2 max, body
/// mass): the day's value is the highest-priority source's latest sample of that local day
/// (docs/deduplication.md §9).
final class OncePerDayValues: DomainAccumulator {
    private var samples: [OncePerDaySample] = []

    func route(type: String) -> Int32? {
        guard case .oncePerDay(let t) = TypeCatalog.classify(type).role else { return nil }
        return Int32(t.rawValue)
    }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        let type = OncePerDayType(rawValue: Int(route))!
        guard case .quantity(let q) = r.pointee.value, q.unit == type.unit, q.value > 0 else {
            context.counters.countUnexpectedUnit(line: r.pointee.line)
            return
        }
        guard type.plausible.admits(q.value) else {
            context.counters.implausible.count(type.plausible, line: r.pointee.line)
            return
        }
        guard let s = context.sources.index(of: r) else {
            context.counters.tooManySources += 1
            return
        }
        let t = r.pointee.startDate.secondsSince1970
        samples.append(
            OncePerDaySample(start: t, value: q.value, source: Int32(s), manual: r.pointee.wasUserEntered, type: type))
        context.cover(t, t)
    }

    func merge(_ other: OncePerDayValues, sourceMap: [Int], context: StreamContext) {
        samples.appendRemapped(&other.samples, sourceMap: sourceMap, context: context)
    }

    func finish(_ context: inout FinishContext) {
        let priority = context.priority
        struct Key: Hashable {
            var day: Int
            var type: OncePerDayType
        }
        var best: [Key: (rank: Int, start: Int64, value: Double)] = [:]
        for s in samples {
            let day = Key(day: context.calendar.dayNumber(s.start), type: s.type)
            let rank = priority.rank(position: priority.position[Int(s.source)], manual: s.manual)
            if let b = best[day] {
                let better = rank != b.rank ? rank < b.rank : s.start != b.start ? s.start > b.start : s.value > b.value
                if !better { continue }
            }
            best[day] = (rank, s.start, s.value)
        }
        for (key, b) in best { context.daily.setOncePerDay(day: key.day, key.type, b.value) }
    }
}
