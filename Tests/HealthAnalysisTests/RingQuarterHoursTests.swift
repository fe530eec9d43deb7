import Foundation
import Testing

@testable import HealthAnalysis
@testable import HealthExport

/// `RingQuarterHours` keeps each ring input's buckets in pages of 16 (4 hours of UTC) made only
/// where that input has data (memory). These tests pin the values on hand-worked cases
/// and check that the pages agree with the dictionary-per-bucket representation they replaced
/// (`ReferenceRings` below, the old code's arithmetic), bucket by bucket and day by day, for any
/// split and merge order, on dense and on sparse data.
@Suite("Ring quarter hours")
struct RingQuarterHoursTests {
    /// The earlier representation: one dictionary entry per 15-minute bucket, the same
    /// proration. Days sum their buckets in the order of their instants.
    struct ReferenceRings {
        var buckets: [Int64: RingQuarterHours.Bucket] = [:]

        mutating func add(start: Int64, end: Int64, value: Double, energy: Bool) {
            func put(_ q: Int64, _ v: Double) {
                if energy {
                    buckets[q, default: .init()].energyKcal += v
                } else {
                    buckets[q, default: .init()].exerciseMinutes += v
                }
            }
            guard end > start else {
                put(floorDiv(start, 900), value)
                return
            }
            var q = floorDiv(start, 900)
            while q * 900 < end {
                let lo = max(start, q * 900)
                let hi = min(end, (q + 1) * 900)
                if hi > lo { put(q, value * Double(hi - lo) / Double(end - start)) }
                q += 1
            }
        }

        mutating func addStoodHour(start: Int64) { buckets[floorDiv(start, 900), default: .init()].standHours += 1 }

        func dailyValues(_ calendar: LocalCalendar) -> [Int: RingQuarterHours.Bucket] {
            var days: [Int: RingQuarterHours.Bucket] = [:]
            for q in buckets.keys.sorted() {
                let b = buckets[q]!
                let d = calendar.dayNumber(q * 900)
                days[d, default: .init()].energyKcal += b.energyKcal
                days[d, default: .init()].exerciseMinutes += b.exerciseMinutes
                days[d, default: .init()].standHours += b.standHours
            }
            return days
        }
    }

    static let utc = Clock(zone: "UTC")
    static let berlin = LocalCalendar(
        timeZone: TimeZone(identifier: "Europe/Berlin")!,
        covering: utc.t("2023-12-01 00:00")...utc.t("2024-12-01 00:00"))

    @Test func energyIsProratedIntoQuarterHours() {
        // 30 kcal over 10:10–10:40 UTC (30 minutes, 1 kcal a minute): 5 kcal in the 10:00
        // bucket (10:10–10:15), 15 in 10:15, 10 in 10:30.
        var r = RingQuarterHours()
        let t = Self.utc.t("2024-01-01 10:10")
        r.addEnergy(start: t, end: t + 1800, kcal: 30)
        let q0 = floorDiv(Self.utc.t("2024-01-01 10:00"), 900)
        #expect(r.buckets.map(\.quarter) == [q0, q0 + 1, q0 + 2])
        #expect(r.buckets.map(\.bucket.energyKcal) == [5, 15, 10])
        #expect(r.buckets.map(\.bucket.exerciseMinutes) == [0, 0, 0])
    }

    @Test func aSampleAcrossUTCMidnightLiesOnOneBerlinDay() {
        // 30 exercise minutes 23:50–00:20 UTC (2024-01-01/02): two UTC days (pages), 10 + 20
        // minutes; in Berlin (UTC+1 in January) 00:50–01:20 on 01-02, all 30 on that day. An
        // instant sample (end = start) at 12:00 UTC on 01-02 adds its whole value, 5 minutes,
        // to its bucket: 01-02 has 35. A stood hour at 08:00 UTC on 01-03 counts on 01-03.
        var r = RingQuarterHours()
        let t = Self.utc.t("2024-01-01 23:50")
        r.addExercise(start: t, end: t + 1800, minutes: 30)
        let noon = Self.utc.t("2024-01-02 12:00")
        r.addExercise(start: noon, end: noon, minutes: 5)
        r.addStoodHour(start: Self.utc.t("2024-01-03 08:00"))
        #expect(r.buckets.map(\.bucket.exerciseMinutes) == [10, 15, 5, 5, 0])
        let days = r.dailyValues(Self.berlin)
        let jan2 = CivilDate("2024-01-02")!.daysSince1970
        #expect(days.keys.sorted() == [jan2, jan2 + 1])
        #expect(days[jan2] == RingQuarterHours.Bucket(energyKcal: 0, exerciseMinutes: 35, standHours: 0))
        #expect(days[jan2 + 1] == RingQuarterHours.Bucket(energyKcal: 0, exerciseMinutes: 0, standHours: 1))
    }

    @Test func aBucketOfZerosStillMarksADayWithRingRecords() {
        // A 0 kcal sample makes its day "compared" (not "summary only") in the agreement score,
        // as the dictionary's entry of zeros did.
        var r = RingQuarterHours()
        r.addEnergy(start: Self.utc.t("2024-03-05 10:00"), end: Self.utc.t("2024-03-05 10:01"), kcal: 0)
        let day = CivilDate("2024-03-05")!.daysSince1970
        #expect(r.dailyValues(Self.berlin) == [day: RingQuarterHours.Bucket()])
        #expect(!r.isEmpty)
        #expect(RingQuarterHours().isEmpty)
    }

    @Test func eachInputHasPagesOnlyWhereItHasData() {
        // Energy 06:00–06:30 UTC and exercise 13:50–14:10 UTC on 2024-01-01, stood hour 20:00:
        // pages 06:00–10:00 (energy), 12:00–16:00 (exercise, across its 14:00 bucket edge) and
        // 20:00–24:00 (stand). Added later, out of order: energy at 05:00 on 2024-01-01 (page
        // 04:00–08:00 of the same day, before the 06:00 one).
        var r = RingQuarterHours()
        let day = Self.utc.t("2024-01-01 00:00")
        r.addEnergy(start: day + 6 * 3600, end: day + 6 * 3600 + 1800, kcal: 12)
        r.addExercise(start: day + 13 * 3600 + 50 * 60, end: day + 14 * 3600 + 10 * 60, minutes: 20)
        r.addStoodHour(start: day + 20 * 3600)
        r.addEnergy(start: day + 5 * 3600, end: day + 5 * 3600, kcal: 3)
        let q = floorDiv(day, 900)
        // Quarter numbers: 05:00 = q+20, 06:00 = q+24, 06:15 = q+25, 13:45 = q+55, 14:00 = q+56,
        // 20:00 = q+80. Energy 12 kcal over 30 minutes: 6 + 6; exercise 20 minutes over 20:
        // 10 (13:50–14:00) + 10 (14:00–14:10).
        #expect(r.quarters == [q + 20, q + 24, q + 25, q + 55, q + 56, q + 80])
        #expect(r.buckets.map(\.bucket.energyKcal) == [3, 6, 6, 0, 0, 0])
        #expect(r.buckets.map(\.bucket.exerciseMinutes) == [0, 0, 0, 10, 10, 0])
        #expect(r.buckets.map(\.bucket.standHours) == [0, 0, 0, 0, 0, 1])
        // In Berlin (UTC+1) all of it lies on 2024-01-01 (21:00 local is the latest).
        let jan1 = CivilDate("2024-01-01")!.daysSince1970
        #expect(
            r.dailyValues(Self.berlin) == [
                jan1: RingQuarterHours.Bucket(energyKcal: 15, exerciseMinutes: 20, standHours: 1)
            ])
        // Merged into rings with exercise on the same 14:00 bucket and energy in another page:
        // the buckets add up, the presence is the union.
        var other = RingQuarterHours()
        other.addExercise(start: day + 14 * 3600, end: day + 14 * 3600, minutes: 2)
        other.addEnergy(start: day + 23 * 3600 + 50 * 60, end: day + 24 * 3600, kcal: 1)
        r.merge(other)
        #expect(r.quarters == [q + 20, q + 24, q + 25, q + 55, q + 56, q + 80, q + 95])
        #expect(r.buckets.map(\.bucket.exerciseMinutes) == [0, 0, 0, 10, 12, 0, 0])
        #expect(r.buckets.map(\.bucket.energyKcal) == [3, 6, 6, 0, 0, 0, 1])
    }

    /// Deterministic pseudo-random samples over ~40 days (several pages, gaps, DST change):
    /// 3,000 fill most buckets, 150 leave most pages empty.
    static func samples(seed: UInt64, count: Int = 3000) -> [(start: Int64, end: Int64, value: Double, energy: Bool)] {
        var x = seed
        func next() -> UInt64 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return x >> 33
        }
        let base = Self.utc.t("2024-03-10 00:00")
        return (0..<count).map { _ in
            let start = base + Int64(next() % (40 * 86_400))
            let length = Int64(next() % 5) == 0 ? 0 : Int64(next() % 4000)
            return (start, start + length, Double(next() % 100_000) / 997, next() % 2 == 0)
        }
    }

    @Test(arguments: [(UInt64(1), 3000), (2, 3000), (3, 3000), (4, 150), (5, 150)])
    func pagesAgreeWithTheDictionaryForAnySplitAndMergeOrder(seed: UInt64, count: Int) {
        let all = Self.samples(seed: seed, count: count)
        var reference = ReferenceRings()
        for s in all { reference.add(start: s.start, end: s.end, value: s.value, energy: s.energy) }
        // Three parts (every third sample), merged into the first: the reference merge adds
        // each part's bucket sums, so compare with the same merge of three references.
        var parts = [RingQuarterHours](repeating: RingQuarterHours(), count: 3)
        var refParts = [ReferenceRings](repeating: ReferenceRings(), count: 3)
        for (i, s) in all.enumerated() {
            if s.energy {
                parts[i % 3].addEnergy(start: s.start, end: s.end, kcal: s.value)
            } else {
                parts[i % 3].addExercise(start: s.start, end: s.end, minutes: s.value)
            }
            refParts[i % 3].add(start: s.start, end: s.end, value: s.value, energy: s.energy)
        }
        var whole = RingQuarterHours()
        for s in all {
            if s.energy {
                whole.addEnergy(start: s.start, end: s.end, kcal: s.value)
            } else {
                whole.addExercise(start: s.start, end: s.end, minutes: s.value)
            }
        }
        for k in stride(from: 0, to: all.count, by: 7) { whole.addStoodHour(start: all[k].start) }
        for k in stride(from: 0, to: all.count, by: 7) { reference.addStoodHour(start: all[k].start) }
        #expect(whole.buckets.map(\.quarter) == reference.buckets.keys.sorted())
        #expect(whole.quarters == reference.buckets.keys.sorted())
        #expect(whole.buckets.map(\.bucket) == reference.buckets.keys.sorted().map { reference.buckets[$0]! })
        #expect(whole.dailyValues(Self.berlin) == reference.dailyValues(Self.berlin))

        for order in [[0, 1, 2], [2, 0, 1]] {
            var merged = RingQuarterHours()
            var refMerged = ReferenceRings()
            for p in order {
                merged.merge(parts[p])
                for (q, b) in refParts[p].buckets {
                    refMerged.buckets[q, default: .init()].energyKcal += b.energyKcal
                    refMerged.buckets[q, default: .init()].exerciseMinutes += b.exerciseMinutes
                }
            }
            #expect(merged.buckets.map(\.quarter) == refMerged.buckets.keys.sorted())
            #expect(merged.buckets.map(\.bucket) == refMerged.buckets.keys.sorted().map { refMerged.buckets[$0]! })
            #expect(merged.dailyValues(Self.berlin) == refMerged.dailyValues(Self.berlin))
        }
    }
}
