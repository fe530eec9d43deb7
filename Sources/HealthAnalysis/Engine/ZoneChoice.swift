import Foundation
import HealthExport

extension Analyzer {
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

}
