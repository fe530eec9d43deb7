import HealthExport

/// The time-zone domain: everything the zone timeline is decided from (docs/days-and-time-zones.md §5), kept
/// while the export streams and merged across parsing threads like any domain.
///
/// - `HKTimeZone` values with their instants, from every top-level record (`Analyzer` hands over
///   records with metadata through `observeMetadata`) and every workout;
/// - the true offsets of HRV beat times (`OffsetEvidence`);
/// - the Watch ring inputs per 15 minutes and source (`RingQuarterHours`): active energy,
///   exercise minutes and stood hours; which sources are Watches is known only at the end;
/// - the `ActivitySummary` rows, to score candidates.
///
/// It writes nothing into the result itself: `Analyzer.finish` builds the `ZoneTimeline` from it
/// before the other domains finish, since they need its calendar.
final class ZoneEvidenceAccumulator: DomainAccumulator {
    @exclusivity(unchecked) private(set) var zones = TimeZoneEvidence()
    @exclusivity(unchecked) private(set) var offsets = OffsetEvidence()
    /// Per source index.
    @exclusivity(unchecked) private var energyAndExercise: [Int: RingQuarterHours] = [:]
    @exclusivity(unchecked) private var stood: [Int: Set<Int64>] = [:]
    private(set) var summaries: [CivilDate: ActivitySummary] = [:]

    private static let energy: Int32 = 1
    private static let exercise: Int32 = 2
    private static let standHour: Int32 = 3
    private static let hrv: Int32 = 4
    static let hrvType = "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"

    func route(type: String) -> Int32? {
        switch type {
        case TypeCatalog.fixed[CumulativeSlot.activeEnergy].identifier: return Self.energy
        case TypeCatalog.fixed[CumulativeSlot.exerciseTime].identifier: return Self.exercise
        case TypeCatalog.appleStandHour: return Self.standHour
        case Self.hrvType: return Self.hrv
        default: return nil
        }
    }

    /// Notes the record's `HKTimeZone`, if it has one. Called for every top-level record with
    /// metadata, whatever its type.
    @inline(__always)
    func observeMetadata(_ r: UnsafePointer<Record>) {
        if let zone = r.pointee.timeZoneIdentifier { zones.add(zone, at: r.pointee.startDate.secondsSince1970) }
    }

    func consume(_ r: UnsafePointer<Record>, route: Int32, context: StreamContext) {
        let start = r.pointee.startDate.secondsSince1970
        switch route {
        case Self.energy, Self.exercise:
            guard case .quantity(let q) = r.pointee.value, q.value >= 0, q.value.isFinite,
                q.unit == (route == Self.energy ? CanonicalUnit.kilocalorie : .minute)
            else { return }
            let end = r.pointee.endDate.secondsSince1970
            // Samples the cumulative types drop (and count) give no evidence either.
            guard end >= start, end - start <= CumulativeTypes.maxDurationSeconds else { return }
            // A source past the table's limit gives no evidence (its samples are dropped).
            guard let s = context.sources.index(of: r) else { return }
            if route == Self.energy {
                energyAndExercise[s, default: RingQuarterHours()].addEnergy(start: start, end: end, kcal: q.value)
            } else {
                energyAndExercise[s, default: RingQuarterHours()].addExercise(start: start, end: end, minutes: q.value)
            }
        case Self.standHour:
            guard case .category(.appleStandHour(true)) = r.pointee.value else { return }
            guard let s = context.sources.index(of: r) else { return }
            stood[s, default: []].insert(start)
        case Self.hrv:
            if let beat = r.pointee.heartbeats.first { offsets.add(recordStart: start, beatTime: beat.time) }
        default:
            break
        }
    }

    func consume(_ workout: Workout, context: StreamContext) {
        if let zone = workout.timeZoneIdentifier { zones.add(zone, at: workout.startDate.secondsSince1970) }
    }

    func consume(_ summary: ActivitySummary, context: StreamContext) { keep(summary) }

    /// Of two summaries for one date, the one with the larger ring values (order-independent).
    private func keep(_ summary: ActivitySummary) {
        func key(_ s: ActivitySummary) -> [Double] {
            [s.activeEnergyBurnedKcal, s.appleExerciseTimeMinutes, s.appleStandHours, s.appleMoveTimeMinutes].map {
                $0 ?? -1
            }
        }
        if let existing = summaries[summary.date], !key(existing).lexicographicallyPrecedes(key(summary)) { return }
        summaries[summary.date] = summary
    }

    func merge(_ other: ZoneEvidenceAccumulator, sourceMap: [Int], context: StreamContext) {
        zones.merge(other.zones)
        offsets.merge(other.offsets)
        for (s, rings) in other.energyAndExercise where sourceMap[s] >= 0 {
            energyAndExercise[sourceMap[s], default: RingQuarterHours()].merge(rings)
        }
        for (s, starts) in other.stood where sourceMap[s] >= 0 { stood[sourceMap[s], default: []].formUnion(starts) }
        for summary in other.summaries.values { keep(summary) }
    }

    func finish(_ context: inout FinishContext) {}

    /// The ring inputs of the Apple Watch sources (plain sums; each stood hour once).
    func watchRings(_ priority: SourcePriority) -> RingQuarterHours {
        let isWatch = { (s: Int) in priority.classes[priority.position[s]] == .watch }
        var rings = RingQuarterHours()
        for s in energyAndExercise.keys.sorted() where isWatch(s) { rings.merge(energyAndExercise[s]!) }
        var starts = Set<Int64>()
        for (s, set) in stood where isWatch(s) { starts.formUnion(set) }
        for t in starts { rings.addStoodHour(start: t) }
        return rings
    }
}
