import Foundation

/// The system's tz database, read once from its zoneinfo folder (`/usr/share/zoneinfo`,
/// Debian's `tzdata`) through `AnalysisPlatform` (docs/days-and-time-zones.md §6):
///
/// - the **canonical zones**, one per region of the world whose clocks have agreed since 1970,
///   from `zone1970.tab` in the file's order, each with the ISO 3166 countries it covers
///   (`DE,DK,NO,SE,SJ` for `Europe/Berlin`);
/// - the **links** (backward-compatible aliases) from `tzdata.zi`'s `L` lines, so that an
///   alias resolves to the zone it names (`Asia/Calcutta` → `Asia/Kolkata`, `Europe/Kiev` →
///   `Europe/Kyiv`).
///
/// Foundation's `TimeZone.knownTimeZoneIdentifiers` is not the tz database: on Linux it lists
/// aliases (`Asia/Calcutta`) without the zones they name. Without `zone1970.tab` (a system
/// without tzdata) its list is used, with each name resolved through the links when there are
/// any; without either file, as it is.
enum ZoneDatabase {
    struct Zone: Sendable, Equatable {
        var identifier: String
        /// ISO 3166 alpha-2 codes of the countries (or parts) the zone covers, as the file lists them.
        var regions: [String]
    }

    struct Contents: Sendable {
        var zones: [Zone] = []
        /// Alias → zone (chains resolved).
        var links: [String: String] = [:]
    }

    /// Where the tz database lives.
    static let directory = "/usr/share/zoneinfo"

    /// The database of `directory`, read once.
    static let contents: Contents = read(directory: directory)

    /// Reads `zone1970.tab` and `tzdata.zi` of a zoneinfo folder; empty parts for missing files.
    static func read(directory: String) -> Contents {
        var out = Contents()
        if let text = AnalysisPlatform.readTextFile(directory + "/tzdata.zi") {
            for line in text.split(separator: "\n") where line.hasPrefix("L ") {
                let fields = line.split(separator: " ")
                guard fields.count >= 3 else { continue }
                out.links[String(fields[2])] = String(fields[1])
            }
            // Resolve chains (an alias of an alias), at most a few steps deep.
            for (alias, target) in out.links {
                var t = target
                var steps = 0
                while let next = out.links[t], steps < 8 {
                    t = next
                    steps += 1
                }
                out.links[alias] = t
            }
        }
        if let text = AnalysisPlatform.readTextFile(directory + "/zone1970.tab") {
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                guard fields.count >= 3 else { continue }
                out.zones.append(
                    Zone(identifier: String(fields[2]), regions: fields[0].split(separator: ",").map(String.init)))
            }
        }
        return out
    }

    /// The zone an identifier names: itself, or the zone an alias links to.
    static func canonical(_ identifier: String) -> String {
        contents.links[identifier] ?? identifier
    }

    /// The candidate zones of an export that names none: the canonical zones in `zone1970.tab`'s
    /// order (Foundation's list, resolved through the links, where the file is missing).
    static let candidateIdentifiers: [String] = {
        if !contents.zones.isEmpty { return contents.zones.map(\.identifier) }
        var seen = Set<String>()
        return TimeZone.knownTimeZoneIdentifiers.map(canonical).filter { seen.insert($0).inserted }
    }()

    /// The canonical zones covering a country (ISO 3166 alpha-2), in `zone1970.tab`'s order.
    static func zones(ofRegion region: String) -> [String] {
        contents.zones.filter { $0.regions.contains(region) }.map(\.identifier)
    }
}
