import Foundation

/// The IANA zones of each country, from the tz database's `zone.tab` (the file the system's
/// time zones come from: `/usr/share/zoneinfo/zone.tab`, Debian's `tzdata`), in the file's order.
///
/// Used to break a tie between zones that the export cannot tell apart by the export's own
/// locale (`HealthData locale="de_DE"` → `DE` → `Europe/Berlin`, `Europe/Busingen`), never by the
/// machine's `TZ` (docs/days-and-time-zones.md §6). Without the file, no zone has a region and
/// the tie falls to the next rule.
enum ZoneRegions {
    /// Zone identifiers by ISO 3166 alpha-2 code, read once.
    static let byRegion: [String: [String]] = {
        guard let text = try? String(contentsOfFile: "/usr/share/zoneinfo/zone.tab", encoding: .utf8) else {
            return [:]
        }
        var out: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, fields[0].count == 2 else { continue }
            out[String(fields[0]), default: []].append(String(fields[2]))
        }
        return out
    }()

    /// The region of a locale identifier: the last part that is two capital letters or three
    /// digits (`en_US` → `US`, `zh_Hans_CN` → `CN`, `es_419` → nil: a region of many countries);
    /// nil without one (`en`).
    static func region(ofLocale locale: String?) -> String? {
        guard let locale else { return nil }
        let parts = locale.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "@" || $0 == "." }).dropFirst()
        return parts.last { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isUppercase } }.map(String.init)
    }

    /// The zones of the locale's region (empty without a region or without the file).
    static func zones(ofLocale locale: String?) -> [String] {
        region(ofLocale: locale).flatMap { byRegion[$0] } ?? []
    }
}
