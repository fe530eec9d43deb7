import Testing

@testable import SyntheticExport

@Suite("Determinism and streaming")
struct DeterminismTests {
    @Test func sameConfigurationGivesIdenticalBytesAndTruth() {
        let config = SyntheticExportConfiguration(firstDay: "2026-03-27", days: 3, seed: 7)
        let a = SyntheticExport.makeExport(config)
        let b = SyntheticExport.makeExport(config)
        #expect(a.bytes == b.bytes)
        #expect(a.truth == b.truth)
        #expect(a.truth.byteCount == Int64(a.bytes.count))
    }

    @Test func otherSeedGivesOtherData() {
        let a = SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2026-03-27", days: 2, seed: 1))
        let b = SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2026-03-27", days: 2, seed: 2))
        #expect(a.bytes != b.bytes)
        #expect(a.truth.days.map(\.steps) != b.truth.days.map(\.steps))
    }

    @Test func truthAloneEqualsTruthOfWrittenExport() {
        #expect(SyntheticExport.truth(Fixtures.springConfiguration) == Fixtures.spring.truth)
    }

    /// The export is handed over in chunks of about 1 MiB (flush once a chunk reaches 2^20
    /// bytes; the largest element is a few KB), never as one buffer.
    @Test func streamsInChunksOfAboutOneMebibyte() {
        var sizes: [Int] = []
        var joined: [UInt8] = []
        let truth = SyntheticExport.write(Fixtures.springConfiguration) { chunk in
            sizes.append(chunk.count)
            joined.append(contentsOf: chunk)
        }
        #expect(joined == Fixtures.spring.bytes)
        #expect(truth == Fixtures.spring.truth)
        // ~3 MB over 4 days → at least 2 chunks; all but the last at least 1 MiB and under 1 MiB + 64 KiB.
        #expect(sizes.count >= 2)
        for s in sizes.dropLast() { #expect(s >= 1 << 20 && s < (1 << 20) + (64 << 10)) }
    }

    @Test func sinkErrorsPropagate() {
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            _ = try SyntheticExport.write(Fixtures.springConfiguration) { _ in throw Stop() }
        }
    }

    @Test func invalidConfigurationsAreRejected() {
        #expect(throws: SyntheticExportError.invalidFirstDay("2026-02-30")) {
            try SyntheticExportConfiguration(firstDay: "2026-02-30").validate()
        }
        #expect(throws: SyntheticExportError.invalidDayCount(0)) {
            try SyntheticExportConfiguration(days: 0).validate()
        }
        #expect(throws: SyntheticExportError.unknownTimeZone("Mars/Olympus")) {
            try SyntheticExportConfiguration(timeZoneIdentifier: "Mars/Olympus").validate()
        }
        #expect(throws: SyntheticExportError.invalidExportDate("tomorrow")) {
            try SyntheticExportConfiguration(exportDate: "tomorrow").validate()
        }
    }

    /// Los Angeles (PST, UTC−8) to Tokyo (UTC+9) from 2025-11-14: the travel day 2025-11-13 runs
    /// from Los Angeles midnight (08:00 UTC on the 13th) to Tokyo midnight (15:00 UTC on the 13th),
    /// 7 hours, too short to plan (it used to trap in the day plan). To Bangkok (UTC+7) it runs
    /// to 17:00 UTC, 9 hours, the shortest the generator plans, and generates.
    @Test func aTravelDayTooShortToPlanIsRejected() throws {
        func trip(to zone: String) -> SyntheticExportConfiguration {
            SyntheticExportConfiguration(
                firstDay: "2025-11-10", days: 10, timeZoneIdentifier: "America/Los_Angeles",
                zoneChanges: [SyntheticZoneChange(firstDay: "2025-11-14", timeZoneIdentifier: zone)])
        }
        #expect(throws: SyntheticExportError.travelDayTooShort("2025-11-13", hours: 7)) {
            try trip(to: "Asia/Tokyo").validate()
        }
        try trip(to: "Asia/Bangkok").validate()
        let (_, truth) = SyntheticExport.makeExport(trip(to: "Asia/Bangkok"))
        #expect(truth.days.count == 10)
    }
}
