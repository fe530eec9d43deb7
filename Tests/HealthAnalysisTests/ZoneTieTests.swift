import Foundation
import HealthExport
import HealthReports
import Testing

@testable import HealthAnalysis

/// Zones that fit an export without `HKTimeZone` equally well (docs/days-and-time-zones.md
/// §6): the export's own evidence breaks the tie, never the machine's `TZ`.
@Suite("Time zone ties without HKTimeZone")
struct ZoneTieTests {
    /// An export made on 2025-07-15 12:00 at `printed` seconds east, data over the week before,
    /// nothing else: no ring data, no HRV beats.
    static func builder(printed: Int64, locale: String?, environment: String?) -> ZoneTimelineBuilder {
        var b = ZoneTimelineBuilder()
        let export = Clock(zone: "UTC").t("2025-07-15 12:00") - printed
        b.range = (export - 7 * 86_400)...export
        b.exportInstant = export
        b.exportOffset = printed
        b.locale = locale
        b.environment = environment
        return b
    }

    /// +0200 in July: Europe/Berlin, Europe/Paris, Europe/Madrid, … give the same days over the
    /// week (one group). The zone's name came from `TZ` when `TZ` was in the group (Paris under
    /// `TZ=Europe/Paris`); now the locale's region names it (`fr_FR` → FR → Europe/Paris), and
    /// without a region among the group the representative order (Berlin before Paris), on
    /// every machine.
    @Test(arguments: [nil, "UTC", "Europe/Paris", "Europe/Berlin", "Asia/Tokyo"])
    func oneGroupIsNamedByTheLocaleNeverByTZ(environment: String?) {
        let french = Self.builder(printed: 7_200, locale: "fr_FR", environment: environment).build()
        #expect(french.periods.map(\.identifier) == ["Europe/Paris"])
        #expect(french.periods[0].reason.isExportOffsetCandidates(region: "FR"))
        let american = Self.builder(printed: 7_200, locale: "en_US", environment: environment).build()
        #expect(american.periods.map(\.identifier) == ["Europe/Berlin"])
        #expect(american.periods[0].reason.isExportOffsetCandidates(region: nil))
        #expect(!american.notes.contains { $0.severity == .warning })
    }

    /// +0300 in July with locale ru_RU: Europe/Istanbul (first in the representative order) was
    /// taken; Moscow is the locale's region's zone (zone.tab: RU Europe/Moscow).
    @Test func aRussianLocaleAtPlusThreeIsMoscow() {
        let t = Self.builder(printed: 10_800, locale: "ru_RU", environment: "Europe/Istanbul").build()
        #expect(t.periods.map(\.identifier) == ["Europe/Moscow"])
    }

    /// A locale's region is the last part of two capital letters.
    @Test func theLocaleRegion() {
        #expect(ZoneRegions.region(ofLocale: "de_DE") == "DE")
        #expect(ZoneRegions.region(ofLocale: "zh_Hans_CN") == "CN")
        #expect(ZoneRegions.region(ofLocale: "en") == nil)
        #expect(ZoneRegions.region(ofLocale: "es_419") == nil)
        #expect(ZoneRegions.region(ofLocale: nil) == nil)
        #expect(ZoneRegions.zones(ofLocale: "ru_RU").contains("Europe/Moscow"))
    }

    /// -0400 at the export instant (2025-07-15), data from January: New York (-0500 then),
    /// Caracas (-0400) and Santiago (-0300) differ and nothing tells them apart. A locale
    /// without a region (`en`) leaves only `TZ`: it decides, with a warning now (it was a
    /// note). A locale whose region holds one group decides without `TZ`: es_VE → Caracas,
    /// en_US → New York (the US zones at -0400 in July give one group).
    @Test func tzDecidesOnlyWithoutAnyEvidenceAndThenWarns() {
        var b = Self.builder(printed: -14_400, locale: "en", environment: "America/Caracas")
        b.range = Clock(zone: "UTC").t("2025-01-05 12:00")...b.exportInstant!
        let byTZ = b.build()
        #expect(byTZ.periods.map(\.identifier) == ["America/Caracas"])
        #expect(byTZ.periods[0].reason == .environment)
        #expect(byTZ.notes.contains { $0.severity == .warning && $0.text.contains("this machine's zone (TZ)") })
        b.locale = "es_VE"
        b.environment = "America/New_York"
        let byLocale = b.build()
        #expect(byLocale.periods.map(\.identifier) == ["America/Caracas"])
        #expect(byLocale.periods[0].reason.isExportOffsetCandidates(region: "VE"))
        #expect(!byLocale.notes.contains { $0.severity == .warning })
        b.locale = "en_US"
        b.environment = "America/Caracas"
        let american = b.build()
        #expect(american.periods.map(\.identifier) == ["America/New_York"])
        #expect(american.periods[0].reason.isExportOffsetCandidates(region: "US"))
    }
}

extension TimeZonePeriodReason {
    /// Whether this is `.exportOffsetCandidates` with this region (any count of candidates).
    fileprivate func isExportOffsetCandidates(region: String?) -> Bool {
        if case .exportOffsetCandidates(let n, let r) = self { return n > 0 && r == region }
        return false
    }
}
