import Foundation
import HealthExport

/// A run of `HKTimeZone` samples naming one IANA zone: its first and last instants and how many
/// samples (docs/days-and-time-zones.md §4, §5).
struct ZoneRun {
    var id: String
    var tz: TimeZone
    var first: Int64
    var last: Int64
    var count: Int
}

extension ZoneTimelineBuilder {
    /// `HKTimeZone` counts without instants (a reader's summary): one period in the most frequent
    /// IANA zone, ties by name (docs/days-and-time-zones.md §4); nil when no name is an IANA zone.
    func fromCountsAlone() -> ZoneTimeline? {
        // Each zone as if seen once, the most frequent last (ties by name).
        let ranked = counts.filter { $0.value > 0 }.sorted { a, b in
            a.value != b.value ? a.value < b.value : a.key > b.key
        }
        guard
            let (top, topZone) = ranked.reversed().lazy.compactMap({ e in TimeZone.iana(e.key).map { (e, $0) } })
                .first
        else { return nil }
        var unknown: [String: Int] = [:]
        for (name, n) in ranked where TimeZone.iana(name) == nil { unknown[name] = n }
        return .single(
            top.key, topZone, reason: .hkTimeZone(samples: top.value),
            notes: unknown.isEmpty ? [] : [.ignoredNonIANA(unknown)])
    }

    /// The evidence stage (docs/days-and-time-zones.md §5): the runs of `HKTimeZone` samples in
    /// time order, consecutive observations of one zone merged. Names that are not IANA zones are
    /// left out, and a stray value (at most 2 samples within a day) between two runs of one zone
    /// is taken for noise (a sample synced from another device), not for a trip; both are noted.
    func hkTimeZoneRuns(notes: inout [ZoneNote]) -> [ZoneRun] {
        var runs: [ZoneRun] = []
        var zones: [String: TimeZone] = [:]
        var unknown: [String: Int] = [:]
        for (name, e) in evidence.observations {
            let tz: TimeZone
            if let known = zones[name] {
                tz = known
            } else if let found = TimeZone.iana(name) {
                tz = found
                zones[name] = found
            } else {
                unknown[name, default: 0] += e.count
                continue
            }
            if let last = runs.last, last.id == name {
                runs[runs.count - 1].last = max(last.last, e.last)
                runs[runs.count - 1].count += e.count
            } else {
                runs.append(ZoneRun(id: name, tz: tz, first: e.first, last: e.last, count: e.count))
            }
        }
        if !unknown.isEmpty { notes.append(.ignoredNonIANA(unknown)) }
        var k = 1
        while k + 1 < runs.count {
            let r = runs[k]
            if r.count <= 2 && r.last - r.first < 86_400 && runs[k - 1].id == runs[k + 1].id {
                notes.append(.strayValue(count: r.count, zone: r.id, between: runs[k - 1].id))
                runs[k - 1].last = runs[k + 1].last
                runs[k - 1].count += runs[k + 1].count
                runs.removeSubrange(k...(k + 1))
            } else {
                k += 1
            }
        }
        return runs
    }
}
