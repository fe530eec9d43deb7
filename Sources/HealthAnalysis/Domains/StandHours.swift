import HealthExport

/// Stand hours (`HKCategoryTypeIdentifierAppleStandHour`): a local hour counts once when any
/// Apple Watch source recorded `Stood` for it (docs/rings.md §1, §4); the Stand ring's value per
/// day, `stand_hours.csv` and the stand-hour profile.
///
/// Hours are keyed by their start instant, so the repeated hour of a fall-back day stays two
/// hours (same label).
final class StandHours: DomainAccumulator {
    private var records: [StandRecord] = []

    func route(type: String) -> Int32? {
        TypeCatalog.classify(type).role == .standHour ? 0 : nil
    }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        guard case .category(.appleStandHour(let stood)) = r.pointee.value else { return }
        guard let s = context.sources.index(of: r) else {
            context.counters.tooManySources += 1
            return
        }
        context.sources.noteWritesStandHours(s)
        let t = r.pointee.startDate.secondsSince1970
        records.append(StandRecord(start: t, source: Int32(s), stood: stood))
        context.cover(t, t)
    }

    func merge(_ other: StandHours, sourceMap: [Int], context: StreamContext) {
        records.appendRemapped(&other.records, sourceMap: sourceMap, context: context)
    }

    func finish(_ context: inout FinishContext) {
        let priority = context.priority
        let calendar = context.calendar
        var hours: [Int64: Bool] = [:]
        for r in records where priority.classes[priority.position[Int(r.source)]] == .watch {
            let h = calendar.startOfHour(r.start)
            hours[h] = (hours[h] ?? false) || r.stood
        }
        var rows: [StandHour] = []
        rows.reserveCapacity(hours.count)
        for h in hours.keys.sorted() {
            let stood = hours[h]!
            let day = calendar.dayNumber(h)
            context.daily.addStandHour(day: day, stood: stood)
            if context.report.contains(day) {
                rows.append(
                    StandHour(
                        date: CivilDate(daysSince1970: day), hour: calendar.hourOfDay(h), stood: stood,
                        utcOffsetSeconds: Int(calendar.offset(at: h))))
            }
        }
        context.result.standHours = rows
        context.result.standHourProfile = Self.profile(rows)
    }

    /// Per local hour of the day: on how many days it was stood, and on how many it has a record.
    static func profile(_ rows: [StandHour]) -> [(hour: Int, stoodDays: Int, daysWithRecord: Int)] {
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
}
