import Foundation
import SyntheticExport
import Testing

/// The truth against the written XML, recomputed here independently: a textbook version
/// of the docs/deduplication.md §4 sweep (events, elementary intervals, smallest active rank wins) over the
/// parsed top-level records, with local midnights from Foundation's Calendar.
@Suite("Truth against the written records")
struct TruthTests {
    struct Sample {
        var rank: Int
        var start: Int64
        var end: Int64
        var value: Double
    }

    /// docs/deduplication.md §3 default ranks from what the file shows: manual (source "Health" or
    /// HKWasUserEntered) 0, Watch (`model:Watch`) 1, iPhone (`model:iPhone`) 2, others 3.
    static func rank(_ e: MiniXML.Element, userEntered: Bool) -> Int {
        if e["sourceName"] == "Health" || userEntered { return 0 }
        let device = e["device"] ?? ""
        if device.contains("model:Watch") || (e["sourceName"] ?? "").hasSuffix("Apple Watch") { return 1 }
        if device.contains("model:iPhone") { return 2 }
        return 3
    }

    static func samples(_ type: String, in elements: [MiniXML.Element], watchOnly: Bool = false) -> [Sample] {
        let ts = TimestampParser()
        var out: [Sample] = []
        for (i, e) in elements.enumerated() where e.depth == 1 && e.name == "Record" && e["type"] == type {
            let userEntered =
                i + 1 < elements.count && elements[i + 1].depth == 2
                && elements[i + 1]["key"] == "HKWasUserEntered" && elements[i + 1]["value"] == "1"
            let r = rank(e, userEntered: userEntered)
            if watchOnly && r != 1 { continue }
            out.append(
                Sample(
                    rank: r, start: ts.seconds(e["startDate"]!), end: ts.seconds(e["endDate"]!),
                    value: Double(e["value"]!)!))
        }
        return out
    }

    static func sweep(_ samples: [Sample], bounds: [Int64]) -> [Double] {
        var totals = Array(repeating: 0.0, count: bounds.count - 1)
        func bucket(_ t: Int64) -> Int? {
            guard t >= bounds.first!, t < bounds.last! else { return nil }
            return bounds.lastIndex { $0 <= t }
        }
        var events: [(t: Int64, delta: Int, rank: Int, rate: Double)] = []
        var points = Set(bounds)
        for s in samples where s.end > s.start {
            let rate = s.value / Double(s.end - s.start)
            events.append((s.start, 1, s.rank, rate))
            events.append((s.end, -1, s.rank, rate))
            points.insert(s.start)
            points.insert(s.end)
        }
        events.sort { $0.t < $1.t }
        let sortedPoints = points.sorted()
        var count = [Int](repeating: 0, count: 4)
        var rate = [Double](repeating: 0, count: 4)
        var j = 0
        for i in 0..<(sortedPoints.count - 1) {
            while j < events.count && events[j].t == sortedPoints[i] {
                let e = events[j]
                count[e.rank] += e.delta
                rate[e.rank] += Double(e.delta) * e.rate
                if count[e.rank] == 0 { rate[e.rank] = 0 }
                j += 1
            }
            if let winner = (0..<4).first(where: { count[$0] > 0 }), let k = bucket(sortedPoints[i]) {
                totals[k] += rate[winner] * Double(sortedPoints[i + 1] - sortedPoints[i])
            }
        }
        for s in samples where s.end == s.start {
            let hidden = samples.contains { $0.rank < s.rank && $0.start <= s.start && s.start < $0.end }
            if !hidden, let k = bucket(s.start) { totals[k] += s.value }
        }
        return totals
    }

    static var bounds: [Int64] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let first = calendar.date(from: DateComponents(year: 2026, month: 3, day: 27))!
        return (0...4).map { Int64(calendar.date(byAdding: .day, value: $0, to: first)!.timeIntervalSince1970) }
    }

    @Test(
        arguments: [
            ("HKQuantityTypeIdentifierStepCount", \SyntheticDayTruth.steps, false),
            ("HKQuantityTypeIdentifierDistanceWalkingRunning", \SyntheticDayTruth.distanceKm, false),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", \SyntheticDayTruth.activeEnergyKcal, false),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", \SyntheticDayTruth.moveKcal, true),
            ("HKQuantityTypeIdentifierBasalEnergyBurned", \SyntheticDayTruth.basalEnergyKcal, false),
            ("HKQuantityTypeIdentifierFlightsClimbed", \SyntheticDayTruth.flightsClimbed, false),
            ("HKQuantityTypeIdentifierAppleExerciseTime", \SyntheticDayTruth.exerciseMinutes, false),
            ("HKQuantityTypeIdentifierAppleStandTime", \SyntheticDayTruth.standMinutes, false),
        ] as [(String, KeyPath<SyntheticDayTruth, Double> & Sendable, Bool)])
    func cumulativeTruthEqualsIndependentSweep(
        type: String, value: KeyPath<SyntheticDayTruth, Double> & Sendable, watchOnly: Bool
    ) {
        let totals = Self.sweep(
            Self.samples(type, in: Fixtures.springElements, watchOnly: watchOnly), bounds: Self.bounds)
        for (i, day) in Fixtures.spring.truth.days.enumerated() {
            let expected = day[keyPath: value]
            #expect(
                abs(totals[i] - expected) <= 1e-6 * max(1, abs(expected)),
                "\(type) \(day.date): sweep \(totals[i]) truth \(expected)")
        }
    }

    /// Steps are whole numbers on every day, and de-duplication matters: the naive sum of all
    /// step records (Watch + iPhone over the same walks) is far above the truth.
    @Test func stepsAreWholeAndNaiveSumDoubleCounts() {
        let truth = Fixtures.spring.truth.days
        for d in truth { #expect(d.steps == d.steps.rounded() && d.steps > 2000) }
        let naive = Self.samples("HKQuantityTypeIdentifierStepCount", in: Fixtures.springElements).reduce(0) {
            $0 + $1.value
        }
        let dedup = truth.reduce(0) { $0 + $1.steps }
        #expect(naive > dedup * 1.3)
    }

    /// Day index 1 (2026-03-28) has an iPhone-only walk across midnight. Its crossing sample
    /// is split by time: value × seconds-before-midnight / duration is a whole number, and
    /// both days get their part (the sweep test checks the totals).
    @Test func iPhoneSampleAcrossMidnightSplitsIntoWholeParts() throws {
        let midnight = Self.bounds[2]
        let phone = Self.samples("HKQuantityTypeIdentifierStepCount", in: Fixtures.springElements).filter {
            $0.rank == 2
        }
        let crossing = try #require(phone.first { $0.start < midnight && $0.end > midnight })
        let before = crossing.value * Double(midnight - crossing.start) / Double(crossing.end - crossing.start)
        #expect(before == before.rounded() && before > 0 && before < crossing.value)
        // No Watch step sample overlaps it (the Watch is charging), so it counts in full.
        let watch = Self.samples("HKQuantityTypeIdentifierStepCount", in: Fixtures.springElements).filter {
            $0.rank == 1
        }
        #expect(!watch.contains { $0.start < crossing.end && crossing.start < $0.end })
    }

    /// Health's Active Energy = Move + Strava's samples of walks made without the Watch;
    /// Strava's samples over Watch workouts are hidden by the Watch's per-minute samples.
    @Test func stravaCountsOnlyWhereTheWatchIsOff() throws {
        let ts = TimestampParser()
        let elements = Fixtures.springElements
        let workouts = elements.filter { $0.name == "Workout" }.map {
            (ts.seconds($0["startDate"]!), ts.seconds($0["endDate"]!))
        }
        let strava = elements.filter {
            $0["type"] == "HKQuantityTypeIdentifierActiveEnergyBurned" && $0["sourceName"] == "Strava"
        }
        .map { (ts.seconds($0["startDate"]!), ts.seconds($0["endDate"]!), Double($0["value"]!)!) }
        #expect(strava.contains { s in workouts.contains { $0.0 == s.0 && $0.1 == s.1 } })  // over the run of day 2
        #expect(strava.contains { s in !workouts.contains { $0.0 == s.0 } })  // a morning walk
        for (i, d) in Fixtures.spring.truth.days.enumerated() {
            let unhidden = strava.filter { s in
                s.0 >= Self.bounds[i] && s.0 < Self.bounds[i + 1] && !workouts.contains { $0.0 == s.0 }
            }
            .reduce(0.0) { $0 + $1.2 }
            #expect(abs(d.activeEnergyKcal - d.moveKcal - unhidden) < 1e-6, "\(d.date)")
        }
        #expect(Fixtures.spring.truth.days[0].activeEnergyKcal > Fixtures.spring.truth.days[0].moveKcal)
    }

    /// Manual entries rank first: day 3's zero-length "Health" entry (500, 1000 or 1500
    /// steps) counts in full on top of the Watch.
    @Test func manualEntryCounts() throws {
        let manual = Self.samples("HKQuantityTypeIdentifierStepCount", in: Fixtures.springElements).filter {
            $0.rank == 0
        }
        #expect(manual.count == 1)
        let m = try #require(manual.first)
        #expect(m.start == m.end && [500, 1000, 1500].contains(m.value))
        #expect(m.start >= Self.bounds[3] && m.start < Self.bounds[4])
    }

    @Test func activitySummariesEqualTheTruth() throws {
        let summaries = Fixtures.springElements.filter { $0.name == "ActivitySummary" }
        let days = Fixtures.spring.truth.days
        #expect(summaries.count == days.count && Fixtures.spring.truth.activitySummaryCount == 4)
        for (s, d) in zip(summaries, days) {
            #expect(s["dateComponents"] == d.date)
            // Printed with ≤ 3 decimals from whole 1e-3 kcal: equal to the truth within 0.0005.
            #expect(abs(Double(s["activeEnergyBurned"]!)! - d.moveKcal) < 0.0005)
            #expect(Double(s["activeEnergyBurned"]!)! == d.activitySummary.activeEnergyBurned)
            #expect(s["activeEnergyBurnedUnit"] == "Cal")
            #expect(Double(s["activeEnergyBurnedGoal"]!)! == d.moveGoalKcal && d.moveGoalKcal == 500)
            #expect(s["appleMoveTime"] == "0" && s["appleMoveTimeGoal"] == "0")
            #expect(Double(s["appleExerciseTime"]!)! == d.exerciseMinutes)
            #expect(s["appleExerciseTimeGoal"] == "30")
            #expect(Int(s["appleStandHours"]!)! == d.standHours)
            #expect(s["appleStandHoursGoal"] == "12")
            #expect(d.activitySummary.appleStandHours == d.standHours)
        }
    }

    /// Stand hours: one AppleStandHour record per worn local hour, on the hour, one hour long;
    /// the truth's stand hours are the Stood ones.
    @Test func standHourRecordsMatchTruth() {
        let ts = TimestampParser()
        let records = Fixtures.springElements.filter { $0["type"] == "HKCategoryTypeIdentifierAppleStandHour" }
        for (i, d) in Fixtures.spring.truth.days.enumerated() {
            let inDay = records.filter {
                let s = ts.seconds($0["startDate"]!)
                return s >= Self.bounds[i] && s < Self.bounds[i + 1]
            }
            #expect(inDay.count == d.standHourRecords && d.standHourRecords >= 12)
            #expect(inDay.filter { $0["value"] == "HKCategoryValueAppleStandHourStood" }.count == d.standHours)
            for r in inDay { #expect(ts.seconds(r["endDate"]!) - ts.seconds(r["startDate"]!) == 3600) }
        }
    }

    @Test func heartRateTruthIsOverAllSamplesOfTheDay() throws {
        let ts = TimestampParser()
        let hr = Fixtures.springElements.filter { $0.depth == 1 && $0["type"] == "HKQuantityTypeIdentifierHeartRate" }
        for (i, d) in Fixtures.spring.truth.days.enumerated() {
            let values = hr.filter {
                let s = ts.seconds($0["startDate"]!)
                return s >= Self.bounds[i] && s < Self.bounds[i + 1]
            }
            .map { Double($0["value"]!)! }
            #expect(values.count == d.heartRateSampleCount)
            #expect(values.min() == d.heartRateMinBpm && values.max() == d.heartRateMaxBpm)
            let mean = try #require(d.heartRateMeanBpm)
            #expect(abs(values.reduce(0, +) / Double(values.count) - mean) < 1e-9)
        }
    }

    /// WorkoutStatistics equal the Watch records inside the workout; duration excludes the pause.
    @Test func workoutStatisticsMatchRecordsInside() throws {
        let ts = TimestampParser()
        let elements = Fixtures.springElements
        let workoutIndices = elements.indices.filter { elements[$0].name == "Workout" }
        #expect(workoutIndices.count == Fixtures.spring.truth.workoutCount && workoutIndices.count >= 1)
        for wi in workoutIndices {
            let w = elements[wi]
            #expect(w["totalDistance"] == nil && w["totalEnergyBurned"] == nil)
            let start = ts.seconds(w["startDate"]!)
            let end = ts.seconds(w["endDate"]!)
            var children: [MiniXML.Element] = []
            var k = wi + 1
            while k < elements.count && elements[k].depth > 1 {
                children.append(elements[k])
                k += 1
            }
            let pause = children.first { $0["type"] == "HKWorkoutEventTypePause" }.map { ts.seconds($0["date"]!) }
            let resume = children.first { $0["type"] == "HKWorkoutEventTypeResume" }.map { ts.seconds($0["date"]!) }
            let paused = Double((resume ?? 0) - (pause ?? 0))
            #expect(abs(Double(w["duration"]!)! - (Double(end - start) - paused) / 60) < 1e-9)
            #expect(children.contains { $0["key"] == "HKTimeZone" && $0["value"] == "Europe/Berlin" })
            for type in ["ActiveEnergyBurned", "BasalEnergyBurned", "StepCount", "DistanceWalkingRunning"] {
                guard
                    let stat = children.first(where: {
                        $0.name == "WorkoutStatistics" && $0["type"] == "HKQuantityTypeIdentifier" + type
                    })
                else { continue }
                let inside = Self.samples("HKQuantityTypeIdentifier" + type, in: elements, watchOnly: true)
                    .filter { $0.start >= start && $0.end <= end }.reduce(0) { $0 + $1.value }
                #expect(abs(Double(stat["sum"]!)! - inside) < 1e-6, "\(type)")
            }
            let hr = Self.samples("HKQuantityTypeIdentifierHeartRate", in: elements).filter {
                $0.start >= start && $0.start <= end
            }.map(\.value)
            let stat = try #require(children.first { $0["type"] == "HKQuantityTypeIdentifierHeartRate" })
            #expect(Double(stat["minimum"]!)! == hr.min() && Double(stat["maximum"]!)! == hr.max())
            #expect(abs(Double(stat["average"]!)! - hr.reduce(0, +) / Double(hr.count)) < 0.0001)
        }
    }

    @Test func countsMatchTheFile() {
        let e = Fixtures.springElements
        let truth = Fixtures.spring.truth
        let topLevel = e.filter { $0.depth == 1 && $0.name == "Record" }
        #expect(topLevel.count == truth.totalRecordCount)
        for (type, n) in truth.recordCounts { #expect(topLevel.filter { $0["type"] == type }.count == n, "\(type)") }
        #expect(e.filter { $0.name == "Correlation" }.count == truth.correlationCount)
        #expect(
            e.filter { $0.name == "Record" && $0.parent == "Correlation" }.count == truth.correlationChildRecordCount)
        #expect(e.filter { $0.name == "InstantaneousBeatsPerMinute" }.count == truth.instantaneousBeatCount)
        #expect(e.filter { $0.name == "MetadataEntry" }.count == truth.metadataEntryCount)
        #expect(truth.hrvRecordCount == truth.recordCounts["HKQuantityTypeIdentifierHeartRateVariabilitySDNN"])
        #expect(truth.days.map(\.hrvRecords).reduce(0, +) == truth.hrvRecordCount)
    }
}
