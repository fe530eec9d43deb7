import Foundation
import HealthExport
import Testing

@testable import HealthAnalysis

/// The candidates of an export without `HKTimeZone` come from the system's tz database, by their
/// canonical names, and HRV beat times read every offset from −12:00 to +14:00 as itself
/// (docs/days-and-time-zones.md §4, §6).
@Suite("The tz database's zones and the offsets of beat times")
struct ZoneDatabaseTests {
    @Test func aliasesResolveToTheZonesTheyName() throws {
        try #require(!ZoneDatabase.contents.links.isEmpty, "no /usr/share/zoneinfo/tzdata.zi (Debian's tzdata)")
        #expect(ZoneDatabase.canonical("Asia/Calcutta") == "Asia/Kolkata")
        #expect(ZoneDatabase.canonical("Europe/Kiev") == "Europe/Kyiv")
        #expect(ZoneDatabase.canonical("Europe/Berlin") == "Europe/Berlin")
    }

    @Test func theCandidatesAreTheCanonicalZones() throws {
        try #require(!ZoneDatabase.contents.zones.isEmpty, "no /usr/share/zoneinfo/zone1970.tab (Debian's tzdata)")
        let ids = Set(ZoneDatabase.candidateIdentifiers)
        // Foundation's list on Linux has Asia/Calcutta and not Asia/Kolkata: the first never
        // became a candidate (a Kolkata period was read in Berlin or London).
        for id in ["Asia/Kolkata", "Europe/Kyiv", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Pacific/Chatham"] {
            #expect(ids.contains(id), "\(id)")
        }
        for alias in ["Asia/Calcutta", "Europe/Kiev", "Pacific/Midway", "US/Pacific", "UTC"] {
            #expect(!ids.contains(alias), "\(alias)")
        }
        // Every candidate is a zone Foundation can read.
        #expect(ids.allSatisfy { TimeZone(identifier: $0) != nil })
        // A zone of several countries is a zone of each (zone1970.tab: DE,DK,NO,SE,SJ).
        #expect(ZoneDatabase.zones(ofRegion: "NO") == ["Europe/Berlin"])
        #expect(ZoneRegions.zones(ofLocale: "hi_IN") == ["Asia/Kolkata"])
    }

    /// An HRV record at 2025-01-10 20:00:00Z whose first beat is at `beat` local time.
    @Test(arguments: [
        // Pago Pago −11:00: 09:00; Honolulu −10:00: 10:00; Marquesas −09:30: 10:30;
        // Chatham +13:45 (summer): 09:45 the next day; Kiritimati +14:00: 10:00 the next day;
        // Auckland +13:00 (summer): 09:00 the next day.
        ("Pacific/Pago_Pago", "9:00:01.10 AM"), ("Pacific/Honolulu", "10:00:01.10 AM"),
        ("Pacific/Marquesas", "10:30:01.10 AM"), ("Pacific/Chatham", "09:45:01,10"),
        ("Pacific/Kiritimati", "10:00:01,10"), ("Pacific/Auckland", "09:00:01,10"),
    ])
    func aBeatTimeMatchesItsZone(zone: String, beat: String) {
        let t = Clock(zone: "UTC").t("2025-01-10 20:00")
        var e = OffsetEvidence()
        e.add(recordStart: t, beatTime: beat)
        let calendar = LocalCalendar(
            timeZone: TimeZone(identifier: zone)!, covering: (t - 86_400 * 10)...(t + 86_400 * 10))
        #expect(e.matches(calendar) == 1, "\(zone)")
        // An hour off is no match: −10:00 is not −09:00 (Anchorage), −11:00 not −10:00.
        let own: Int64 = calendar.offset(at: t)
        for wrong: Int64 in [-3600, 3600] {
            let other = LocalCalendar(fixedOffsetSeconds: own + wrong)
            #expect(e.matches(other) == 0)
        }
    }

    @Test func offsetsADayApartAreTheSameClockReading() {
        // −10:00 and +14:00 show the same time of day; only ring data can tell them apart.
        let hour: Int64 = 3600
        #expect(OffsetEvidence.explains(-10 * hour, 14 * hour))
        #expect(OffsetEvidence.explains(-11 * hour, 13 * hour))
        let kolkata: Int64 = 19_800
        #expect(OffsetEvidence.explains(kolkata, kolkata))
        #expect(!OffsetEvidence.explains(-9 * hour, 14 * hour))
    }
}
