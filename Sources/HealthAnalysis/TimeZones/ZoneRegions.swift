/// The IANA zones of each country, from the tz database's `zone1970.tab` (`ZoneDatabase`), in
/// the file's order: a zone that covers several countries (`Europe/Berlin`: DE, DK, NO, SE, SJ)
/// is a zone of each.
///
/// Used to break a tie between zones that the export cannot tell apart by the export's own
/// locale (`HealthData locale="de_DE"` → `DE` → `Europe/Berlin`, `Europe/Zurich`), never by the
/// machine's `TZ` (docs/days-and-time-zones.md §6). Without the file, no zone has a region and
/// the tie falls to the next rule.
enum ZoneRegions {
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
        region(ofLocale: locale).map { ZoneDatabase.zones(ofRegion: $0) } ?? []
    }
}
