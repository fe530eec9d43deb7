import Foundation
import SyntheticExport
import Testing

/// Moves east and west of 1, 3, 9 and 15 hours, with `HKTimeZone`, with it only from the move
/// on, and without it; and a move onto the last day of the data. `daily.csv` must hold the
/// generator's true days, each in its true zone or a stand-in with the same offsets on every day
/// (docs/days-and-time-zones.md §5, §6.1). `scripts/zone-truth --sizes` counts the same scenarios.
///
/// The generator keeps samples out of the hours where the two zones' dates differ (its travel
/// day ends an hour early); the moves with a departure instant (`scripts/zone-truth
/// --departures`) put samples into those hours, so that where a move is placed inside them
/// shows (docs/days-and-time-zones.md §5).
@Suite("Moves of 1, 3, 9 and 15 hours against the generator's truth")
struct MoveSizeTests {
    typealias Move = EveryZoneTests.Move

    enum Metadata: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case everywhere, fromTheMove, none
        var testDescription: String { rawValue }
    }

    /// January: London +00:00, Paris +01:00, Dubai +04:00, Los Angeles −08:00, Bangkok +07:00.
    static let moves: [Move] = [
        Move(
            from: "Europe/London", to: "Europe/Paris", firstDay: "2025-01-06", days: 20, changeDay: "2025-01-16",
            locale: "en_GB", seed: 300),
        Move(
            from: "Europe/Paris", to: "Europe/London", firstDay: "2025-01-06", days: 20, changeDay: "2025-01-16",
            locale: "fr_FR", seed: 301),
        Move(
            from: "Europe/Paris", to: "Asia/Dubai", firstDay: "2025-01-06", days: 20, changeDay: "2025-01-16",
            locale: "fr_FR", seed: 302),
        Move(
            from: "Asia/Dubai", to: "Europe/Paris", firstDay: "2025-01-06", days: 20, changeDay: "2025-01-16",
            locale: "ar_AE", seed: 303),
        Move(
            from: "America/Los_Angeles", to: "Europe/Paris", firstDay: "2025-01-06", days: 20,
            changeDay: "2025-01-16", locale: "en_US", seed: 304),
        Move(
            from: "Europe/Paris", to: "America/Los_Angeles", firstDay: "2025-01-06", days: 20,
            changeDay: "2025-01-16", locale: "fr_FR", seed: 305),
        Move(
            from: "America/Los_Angeles", to: "Asia/Bangkok", firstDay: "2025-01-06", days: 20,
            changeDay: "2025-01-16", locale: "en_US", seed: 306),
        Move(
            from: "Asia/Bangkok", to: "America/Los_Angeles", firstDay: "2025-01-06", days: 20,
            changeDay: "2025-01-16", locale: "th_TH", seed: 307),
    ]

    static func configuration(_ move: Move, _ metadata: Metadata) -> SyntheticExportConfiguration {
        var configuration = SyntheticExportConfiguration(
            firstDay: move.firstDay, days: move.days, timeZoneIdentifier: move.from, seed: move.seed,
            locale: move.locale,
            zoneChanges: [SyntheticZoneChange(firstDay: move.changeDay, timeZoneIdentifier: move.to)],
            writesTimeZoneMetadata: metadata != .none)
        if metadata == .fromTheMove { configuration.timeZoneMetadataFrom = move.changeDay }
        return configuration
    }

    @Test(arguments: moves, Metadata.allCases)
    func theDaysAroundAMoveAreTheTrueDays(move: Move, metadata: Metadata) throws {
        let (rows, report, truth) = try EveryZoneTests.report(Self.configuration(move, metadata))
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        expectTrueDays(rows, truth, name: "\(move.testDescription), \(metadata)")
        for (row, zone) in zip(rows, truth.dayTimeZoneIdentifiers) {
            let named = row["time_zone"]!
            #expect(
                EveryZoneTests.sameOffsets(named, zone, first: move.firstDay, days: move.days),
                "\(row["date"]!): \(named) for \(zone)")
        }
        #expect(report.contains("on \(truth.days.count) days: \(truth.days.count) agree (100%)"), "\(report)")
    }

    /// The same moves with the travel day (2025-01-15, the day before the change) holding no
    /// sample at all: only its `ActivitySummary` (zero rings, the goals) is written, and the
    /// night before has no sleep tracking. `scripts/zone-truth --empty` counts the same.
    @Test(arguments: moves, Metadata.allCases)
    func aTravelDayWithoutSamplesIsATrueEmptyDayInTheOldZone(move: Move, metadata: Metadata) throws {
        // Nothing on 01-15 tells the zones apart; it is read in the old zone, as with
        // HKTimeZone (docs/days-and-time-zones.md §5, §6.1). Without HKTimeZone main's binary
        // moved the change onto 01-15 (the earliest day the evidence allowed) and named it by
        // the new zone in all 8 moves (scripts/zone-truth --empty: 152 of 160 days); with
        // HKTimeZone, and from the move, it already read all 160. The values are zero either
        // way: 01-14's last samples end before both zones' midnights, 01-16's first start after.
        var configuration = Self.configuration(move, metadata)
        configuration.emptyDays = ["2025-01-15"]
        let (rows, _, truth) = try EveryZoneTests.report(configuration)
        let travel = try #require(truth.days.first { $0.date == "2025-01-15" })
        #expect(travel.steps == 0 && travel.standHourRecords == 0 && travel.heartRateSampleCount == 0)
        #expect(travel.activitySummary.appleStandHoursGoal == 12)
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        expectTrueZones(rows, truth, move)
        // daily.csv keeps the day (its ActivitySummary) with empty cells where there were no
        // records, and the summary's zeros for the rings.
        let row = try #require(rows.first { $0["date"] == "2025-01-15" })
        for column in ["steps", "distance_km", "active_energy_kcal", "heart_rate_max_bpm"] {
            #expect(row[column] ?? "" == "", "\(column): \(row)")
        }
        for column in ["move_kcal", "exercise_min", "stand_hours", "workouts"] {
            #expect(Double(row[column] ?? "") ?? 0 == 0, "\(column): \(row)")
        }
        #expect(EveryZoneTests.sameOffsets(row["time_zone"]!, move.from, first: move.firstDay, days: move.days))
        // Every other day as the truth has it.
        var others = truth
        others.days.removeAll { $0.date == "2025-01-15" }
        expectTrueDays(
            rows.filter { $0["date"] != "2025-01-15" }, others,
            name: "\(move.testDescription), the travel day empty, \(metadata)")
    }

    @Test func aMoveOntoTheLastDayFollowsTheEvidenceAfterTheLastNamedZone() throws {
        // Perth (+08:00) to Brisbane (+10:00) on 2025-05-24, the last of 20 days. No sample on
        // that day names a zone (no night on the last day, no workout): the last HKTimeZone is
        // Perth's, and main's binary read 05-24 in Perth, its stand hours two hours early at
        // +08:00 (the last at 20:00 instead of 22:00), with only an info note. The export was made at +10:00,
        // and the day's HRV beat times have +10:00 (3 of the 4 lists after the last Perth
        // sample; the 4th is the travel day's, in Perth), so the day is read at +10:00.
        let move = Move(
            from: "Australia/Perth", to: "Australia/Brisbane", firstDay: "2025-05-05", days: 20,
            changeDay: "2025-05-24", locale: "en_AU", seed: 309)
        let configuration = Self.configuration(move, .everywhere)
        let dir = try temporaryFolder()
        let (bytes, truth) = SyntheticExport.makeExport(configuration)
        let xml = dir.appendingPathComponent("export.xml")
        try Data(bytes).write(to: xml)
        let out = dir.appendingPathComponent("out")
        let r = try run(["report", xml.path, "--out", out.path], environment: ["TZ": "UTC"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try readPlainCSV(out.appendingPathComponent("daily.csv"))
        expectTrueDays(rows, truth, name: "Perth to Brisbane on the last day")
        let last = try #require(rows.last)
        #expect(last["date"] == "2025-05-24")
        #expect(EveryZoneTests.sameOffsets(last["time_zone"]!, "Australia/Brisbane", first: "2025-05-05", days: 20))
        let standHours = try readPlainCSV(out.appendingPathComponent("stand_hours.csv"))
        let lastDay = standHours.filter { $0["date"] == "2025-05-24" }
        #expect(!lastDay.isEmpty)
        #expect(lastDay.allSatisfy { $0["utc_offset"] == "+10:00" }, "\(lastDay)")
        #expect(lastDay.last?["hour"] == "22", "\(lastDay)")
        let report = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(
            report.contains(
                "- Time zone: no sample after 2025-05-23 names a zone, the export was made at UTC+10:00, and the days after fit "
            ), "\(report)")
        #expect(!report.contains("the phone was elsewhere at export time"), "\(report)")
    }

    /// Zones chosen from evidence around the HKTimeZone runs: the move, its metadata, the zone
    /// named on the day before the first or after the last named sample, and the start of the
    /// stand-in note.
    static let standIns: [(move: Move, metadata: Metadata, day: String, zone: String, note: String)] = [
        // Perth (+08:00) to Brisbane (+10:00) on the last of 20 days in May (en_AU): the day
        // after the last named sample is read at +10:00, in a group of 10 zones (Sydney has left
        // summer time by May), 6 of them Australian; Sydney is the first by population.
        (
            Move(
                from: "Australia/Perth", to: "Australia/Brisbane", firstDay: "2025-05-05", days: 20,
                changeDay: "2025-05-24", locale: "en_AU", seed: 309), .everywhere, "2025-05-24",
            "Australia/Sydney",
            "- Time zone: Australia/Sydney stands in for 10 zones with the same offsets as your data on every day (also Antarctica/Macquarie, Australia/Brisbane,"
        ),
        // São Paulo (−03:00) to Johannesburg (+02:00) on 2025-03-17, HKTimeZone only from the
        // move (pt_BR): the days before are read in São Paulo's group of 30 zones at −03:00 all
        // month, 8 of them Brazilian; São Paulo is the first by population.
        (
            Move(
                from: "America/Sao_Paulo", to: "Africa/Johannesburg", firstDay: "2025-03-03", days: 29,
                changeDay: "2025-03-17", locale: "pt_BR", seed: 104), .fromTheMove, "2025-03-03",
            "America/Sao_Paulo",
            "- Time zone: America/Sao\\_Paulo stands in for 30 zones with the same offsets as your data on every day (also America/Araguaina, America/Bahia,"
        ),
    ]

    @Test(arguments: 0..<2)
    func zonesBeforeTheFirstAndAfterTheLastNamedZoneAreNamedAsStandIns(index: Int) throws {
        // Named among their group as in docs/days-and-time-zones.md §6, and report.md says when
        // one stands in for others; main's binary named them without the note.
        let c = Self.standIns[index]
        let (rows, report, truth) = try EveryZoneTests.report(Self.configuration(c.move, c.metadata))
        expectTrueDays(rows, truth, name: "\(c.move.testDescription), \(c.metadata)")
        #expect(rows.first { $0["date"] == c.day }?["time_zone"] == c.zone)
        #expect(report.contains(c.note), "\(report)")
    }

    @Test(arguments: Metadata.allCases)
    func aMoveIsPlacedAtTheDepartureInstant(metadata: Metadata) throws {
        // Los Angeles (−08:00) to Tokyo (+09:00), departing at 14:00 Los Angeles time on
        // 2025-01-15 (22:00Z, 07:00 in Tokyo on 01-16). The truth files every instant under its
        // date in the zone in force then: 01-15 runs from 00:00 to 14:00 in Los Angeles (14 h),
        // 01-16 from 07:00 in Tokyo (17 h). Tokyo's midnight starting 01-16 is 07:00 on 01-15 in
        // Los Angeles; the Watch is worn on 01-15 until 13:00 at the latest. Main's binary placed
        // the change at Tokyo's midnight and filed the travel day's hours from 07:00 to 13:00
        // under 01-16: 2,052 steps on 01-15 where the truth has 6,147 and 15,680 on 01-16 where
        // it has 11,585, the same with HKTimeZone, from the move and without (scripts/zone-truth
        // --departures: 18 of 20 days in each). The change now sits after the travel day's last
        // ring data, where the two days' ActivitySummary rows agree (docs/days-and-time-zones.md §5).
        let move = Move(
            from: "America/Los_Angeles", to: "Asia/Tokyo", firstDay: "2025-01-06", days: 20,
            changeDay: "2025-01-16", locale: "en_US", seed: 320)
        var configuration = Self.configuration(move, metadata)
        configuration.zoneChanges[0].departure = "14:00"
        let (rows, report, truth) = try EveryZoneTests.report(configuration)
        #expect(truth.days.map(\.date) == rows.map { $0["date"]! })
        // The Watch comes off an hour before the departure: its last ring data ends at 13:00.
        #expect(
            report.contains(
                "the move is placed at 2025-01-15 13:00 America/Los\\_Angeles time, after the last Watch ring data there"
            ),
            "\(report)")
        let travel = try #require(truth.days.first { $0.date == "2025-01-15" })
        #expect(travel.steps == 6_147)
        #expect(travel.hours == 14)
        #expect(truth.days.first { $0.date == "2025-01-16" }?.hours == 17)
        #expect(rows.first { $0["date"] == "2025-01-15" }?["steps"] == "6147")
        #expect(rows.first { $0["date"] == "2025-01-16" }?["steps"] == "11585")
        expectTrueDays(rows, truth, name: "Los Angeles to Tokyo departing 14:00, \(metadata)")
        expectTrueZones(rows, truth, move)
    }

    /// Eastward moves of 1, 3, 9 and 15 hours with a departure instant on the travel day (the
    /// old zone's time), each with samples after the new zone's midnight (where the two zones'
    /// dates differ) but for London to Paris, whose Watch comes off before 23:00. The same moves and
    /// seeds as `scripts/zone-truth --departures`.
    static let departures: [(move: Move, departure: String)] = [
        (
            Move(
                from: "Europe/London", to: "Europe/Paris", firstDay: "2025-01-06", days: 20,
                changeDay: "2025-01-16", locale: "en_GB", seed: 322), "23:45"
        ),
        (
            Move(
                from: "Europe/Paris", to: "Asia/Dubai", firstDay: "2025-01-06", days: 20, changeDay: "2025-01-16",
                locale: "fr_FR", seed: 321), "23:00"
        ),
        (
            Move(
                from: "America/Los_Angeles", to: "Europe/Paris", firstDay: "2025-01-06", days: 20,
                changeDay: "2025-01-16", locale: "en_US", seed: 323), "20:00"
        ),
        (
            Move(
                from: "America/Los_Angeles", to: "Asia/Bangkok", firstDay: "2025-01-06", days: 20,
                changeDay: "2025-01-16", locale: "en_US", seed: 324), "15:00"
        ),
    ]

    @Test(arguments: 0..<4, Metadata.allCases)
    func theDaysAroundADepartureAreTheTrueDays(index: Int, metadata: Metadata) throws {
        let (move, departure) = Self.departures[index]
        var configuration = Self.configuration(move, metadata)
        configuration.zoneChanges[0].departure = departure
        let (rows, _, truth) = try EveryZoneTests.report(configuration)
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        expectTrueDays(rows, truth, name: "\(move.testDescription) departing \(departure), \(metadata)")
        expectTrueZones(rows, truth, move)
    }

    /// Westward moves of 1, 3, 9 and 15 hours with a departure instant on the travel day (the
    /// old zone's time): the rest of 01-15 is lived in the new zone's clock (its afternoon
    /// walks, workout and the Watch going off at the new zone's times), so samples lie after the
    /// departure and, but for Paris to London (the Watch off by 22:45 London time), after the
    /// old zone's midnight, still on 01-15. The same moves and seeds as
    /// `scripts/zone-truth --westward`.
    static let westward: [(move: Move, departure: String)] = [
        (
            Move(
                from: "Europe/Paris", to: "Europe/London", firstDay: "2025-01-06", days: 20,
                changeDay: "2025-01-16", locale: "fr_FR", seed: 330), "16:00"
        ),
        (
            Move(
                from: "Asia/Dubai", to: "Europe/Paris", firstDay: "2025-01-06", days: 20, changeDay: "2025-01-16",
                locale: "ar_AE", seed: 331), "15:00"
        ),
        (
            Move(
                from: "Europe/Paris", to: "America/Los_Angeles", firstDay: "2025-01-06", days: 20,
                changeDay: "2025-01-16", locale: "fr_FR", seed: 332), "13:00"
        ),
        (
            Move(
                from: "Asia/Bangkok", to: "America/Los_Angeles", firstDay: "2025-01-06", days: 20,
                changeDay: "2025-01-16", locale: "th_TH", seed: 333), "16:00"
        ),
    ]

    @Test(arguments: 0..<4, Metadata.allCases)
    func theDaysAroundAWestwardDepartureAreTheTrueDays(index: Int, metadata: Metadata) throws {
        // Dubai (+04:00) to Paris (+01:00), departing 15:00 Dubai time on 01-15 (12:00 in
        // Paris), is the case that needed the analyzer's change: with HKTimeZone the last
        // sample naming Dubai (the night ending on 01-15) and the first naming Paris (after the
        // departure) lie within Paris's day 01-15, and main's binary put the change at Paris's
        // midnight starting 01-16, filing the walk after 21:00 Paris time
        // (after Dubai's midnight) under 01-16: 14,151 steps on 01-15 where the truth has
        // 14,275, and 14,014 on 01-16 for 13,890. The travel day has both zones in force: its
        // time_zone may name either (docs/days-and-time-zones.md §5).
        let (move, departure) = Self.westward[index]
        var configuration = Self.configuration(move, metadata)
        configuration.zoneChanges[0].departure = departure
        let (rows, _, truth) = try EveryZoneTests.report(configuration)
        let travel = try #require(truth.days.first { $0.date == "2025-01-15" })
        // From the old zone's midnight to the new one's: 24 h plus the 1, 3, 9 or 15 h.
        #expect(travel.hours == [25, 27, 33, 39][index])
        #expect(rows.map { $0["date"]! } == truth.days.map(\.date))
        expectTrueDays(rows, truth, name: "\(move.testDescription) departing \(departure), \(metadata)")
        expectTrueZones(rows, truth, move, travelDay: ("2025-01-15", move.to))
    }

    /// Each day named by its true zone or a stand-in with the same offsets on every day; on
    /// `travelDay` (both zones in force) its other zone may name it too.
    private func expectTrueZones(
        _ rows: [[String: String]], _ truth: SyntheticTruth, _ move: Move, travelDay: (String, String)? = nil
    ) {
        for (row, zone) in zip(rows, truth.dayTimeZoneIdentifiers) {
            let named = row["time_zone"]!
            let also = travelDay.flatMap { $0.0 == row["date"] ? $0.1 : nil }
            #expect(
                EveryZoneTests.sameOffsets(named, zone, first: move.firstDay, days: move.days)
                    || also.map { EveryZoneTests.sameOffsets(named, $0, first: move.firstDay, days: move.days) }
                        == true,
                "\(row["date"]!): \(named) for \(zone)")
        }
    }
}
