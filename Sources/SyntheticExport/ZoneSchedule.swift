/// A move or trip in a synthetic export: from local date `firstDay` on, the person lives in
/// `timeZoneIdentifier` (until the next change).
public struct SyntheticZoneChange: Sendable, Equatable {
    /// `YYYY-MM-DD`: the first local day in the new zone.
    public var firstDay: String
    public var timeZoneIdentifier: String
    /// The first this many days in the new zone carry no `HKTimeZone` metadata (a Watch that
    /// recorded no workout or sleep there yet), so the export cannot name the change's day.
    public var daysWithoutTimeZoneMetadata: Int
    /// `HH:MM`: the local time in the old zone, on the day before `firstDay`, at which the person
    /// departs. From that instant on the new zone's clock is in force. Eastward, `firstDay`
    /// starts then: the travel day keeps its samples in the hours after the new zone's midnight
    /// (the hours where the two zones' dates differ), which the default (the change at the new
    /// zone's midnight, no samples in those hours) never has. Westward, the rest of the travel
    /// day is lived in the new zone's clock (its afternoon walks, workout and the Watch going off
    /// are planned at the new zone's times), and `firstDay` starts at the new zone's midnight:
    /// the travel day has samples after the departure, in the hours where the two zones' dates
    /// differ. Nil: the default.
    public var departure: String?

    public init(
        firstDay: String, timeZoneIdentifier: String, daysWithoutTimeZoneMetadata: Int = 0, departure: String? = nil
    ) {
        self.firstDay = firstDay
        self.timeZoneIdentifier = timeZoneIdentifier
        self.daysWithoutTimeZoneMetadata = daysWithoutTimeZoneMetadata
        self.departure = departure
    }

    /// `departure` as hour and minute; nil when absent or not `HH:MM`.
    var departureTime: (hour: Int, minute: Int)? {
        guard let departure else { return nil }
        let parts = departure.split(separator: ":").map { Int($0) }
        guard parts.count == 2, let h = parts[0], let m = parts[1], (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return (h, m)
    }
}

/// The zone of every generated day, and the generator's own rule for where a change takes
/// effect (written independently of the analyzer's calendar code, so that the truth checks it):
/// day D starts at the earlier of the two instants that are local midnight D in the zone of day
/// D−1 and in the zone of day D; from the new zone's midnight D on, the clock shows the new zone.
///
/// The day before a change is a travel day: the Watch comes off an hour before that day's end at
/// the latest and is not worn at night, so that no sample lies in the hours that the two zones'
/// dates disagree on. With a departure (`SyntheticZoneChange.departure`) the new zone is in
/// force from the departure instant. Eastward, the new zone's first day starts then: the travel
/// day ends at the departure and keeps its samples after the new zone's midnight. Westward, the
/// travel day runs on in the new zone's clock until its midnight (`instant(day:hour:minute:)`),
/// with samples after the departure.
struct ZoneSchedule: Sendable {
    let firstDay: Int
    /// Per day index (0 ... days, the last entry for the day after the data), an index into `clocks`.
    let zoneOfDay: [Int]
    let clocks: [ZoneClock]
    let identifiers: [String]
    /// Day indices where a new zone starts, with the instant its clock takes over.
    let changes: [(index: Int, instant: Int64)]
    /// Day indices whose day starts at a departure instant (eastward), with that instant.
    let departures: [Int: Int64]
    /// Day indices of changes with a westward departure, with the departure instant (on the
    /// day before: the travel day).
    let westwardDepartures: [Int: Int64]
    /// Instants `[start, end)` whose samples carry no `HKTimeZone`
    /// (`SyntheticZoneChange.daysWithoutTimeZoneMetadata`).
    let unnamed: [Range<Int64>]
    /// Day indices that hold no sample (`SyntheticExportConfiguration.emptyDays`).
    let emptyDays: Set<Int>

    init(_ config: SyntheticExportConfiguration, firstDay: Int) {
        self.firstDay = firstDay
        var ids = [config.timeZoneIdentifier]
        var clocks = [ZoneClock(identifier: config.timeZoneIdentifier)!]
        var zoneOfDay = Array(repeating: 0, count: config.days + 1)
        for change in config.zoneChanges.sorted(by: { $0.firstDay < $1.firstDay }) {
            let start = Civil.parse(change.firstDay)! - firstDay
            var z = ids.firstIndex(of: change.timeZoneIdentifier) ?? -1
            if z < 0 {
                z = ids.count
                ids.append(change.timeZoneIdentifier)
                clocks.append(ZoneClock(identifier: change.timeZoneIdentifier)!)
            }
            for i in max(0, start)..<zoneOfDay.count { zoneOfDay[i] = z }
        }
        self.zoneOfDay = zoneOfDay
        self.clocks = clocks
        self.identifiers = ids
        var departures: [Int: Int64] = [:]
        var westward: [Int: Int64] = [:]
        for change in config.zoneChanges {
            guard let (h, m) = change.departureTime, let day = Civil.parse(change.firstDay) else { continue }
            let index = day - firstDay
            guard index > 0, index < zoneOfDay.count else { continue }
            let (old, new) = (clocks[zoneOfDay[index - 1]], clocks[zoneOfDay[index]])
            let instant = old.instant(day: day - 1, hour: h, minute: m)
            // Westward: the new zone's midnight comes after the old one's.
            if new.midnight(day: day) > old.midnight(day: day) {
                westward[index] = instant
            } else {
                departures[index] = instant
            }
        }
        var changes: [(Int, Int64)] = []
        for i in 1..<zoneOfDay.count where zoneOfDay[i] != zoneOfDay[i - 1] {
            changes.append((i, departures[i] ?? westward[i] ?? clocks[zoneOfDay[i]].midnight(day: firstDay + i)))
        }
        self.changes = changes
        self.departures = departures
        self.westwardDepartures = westward
        var unnamed: [Range<Int64>] = []
        for change in config.zoneChanges where change.daysWithoutTimeZoneMetadata > 0 {
            let start = Civil.parse(change.firstDay)! - firstDay
            guard start > 0, start < zoneOfDay.count,
                let c = changes.first(where: { $0.0 == start })
            else { continue }
            let end = min(start + change.daysWithoutTimeZoneMetadata, zoneOfDay.count - 1)
            unnamed.append(c.1..<clocks[zoneOfDay[end]].midnight(day: firstDay + end))
        }
        if let from = config.timeZoneMetadataFrom.flatMap(Civil.parse) {
            let index = from - firstDay
            unnamed.append(Int64.min..<clocks[zoneOfDay[min(max(index, 0), zoneOfDay.count - 1)]].midnight(day: from))
        }
        self.unnamed = unnamed
        emptyDays = Set(config.emptyDays.compactMap { Civil.parse($0).map { $0 - firstDay } })
    }

    /// True when day `index` holds no sample.
    func isEmptyDay(_ index: Int) -> Bool { emptyDays.contains(index) }

    /// False for a sample starting at `t` that carries no `HKTimeZone` (the first days after a
    /// change with `daysWithoutTimeZoneMetadata`).
    func namesZone(at t: Int64) -> Bool { !unnamed.contains { $0.contains(t) } }

    /// The zone clock of day `index`.
    func clock(_ index: Int) -> ZoneClock { clocks[zoneOfDay[min(max(index, 0), zoneOfDay.count - 1)]] }

    func identifier(day index: Int) -> String { identifiers[zoneOfDay[min(max(index, 0), zoneOfDay.count - 1)]] }

    /// True when day `index + 1` is in another zone (a travel day).
    func isTravelDay(_ index: Int) -> Bool {
        index + 1 < zoneOfDay.count && zoneOfDay[index + 1] != zoneOfDay[index]
    }

    /// True when day `index` starts at a departure instant (the person lands during the day).
    func startsAtDeparture(_ index: Int) -> Bool { departures[index] != nil }

    /// True when day `index` is a travel day with a westward departure on it.
    func departsWestward(_ index: Int) -> Bool { westwardDepartures[index + 1] != nil }

    /// The instant of local `hour:minute` on day `index`, in the day's zone; on a travel day
    /// with a westward departure, in the new zone when the old zone's instant is at or after
    /// the departure (the rest of the day is lived in the new zone's clock).
    func instant(day index: Int, hour: Int, minute: Int) -> Int64 {
        let old = clock(index).instant(day: firstDay + index, hour: hour, minute: minute)
        guard let departure = westwardDepartures[index + 1], old >= departure else { return old }
        return clock(index + 1).instant(day: firstDay + index, hour: hour, minute: minute)
    }

    /// The first instant of day `index` (the rule above; after a westward departure, the new
    /// zone's midnight: the old zone's is no longer in force).
    func dayStart(_ index: Int) -> Int64 {
        if let departure = departures[index] { return departure }
        let own = clock(index).midnight(day: firstDay + index)
        guard index > 0, westwardDepartures[index] == nil else { return own }
        return min(own, clock(index - 1).midnight(day: firstDay + index))
    }

    /// The zone index in force at instant `t`: the latest change whose new-zone midnight is at or
    /// before `t`.
    func zone(at t: Int64) -> Int {
        var z = zoneOfDay[0]
        for c in changes where c.instant <= t { z = zoneOfDay[c.index] }
        return z
    }

    /// The UTC offset of the zone in force at `t`.
    func offset(at t: Int64) -> Int64 { clocks[zone(at: t)].offset(at: t) }

    func localSeconds(at t: Int64) -> Int64 { t + offset(at: t) }
}
