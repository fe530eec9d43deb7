import Foundation
import SyntheticExport
import Testing

/// Exports without `HKTimeZone` in zones at every offset from −11:00 to +14:00 (half- and
/// quarter-hour zones included), and moves between them: `daily.csv` must hold the generator's
/// true days, each named by its zone or by a stand-in with the same offsets on every day of the
/// data (docs/days-and-time-zones.md §6). `scripts/zone-truth` counts the same scenarios.
@Suite("Every offset from -11:00 to +14:00 without HKTimeZone")
struct EveryZoneTests {
    struct Move: CustomTestStringConvertible, Sendable {
        var from: String
        var to: String
        var firstDay: String
        var days: Int
        var changeDay: String
        var locale: String
        var seed: UInt64
        var testDescription: String { "\(from) to \(to)" }
    }

    /// The moves of the tz-database candidates. Before the candidates came from the tz database,
    /// Kolkata was no candidate (Foundation's list on Linux names only Asia/Calcutta), Kiritimati
    /// (+14) was none either, and HRV beat times at −10:00/−11:00 read as +14:00/+13:00: of
    /// these moves' 318 days, 173 were right (scripts/zone-truth --moves with main's binary).
    static let moves: [Move] = [
        Move(
            from: "Asia/Kolkata", to: "Europe/Berlin", firstDay: "2025-01-06", days: 29, changeDay: "2025-01-21",
            locale: "hi_IN", seed: 100),
        Move(
            from: "Asia/Kolkata", to: "Asia/Singapore", firstDay: "2025-01-06", days: 29, changeDay: "2025-01-21",
            locale: "en_IN", seed: 101),
        Move(
            from: "Pacific/Kiritimati", to: "Pacific/Honolulu", firstDay: "2025-01-06", days: 29,
            changeDay: "2025-01-18", locale: "en_KI", seed: 102),
        Move(
            from: "Pacific/Auckland", to: "Pacific/Honolulu", firstDay: "2025-01-06", days: 29,
            changeDay: "2025-01-21", locale: "en_NZ", seed: 103),
        Move(
            from: "Pacific/Pago_Pago", to: "Pacific/Tahiti", firstDay: "2025-01-06", days: 24,
            changeDay: "2025-01-18", locale: "en_AS", seed: 108),
        Move(
            from: "Pacific/Chatham", to: "America/St_Johns", firstDay: "2025-01-06", days: 24,
            changeDay: "2025-01-18", locale: "en_NZ", seed: 109),
        Move(
            from: "Asia/Kathmandu", to: "Australia/Adelaide", firstDay: "2025-01-06", days: 24,
            changeDay: "2025-01-18", locale: "ne_NP", seed: 110),
        Move(
            from: "Pacific/Marquesas", to: "Europe/Kyiv", firstDay: "2025-01-06", days: 24,
            changeDay: "2025-01-18", locale: "fr_PF", seed: 111),
    ]

    /// One zone per offset from −11:00 to +14:00 in January (northern standard time, southern
    /// summer time), each with a locale of its country.
    static let zones: [(zone: String, locale: String)] = [
        ("Pacific/Pago_Pago", "en_AS"), ("Pacific/Honolulu", "en_US"), ("Pacific/Marquesas", "fr_PF"),
        ("America/Anchorage", "en_US"), ("America/Los_Angeles", "en_US"), ("America/Denver", "en_US"),
        ("America/Mexico_City", "es_MX"), ("America/Bogota", "es_CO"), ("America/Caracas", "es_VE"),
        ("America/St_Johns", "en_CA"), ("America/Sao_Paulo", "pt_BR"), ("Atlantic/South_Georgia", "en_GS"),
        ("Atlantic/Cape_Verde", "pt_CV"), ("Europe/London", "en_GB"), ("Europe/Paris", "fr_FR"),
        ("Africa/Johannesburg", "en_ZA"), ("Europe/Moscow", "ru_RU"), ("Asia/Tehran", "fa_IR"),
        ("Asia/Dubai", "ar_AE"), ("Asia/Kabul", "fa_AF"), ("Asia/Karachi", "ur_PK"), ("Asia/Kolkata", "hi_IN"),
        ("Asia/Kathmandu", "ne_NP"), ("Asia/Dhaka", "bn_BD"), ("Asia/Yangon", "my_MM"), ("Asia/Bangkok", "th_TH"),
        ("Australia/Perth", "en_AU"), ("Australia/Eucla", "en_AU"), ("Asia/Tokyo", "ja_JP"),
        ("Australia/Darwin", "en_AU"), ("Australia/Brisbane", "en_AU"), ("Australia/Adelaide", "en_AU"),
        ("Australia/Sydney", "en_AU"), ("Pacific/Fiji", "en_FJ"), ("Pacific/Auckland", "en_NZ"),
        ("Pacific/Chatham", "en_NZ"), ("Pacific/Kiritimati", "en_KI"), ("Europe/Kyiv", "uk_UA"),
    ]

    /// True when zones `a` and `b` have the same offset at every quarter-hour from a day before
    /// `first` to a day after the `days` days: either names the other's days exactly.
    static func sameOffsets(_ a: String, _ b: String, first: String, days: Int) -> Bool {
        guard a != b else { return true }
        guard let za = TimeZone(identifier: a), let zb = TimeZone(identifier: b) else { return false }
        let parts = first.split(separator: "-").compactMap { Int($0) }
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let day = utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
        let start = Int64(day.timeIntervalSince1970) - 86_400
        for q in 0..<((days + 2) * 96) {
            let d = Date(timeIntervalSince1970: Double(start + Int64(q) * 900))
            if za.secondsFromGMT(for: d) != zb.secondsFromGMT(for: d) { return false }
        }
        return true
    }

    /// Generates, reports (TZ=UTC), and returns daily.csv's rows, report.md and the truth.
    static func report(_ configuration: SyntheticExportConfiguration) throws -> (
        rows: [[String: String]], report: String, truth: SyntheticTruth
    ) {
        let dir = try temporaryFolder()
        let (bytes, truth) = SyntheticExport.makeExport(configuration)
        let xml = dir.appendingPathComponent("export.xml")
        try Data(bytes).write(to: xml)
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", xml.path, "--out", out.path], environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try readPlainCSV(out.appendingPathComponent("daily.csv"))
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        return (rows, report, truth)
    }

    @Test(arguments: moves)
    func aMoveWithoutHKTimeZoneHasTheTrueDays(move: Move) throws {
        let configuration = SyntheticExportConfiguration(
            firstDay: move.firstDay, days: move.days, timeZoneIdentifier: move.from, seed: move.seed,
            locale: move.locale,
            zoneChanges: [SyntheticZoneChange(firstDay: move.changeDay, timeZoneIdentifier: move.to)],
            writesTimeZoneMetadata: false)
        let (rows, report, truth) = try Self.report(configuration)
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        expectTrueDays(rows, truth, name: move.testDescription)
        // Each day in its zone, or in a stand-in with the same offsets on every day of the data;
        // the first zone (the locale's country) by its own name.
        for (row, zone) in zip(rows, truth.dayTimeZoneIdentifiers) {
            let named = row["time_zone"]!
            #expect(
                Self.sameOffsets(named, zone, first: move.firstDay, days: move.days),
                "\(row["date"]!): \(named) for \(zone)")
            if zone == move.from { #expect(named == move.from, "\(row["date"]!)") }
        }
        #expect(report.contains("on \(truth.days.count) days: \(truth.days.count) agree (100%)"), "\(report)")
        // A stand-in is named as such in report.md (Singapore's days are Shanghai's: +08:00,
        // no DST, and Shanghai is the more populous; the locale en_IN names India).
        if move.to == "Asia/Singapore" {
            #expect(report.contains("Time zone: Asia/Shanghai stands in for "), "\(report)")
            #expect(report.contains("Asia/Singapore"), "\(report)")
        }
    }

    @Test func everyOffsetFromMinusElevenToPlusFourteenIsReadAsItself() throws {
        // 38 zones, 10 days each from 2025-01-06; every day in its own zone by name (the
        // locale's country breaks ties between zones with the same offsets).
        for (k, z) in Self.zones.enumerated() {
            let configuration = SyntheticExportConfiguration(
                firstDay: "2025-01-06", days: 10, timeZoneIdentifier: z.zone, seed: UInt64(200 + k),
                locale: z.locale, writesTimeZoneMetadata: false)
            let (rows, _, truth) = try Self.report(configuration)
            #expect(rows.map { $0["date"]! } == truth.days.map(\.date), "\(z.zone)")
            #expect(Set(rows.map { $0["time_zone"]! }) == [z.zone], "\(z.zone)")
            expectTrueDays(rows, truth, name: z.zone)
        }
    }

    @Test(arguments: [moves[0], moves[2], moves[6]])
    func hkTimeZoneThatBeginsAfterTheMoveLeavesTheDaysBeforeToTheirEvidence(move: Move) throws {
        // Only the new zone is ever named (HKTimeZone from the first day in it): the days before
        // were all read in the new zone (São Paulo to Johannesburg: 14 of 29 days wrong, with a
        // warning blaming a second Watch). Their ActivitySummary and HRV beat times fit the old
        // zone, which now wins, and report.md names that evidence.
        var configuration = SyntheticExportConfiguration(
            firstDay: move.firstDay, days: move.days, timeZoneIdentifier: move.from, seed: move.seed,
            locale: move.locale,
            zoneChanges: [SyntheticZoneChange(firstDay: move.changeDay, timeZoneIdentifier: move.to)])
        configuration.timeZoneMetadataFrom = move.changeDay
        let (rows, report, truth) = try Self.report(configuration)
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        #expect(rows.map { $0["time_zone"]! } == truth.dayTimeZoneIdentifiers)
        expectTrueDays(rows, truth, name: move.testDescription)
        #expect(report.contains("on \(truth.days.count) days: \(truth.days.count) agree (100%)"), "\(report)")
        // The note names the evidence: the summaries (every day before the change agrees in
        // either zone when the Watch is worn only while both show the same date) and the beat
        // times (which only the old zone's offset explains).
        let from = move.from.replacingOccurrences(of: "_", with: "\\_")
        let to = move.to.replacingOccurrences(of: "_", with: "\\_")
        let note = try #require(report.split(separator: "\n").first { $0.hasPrefix("- Time zone: no sample before ") })
        #expect(note.contains(" names a zone, and the days before fit \(from) (ActivitySummary: "), "\(note)")
        #expect(note.contains("better than \(to), the first zone named (ActivitySummary: "), "\(note)")
        #expect(note.contains("HRV beat times: "), "\(note)")
        #expect(note.hasSuffix("they are read in \(from)."), "\(note)")
    }

    @Test func aZoneChosenByPopulationAmongTheRegionsOwnListsTheOthers() throws {
        // Melbourne (+11:00 all January) without HKTimeZone, en_AU: its group of 13 holds five
        // Australian zones (Sydney, Melbourne, Hobart, Lord Howe, Macquarie) and +11:00 zones of
        // Russia and the Pacific; the region leaves five, and population picks Sydney. docs/days-and-time-zones.md
        // §6 item 3 lists the others then; main's binary gave no note, as for a zone the region
        // alone decided.
        let configuration = SyntheticExportConfiguration(
            firstDay: "2025-01-06", days: 10, timeZoneIdentifier: "Australia/Melbourne", seed: 41, locale: "en_AU",
            writesTimeZoneMetadata: false)
        let (rows, report, truth) = try Self.report(configuration)
        expectTrueDays(rows, truth, name: "Melbourne, en_AU")
        #expect(Set(rows.map { $0["time_zone"]! }) == ["Australia/Sydney"])
        let note = try #require(
            report.split(separator: "\n").first { $0.hasPrefix("- Time zone: Australia/Sydney stands in for ") },
            "\(report)")
        #expect(note.contains("with the same offsets as your data on every day (also "), "\(note)")
        #expect(note.contains("Australia/Melbourne"), "\(note)")
        #expect(!note.contains("suggests"), "\(note)")
    }

    @Test func aStandInIsNamedWithTheZoneTheLocaleSuggests() throws {
        // Lagos (+01:00 all year) across Paris's 2025-03-30 change, with the locale fr_FR: the
        // Paris zones differ from the data from 03-30 on, so Africa/Lagos's group (no zone of
        // FR) is named, and report.md says that the locale suggests Europe/Paris.
        let configuration = SyntheticExportConfiguration(
            firstDay: "2025-03-24", days: 14, timeZoneIdentifier: "Africa/Lagos", seed: 31, locale: "fr_FR",
            writesTimeZoneMetadata: false)
        let (rows, report, truth) = try Self.report(configuration)
        expectTrueDays(rows, truth, name: "Lagos, fr_FR")
        #expect(Set(rows.map { $0["time_zone"]! }) == ["Africa/Lagos"])
        #expect(
            report.contains(
                "Time zone: Africa/Lagos has the same offsets as your data on every day; your export's locale (fr\\_FR, region FR) suggests Europe/Paris"
            ), "\(report)")
    }
}
