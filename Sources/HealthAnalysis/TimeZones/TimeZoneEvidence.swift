/// The `HKTimeZone` values of an export with the instants they were seen at (docs/export-format.md §7.5,
/// docs/days-and-time-zones.md §4): the evidence a zone timeline is built from.
///
/// Compact whatever the export's size: one entry per UTC hour and zone seen (a count and the
/// first and last instant), so a year of data with a zone on every sleep stage and workout is a
/// few thousand entries. Two evidences of parts of one export merge exactly (for parallel
/// parsing): the result does not depend on the order records arrive in.
///
/// Zone names are kept as written; whether they are IANA zones is decided by `ZoneTimeline`.
struct TimeZoneEvidence: Sendable {
    /// One UTC hour's observations of one zone.
    struct Entry: Sendable, Equatable {
        var count: Int
        var first: Int64
        var last: Int64
    }

    private(set) var zoneNames: [String] = []
    private var indexByName: [String: Int] = [:]
    /// Key: UTC hour number × 4096 + zone index.
    private var entries: [Int64: Entry] = [:]
    private var lastName: String = ""
    private var lastIndex = -1

    static let zoneLimit = 4096

    init() {}

    /// Notes that a sample at instant `t` (UTC seconds) carried `HKTimeZone = name`.
    /// - Complexity: O(1) amortized; one string comparison when the zone is the previous one's.
    mutating func add(_ name: String, at t: Int64) {
        let zone: Int
        if lastIndex >= 0 && name == lastName {
            zone = lastIndex
        } else if let known = indexByName[name] {
            zone = known
        } else {
            guard zoneNames.count < Self.zoneLimit else { return }
            zone = zoneNames.count
            zoneNames.append(name)
            indexByName[name] = zone
        }
        lastName = name
        lastIndex = zone
        add(zone: zone, count: 1, first: t, last: t, hour: floorDiv(t, 3600))
    }

    private mutating func add(zone: Int, count: Int, first: Int64, last: Int64, hour: Int64) {
        let key = hour * Int64(Self.zoneLimit) + Int64(zone)
        if var e = entries[key] {
            e.count += count
            e.first = min(e.first, first)
            e.last = max(e.last, last)
            entries[key] = e
        } else {
            entries[key] = Entry(count: count, first: first, last: last)
        }
    }

    /// Adds everything `other` saw.
    mutating func merge(_ other: TimeZoneEvidence) {
        for (key, e) in other.entries {
            let hour = floorDiv(key, Int64(Self.zoneLimit))
            let otherZone = Int(key - hour * Int64(Self.zoneLimit))
            let name = other.zoneNames[otherZone]
            let zone: Int
            if let known = indexByName[name] {
                zone = known
            } else {
                guard zoneNames.count < Self.zoneLimit else { continue }
                zone = zoneNames.count
                zoneNames.append(name)
                indexByName[name] = zone
            }
            add(zone: zone, count: e.count, first: e.first, last: e.last, hour: hour)
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    /// How many samples named each zone.
    var counts: [String: Int] {
        var c: [String: Int] = [:]
        for (key, e) in entries {
            let zone = Int(key - floorDiv(key, Int64(Self.zoneLimit)) * Int64(Self.zoneLimit))
            c[zoneNames[zone], default: 0] += e.count
        }
        return c
    }

    /// Every hour's observations, ordered by first instant (then zone name, so that the order
    /// never depends on the input order).
    var observations: [(zone: String, entry: Entry)] {
        entries.map { key, e in
            let zone = Int(key - floorDiv(key, Int64(Self.zoneLimit)) * Int64(Self.zoneLimit))
            return (zoneNames[zone], e)
        }.sorted { a, b in
            if a.entry.first != b.entry.first { return a.entry.first < b.entry.first }
            if a.zone != b.zone { return a.zone < b.zone }
            return a.entry.last < b.entry.last
        }
    }
}
