import Foundation
import Testing

@testable import SyntheticExport

@Suite("Local days and the export-time offset")
struct TimeZoneTests {
    /// Every date attribute carries the ExportDate's offset. The default export moment is
    /// local noon of the day after the last day: 2026-03-31 12:00 CEST, so `+0200` — also on
    /// the records of 27 and 28 March, which were recorded at +0100 (docs/export-format.md §9).
    @Test func everyTimestampCarriesTheExportOffset() throws {
        let elements = Fixtures.springElements
        let exportDate = try #require(elements.first { $0.name == "ExportDate" }?["value"])
        #expect(exportDate == "2026-03-31 12:00:00 +0200")
        #expect(Fixtures.spring.truth.exportDate == exportDate)
        #expect(Fixtures.spring.truth.exportUTCOffsetSeconds == 7200)
        var checked = 0
        for e in elements {
            for key in ["creationDate", "startDate", "endDate", "date"] {
                guard let v = e[key] else { continue }
                #expect(v.utf8.count == 25 && v.hasSuffix(" +0200"), "\(e.name) \(key)=\(v)")
                checked += 1
            }
        }
        #expect(checked > 20_000)
    }

    /// A July day exported in January: printed `+0100` although Berlin was at +0200, with
    /// the instant right. The Watch's stand-hour records start on the TRUE local hour, so
    /// they print as HH:00 (one hour earlier than the wall clock of the time).
    @Test func summerDataExportedInWinterPrintsWinterOffsetWithCorrectInstants() throws {
        let config = SyntheticExportConfiguration(firstDay: "2025-07-01", days: 1, exportDate: "2026-01-15 10:00")
        let (bytes, truth) = SyntheticExport.makeExport(config)
        let elements = try MiniXML.parse(bytes)
        #expect(truth.exportDate == "2026-01-15 10:00:00 +0100")
        // 2025-07-01 00:00 CEST = 2025-06-30 22:00 UTC = 1751320800.
        #expect(truth.days[0].startSecondsSince1970 == 1_751_320_800)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let stands = elements.filter { $0["type"] == "HKCategoryTypeIdentifierAppleStandHour" }
        #expect(stands.count == truth.days[0].standHourRecords)
        for s in stands {
            let start = try #require(parseExportTimestamp(s["startDate"]!))
            #expect(start.offset == 3600)
            let local = calendar.dateComponents(
                [.hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(start.seconds)))
            #expect(local.minute == 0 && local.second == 0)
            // Printed hour = true local hour − 1 (CEST − CET).
            let printedHour = Int(s["startDate"]!.dropFirst(11).prefix(2))!
            #expect(printedHour == local.hour! - 1)
        }
    }

    /// 2026-03-29 (spring) has 23 hours, 2025-10-26 (autumn) 25; the midnights are
    /// 2026-03-29 00:00 CET = 1774738800 and 2026-03-30 00:00 CEST = 1774821600.
    @Test func daysAcrossDSTChangesHave23And25Hours() {
        let spring = Fixtures.spring.truth.days
        #expect(spring.map(\.date) == ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30"])
        #expect(spring.map(\.hours) == [24, 24, 23, 24])
        #expect(spring[2].startSecondsSince1970 == 1_774_738_800)
        #expect(spring[2].endSecondsSince1970 == 1_774_821_600)
        let autumn = SyntheticExport.truth(SyntheticExportConfiguration(firstDay: "2025-10-25", days: 3)).days
        #expect(autumn.map(\.hours) == [24, 25, 24])
        #expect(autumn[1].startSecondsSince1970 == 1_761_429_600)
        #expect(autumn[1].endSecondsSince1970 == 1_761_519_600)
    }

    @Test func defaultRangeCrossesBothChanges() {
        let config = SyntheticExportConfiguration()
        #expect(config.firstDay == "2025-10-20" && config.days == 180 && config.timeZoneIdentifier == "Europe/Berlin")
        // Day bounds only (no export needed): plan the zone the way the generator does.
        let clock = ZoneClock(identifier: config.timeZoneIdentifier)!
        let first = Civil.parse(config.firstDay)!
        let hours = (0..<config.days).map {
            Int((clock.midnight(day: first + $0 + 1) - clock.midnight(day: first + $0)) / 3600)
        }
        #expect(hours.filter { $0 == 25 }.count == 1)  // 2025-10-26
        #expect(hours.filter { $0 == 23 }.count == 1)  // 2026-03-29
    }

    /// HRV beat times are en_US times of day in TRUE local time. Records of 27 March
    /// (CET, +0100) printed at +0200: first beat ≈ printed start − 1 h, 0.3–1.5 s later.
    @Test func beatTimesAreTrueLocalTimeOfDay() throws {
        let elements = Fixtures.springElements
        var checked = 0
        for (i, e) in elements.enumerated() where e["type"] == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN" {
            let start = e["startDate"]!
            guard start.hasPrefix("2026-03-27") || start.hasPrefix("2026-03-28 1") else { continue }
            let beat = try #require(elements[i + 2]["time"])  // [i+1] is the list element
            let printed = start.dropFirst(11).prefix(8).split(separator: ":").map { Int($0)! }
            let printedSeconds = printed[0] * 3600 + printed[1] * 60 + printed[2]
            // "8:30:38.12 AM"
            let parts = beat.split(separator: " ")
            let hms = parts[0].split(separator: ":")
            var h = Int(hms[0])! % 12
            if parts[1] == "PM" { h += 12 }
            let beatSeconds = Double(h * 3600 + Int(hms[1])! * 60) + Double(hms[2])!
            let delta = beatSeconds - Double(printedSeconds - 3600)
            #expect(delta >= 0.3 && delta <= 1.51, "\(start) vs \(beat)")
            checked += 1
        }
        #expect(checked >= 3)
    }
}
