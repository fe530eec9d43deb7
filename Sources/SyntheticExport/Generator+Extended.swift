import Foundation

// What `SyntheticExportConfiguration.extendedHealthData` adds to an export, and its truth,
// computed here from what is written (independently of the analysis code):
//
// Sleep (night of plan index i, bedtime on day i, wake-up on day i + 1):
//  - i % 10 == 4: the Watch is on the charger: no Watch sleep samples; AutoSleep writes the
//    night as two legacy `HKCategoryValueSleepAnalysisAsleep` intervals with a 6-minute gap;
//  - i % 10 == 7: AutoSleep writes one legacy interval beside the Watch's stages (Watch wins);
//  - i % 12 == 6: the Watch's first three stage samples are written twice, identically;
//  - i % 7 == 5: a daytime nap, Watch `AsleepCore` 14:10–14:45 local on day i.
// Workouts (the Watch's planned ones):
//  - running on an index i % 14 == 2: written as multisport (`SwimBikeRun`) with two
//    `WorkoutActivity` legs whose statistics are sub-totals of the parent's;
//  - i % 7 == 4 and i % 3 == 0: the old total attributes only (`totalDistance`,
//    `totalEnergyBurned`), no `WorkoutStatistics`;
//  - a Strava-tracked run on an index i % 3 == 0 (not multisport): Strava writes the same session
//    as its own workout (20 s later, 15 s earlier, old attributes only): a duplicate;
//  - every route is a GPX file in `routeFiles`, except on i % 5 == 1 (referenced, not in the zip).
// Body and heart, from the Watch unless said: RespiratoryRate (4 a night), OxygenSaturation
// (3 a night), AppleSleepingWristTemperature (1 a night; none of these on charger nights),
// VO2Max after each run, WalkingHeartRateAverage daily, BodyMass (Health Mate) every 3rd day.

/// A night (or a nap) as the sleep rule of docs/sleep-and-workouts.md §2 reads it: the highest-priority source
/// with asleep samples, the union of its asleep intervals, filed under the local date of the
/// wake-up.
public struct SyntheticSleepTruth: Sendable, Equatable {
    /// Local date `YYYY-MM-DD` of the wake-up (for a nap: its day).
    public var night: String
    public var isNap: Bool
    public var source: String
    /// First asleep instant and last asleep instant of that source.
    public var asleepStartSecondsSince1970: Int64
    public var asleepEndSecondsSince1970: Int64
    public var asleepMinutes: Double
    /// nil where the source records no stages (legacy `Asleep` only).
    public var coreMinutes: Double?
    public var deepMinutes: Double?
    public var remMinutes: Double?
    /// Legacy `Asleep` / `AsleepUnspecified`; nil when the source wrote none.
    public var unspecifiedMinutes: Double?
    /// The source's `Awake` minutes; nil where it records no stages.
    public var awakeMinutes: Double?
    /// The iPhone's `InBed` minutes; nil without InBed samples.
    public var inBedMinutes: Double?
}

/// One written workout, with the values a report should show for it.
public struct SyntheticWorkoutTruth: Sendable, Equatable {
    public var startSecondsSince1970: Int64
    public var endSecondsSince1970: Int64
    /// `HKWorkoutActivityType…` as written.
    public var activityType: String
    public var source: String
    /// `duration`: active time, pauses excluded.
    public var durationMinutes: Double
    /// end − start.
    public var elapsedMinutes: Double
    /// nil where nothing was measured (strength training).
    public var distanceKm: Double?
    public var activeEnergyKcal: Double?
    /// The HeartRate statistic's average and maximum; nil without one.
    public var heartRateAverageBpm: Double?
    public var heartRateMaxBpm: Double?
    /// The referenced GPX file name and whether `routeFiles` holds it.
    public var routeFile: String?
    public var routeInZip: Bool
    /// The same session written by a lower-priority source (Strava beside the Watch).
    public var isDuplicate: Bool
    /// `WorkoutActivity` legs written inside it.
    public var legCount: Int
}

/// A GPX route file written for the zip, with what it holds.
public struct SyntheticRouteTruth: Sendable, Equatable {
    /// `route_2025-10-01_6.15pm.gpx` (the TRUE local start time, docs/export-format.md §14).
    public var fileName: String
    public var pointCount: Int
    /// Haversine over the printed coordinates (mean Earth radius 6 371 008.8 m), km.
    public var distanceKm: Double
    /// Sum of rises between consecutive printed elevations, m.
    public var elevationGainM: Double
    public var gpx: [UInt8]
}

/// Per local day: body and heart measures (means over the day's samples by their start, or the
/// day's one value), nil where there is none.
public struct SyntheticVitalsTruth: Sendable, Equatable {
    public var date: String
    public var hrvMeanMs: Double?
    public var respiratoryRateMean: Double?
    /// Percent (the export writes fractions: 0.97 is 97 %).
    public var oxygenSaturationMeanPercent: Double?
    public var wristTemperatureC: Double?
    public var vo2Max: Double?
    public var walkingHeartRateBpm: Double?
    public var bodyMassKg: Double?
    public var bloodPressureSystolic: Double?
    public var bloodPressureDiastolic: Double?
}

/// What `extendedHealthData` added; empty without it.
public struct SyntheticExtendedTruth: Sendable, Equatable {
    /// The cap on one heart-rate sample's weight in the time-weighted mean (docs/deduplication.md §9).
    public static let heartRateWeightCapSeconds: Int64 = 600

    /// Nights and naps in time order.
    public var sleep: [SyntheticSleepTruth] = []
    /// Workouts in the order written (each Watch workout, then its duplicate if any).
    public var workouts: [SyntheticWorkoutTruth] = []
    public var routes: [SyntheticRouteTruth] = []
    public var vitals: [SyntheticVitalsTruth] = []

    public init() {}
}

enum WorkoutVariant {
    case standard, multisport, legacyTotals
}

extension Generator {
    // MARK: Records

    /// The samples of `kind` for the plan's day as written: the factory's, changed and extended
    /// when `extendedHealthData` is on; heart-rate samples are kept for the time-weighted truth.
    mutating func makeSamples(_ kind: RecordKind, _ plan: DayPlan, into samples: inout [Sample]) {
        factory.samples(kind, plan, into: &samples)
        if !config.hasAppleWatch { phoneOnly(kind, plan, &samples) }
        if config.extendedHealthData { extend(kind, plan, &samples) }
        if kind == .heartRate { collectHeartRate(samples) }
    }

    /// Changes and adds samples of `kind` for the plan's day (called before they are sorted
    /// and written), and records the truth of what it wrote.
    mutating func extend(_ kind: RecordKind, _ p: DayPlan, _ samples: inout [Sample]) {
        var r = SplitMix64(seed: config.seed, day: p.index, stream: 300 + UInt64(kind.rawValue))
        if extended.vitals.count < days.count {
            extended.vitals = days.map { SyntheticVitalsTruth(date: $0.date) }
        }
        let i = p.index
        let chargerNight = i % 10 == 4
        func add(_ s: Int64, _ e: Int64, _ v: Int64, _ source: Source = .watch, tag: UInt8 = 0) {
            samples.append(
                Sample(start: s, end: e, value: v, created: e + Int64(r.int(30...900)), source: source, tag: tag))
        }
        switch kind {
        case .sleepAnalysis:
            extendSleep(p, &samples, &r)
        case .respiratoryRate, .oxygenSaturation:
            guard let bed = p.bedtime, let wake = p.nextWake, !chargerNight else { return }
            let offsets: [Int64] = kind == .respiratoryRate ? [3600, 9000, 14_400, 19_800] : [5400, 10_800, 16_200]
            for o in offsets where bed + o < wake {
                let t = bed + o + Int64(r.int(0...600))
                add(t, t, kind == .respiratoryRate ? Int64(r.int(120...179)) : Int64(r.int(93...99)))
            }
        case .wristTemperature:
            guard let bed = p.bedtime, let wake = p.nextWake, !chargerNight else { return }
            add(bed + 1800, wake - 1800, Int64(r.int(3520...3640)))
        case .vo2Max:
            for w in p.workouts where w.kind == .running { add(w.end + 300, w.end + 300, Int64(r.int(380...460))) }
        case .walkingHeartRate:
            add(p.wearStart + 3600, p.wearEnd - 600, Int64(r.int(88...104)))
        case .bodyMass:
            if i % 3 == 0 { add(p.wake + 600, p.wake + 600, Int64(r.int(680...705)), .healthMate) }
        default:
            break
        }
        recordVitals(kind, samples)
    }

    private mutating func recordVitals(_ kind: RecordKind, _ samples: [Sample]) {
        var sums: [Int: (Double, Int)] = [:]
        var scale = 1.0
        for _ in 0..<kind.decimals { scale *= 10 }
        for s in samples {
            guard let k = PriorityCoverage.dayIndex(s.start, dayBounds) else { continue }
            let v = Double(s.value) / scale
            switch kind {
            case .heartRateVariability, .respiratoryRate, .oxygenSaturation:
                sums[k, default: (0, 0)].0 += v
                sums[k, default: (0, 0)].1 += 1
            case .wristTemperature: extended.vitals[k].wristTemperatureC = v
            case .vo2Max: extended.vitals[k].vo2Max = v
            case .walkingHeartRate: extended.vitals[k].walkingHeartRateBpm = v
            case .bodyMass: extended.vitals[k].bodyMassKg = v
            case .bloodPressureSystolic: extended.vitals[k].bloodPressureSystolic = v
            case .bloodPressureDiastolic: extended.vitals[k].bloodPressureDiastolic = v
            default: break
            }
        }
        for (k, (sum, n)) in sums {
            // A day's samples can come from two plans (the night before midnight, then after).
            vitalSums[kind.rawValue, default: [:]][k, default: (0, 0)].sum += sum
            vitalSums[kind.rawValue, default: [:]][k, default: (0, 0)].count += n
        }
    }

    private mutating func extendSleep(_ p: DayPlan, _ samples: inout [Sample], _ r: inout SplitMix64) {
        let i = p.index
        // The nap first (it is on day i, before the night that starts in the evening).
        var nap: [Sample] = []
        if i % 7 == 5 {
            let s = schedule.clock(p.index).instant(day: p.day, hour: 14, minute: 10)
            nap.append(
                Sample(start: s, end: s + 35 * 60, value: 0, created: s + 35 * 60 + 120, source: .watch, tag: Tag.core))
        }
        guard let bed = p.bedtime, let wake = p.nextWake else {
            samples.append(contentsOf: nap)
            recordSleep(nap, wakeDay: p.day, isNap: true)
            return
        }
        let created = wake + Int64(r.int(60...1800))
        if i % 10 == 4 {
            samples.removeAll { $0.source == .watch }
            let mid = bed + (wake - bed) / 120 * 60
            samples.append(
                Sample(
                    start: bed + 1500, end: mid, value: 0, created: created, source: .autoSleep, tag: Tag.asleepLegacy))
            samples.append(
                Sample(
                    start: mid + 360, end: wake - 300, value: 0, created: created, source: .autoSleep,
                    tag: Tag.asleepLegacy))
        } else if i % 10 == 7 {
            samples.append(
                Sample(
                    start: bed + 900, end: wake - 120, value: 0, created: created, source: .autoSleep,
                    tag: Tag.asleepLegacy))
        }
        if i % 12 == 6 {
            let firstStages = samples.filter { $0.source == .watch && $0.tag != Tag.inBed }.prefix(3)
            samples.append(contentsOf: firstStages)
        }
        recordSleep(samples, wakeDay: p.day + 1, isNap: false)
        samples.append(contentsOf: nap)
        if !nap.isEmpty { recordSleep(nap, wakeDay: p.day, isNap: true) }
    }

    /// The docs/sleep-and-workouts.md §2 rule over one night's samples: the top-ranked source with asleep samples wins.
    private mutating func recordSleep(_ samples: [Sample], wakeDay: Int, isNap: Bool) {
        func isAsleep(_ s: Sample) -> Bool { s.tag != Tag.inBed && s.tag != Tag.awake }
        guard let winner = samples.filter(isAsleep).map(\.source).min(by: { $0.rank < $1.rank }) else { return }
        let mine = samples.filter { $0.source == winner }
        func minutes(_ tags: Set<UInt8>, _ from: [Sample]) -> Double {
            Double(unionSeconds(from.filter { tags.contains($0.tag) }.map { ($0.start, $0.end) })) / 60
        }
        let asleep = mine.filter(isAsleep)
        let staged = mine.contains { [Tag.core, Tag.deep, Tag.rem].contains($0.tag) }
        let legacy = mine.contains { $0.tag == Tag.asleepLegacy }
        let inBed = samples.filter { $0.tag == Tag.inBed }
        let names = [
            "\(config.ownerName)\u{2019}s Apple Watch", "\(config.ownerName)\u{2019}s iPhone", "Strava", "Health Mate",
            "Health", "AutoSleep",
        ]
        extended.sleep.append(
            SyntheticSleepTruth(
                night: Civil.format(days: wakeDay), isNap: isNap, source: names[Int(winner.rawValue)],
                asleepStartSecondsSince1970: asleep.map(\.start).min()!,
                asleepEndSecondsSince1970: asleep.map(\.end).max()!,
                asleepMinutes: minutes([Tag.core, Tag.deep, Tag.rem, Tag.asleepLegacy], asleep),
                coreMinutes: staged ? minutes([Tag.core], mine) : nil,
                deepMinutes: staged ? minutes([Tag.deep], mine) : nil,
                remMinutes: staged ? minutes([Tag.rem], mine) : nil,
                unspecifiedMinutes: legacy ? minutes([Tag.asleepLegacy], mine) : nil,
                awakeMinutes: staged ? minutes([Tag.awake], mine) : nil,
                inBedMinutes: inBed.isEmpty ? nil : minutes([Tag.inBed], inBed)))
    }

    // MARK: Heart rate

    mutating func collectHeartRate(_ samples: [Sample]) {
        for s in samples { heartRateSeries.append((s.start, s.value)) }
    }

    /// Time-weighted daily mean (docs/deduplication.md §9): each sample weighs the seconds to the next
    /// sample of the export (any day), at most `heartRateWeightCapSeconds`; the last one the cap.
    /// A sample counts in full on the day of its instant.
    func timeWeightedHeartRate() -> [Double?] {
        let series = heartRateSeries.sorted { $0.instant < $1.instant }
        var weighted = Array(repeating: 0.0, count: days.count)
        var weights = Array(repeating: Int64(0), count: days.count)
        let cap = SyntheticExtendedTruth.heartRateWeightCapSeconds
        for (n, s) in series.enumerated() {
            guard let k = PriorityCoverage.dayIndex(s.instant, dayBounds) else { continue }
            let w = n + 1 < series.count ? min(series[n + 1].instant - s.instant, cap) : cap
            weighted[k] += Double(w) * Double(s.bpm)
            weights[k] += w
        }
        return days.indices.map { weights[$0] > 0 ? weighted[$0] / Double(weights[$0]) : nil }
    }

    mutating func finishTruth(_ truth: inout SyntheticTruth) {
        truth.heartRateTimeWeightedMeanBpm = timeWeightedHeartRate()
        if config.extendedHealthData {
            for (kind, perDay) in vitalSums {
                for (k, v) in perDay {
                    let mean = v.sum / Double(v.count)
                    switch RecordKind(rawValue: kind)! {
                    case .heartRateVariability: extended.vitals[k].hrvMeanMs = mean
                    case .respiratoryRate: extended.vitals[k].respiratoryRateMean = mean
                    default: extended.vitals[k].oxygenSaturationMeanPercent = mean * 100
                    }
                }
            }
            extended.sleep.sort { $0.asleepStartSecondsSince1970 < $1.asleepStartSecondsSince1970 }
            truth.extended = extended
        }
    }

    // MARK: Workouts

    func workoutVariant(_ w: WorkoutPlan, _ p: DayPlan) -> WorkoutVariant {
        if w.kind == .running && p.index % 14 == 2 { return .multisport }
        if p.index % 7 == 4 && p.index % 3 == 0 { return .legacyTotals }
        return .standard
    }

    /// `totalDistance` / `totalEnergyBurned` attributes (older exports, third-party apps).
    mutating func writeTotals(distance: Int64?, energy: Int64) {
        if let distance {
            out.append(" totalDistance=\"")
            out.append(units: distance, decimals: 5)
            out.append("\" totalDistanceUnit=\"km\"")
        }
        out.append(" totalEnergyBurned=\"")
        out.append(units: energy, decimals: 3)
        out.append("\" totalEnergyBurnedUnit=\"kcal\"")
    }

    /// Two legs: the first 2/5 of the elapsed time (on a minute boundary) and the rest, each with
    /// its own statistics over the Watch's samples inside it.
    mutating func writeLegs(_ w: WorkoutPlan, _ p: DayPlan) {
        var r = SplitMix64(seed: config.seed, day: p.index, stream: 400)
        let mid = w.start + (w.end - w.start) * 2 / 5 / 60 * 60
        var energy: [Sample] = []
        factory.samples(.activeEnergy, p, into: &energy)
        var distance: [Sample] = []
        factory.samples(.distance, p, into: &distance)
        for (s, e) in [(w.start, mid), (mid, w.end)] {
            func sum(_ x: [Sample]) -> Int64 {
                x.filter { $0.source == .watch && $0.start >= s && $0.end <= e }.reduce(0) { $0 + $1.value }
            }
            let paused = w.pauseAt >= s && w.pauseAt < e ? w.pauseSeconds : 0
            out.append("  <WorkoutActivity uuid=\"")
            out.append(Array(uuid(&r).utf8))
            out.append("\" startDate=\"")
            out.append(timestamp: s)
            out.append("\" endDate=\"")
            out.append(timestamp: e)
            out.append("\" duration=\"")
            out.append(Array(String(Double(e - s - paused) / 60).utf8))
            out.append("\" durationUnit=\"min\">\n")
            for (type, value, decimals, unit) in [
                ("HKQuantityTypeIdentifierActiveEnergyBurned", sum(energy), 3, "kcal"),
                ("HKQuantityTypeIdentifierDistanceWalkingRunning", sum(distance), 5, "km"),
            ] {
                out.append("   <WorkoutStatistics type=\"")
                out.append(Array(type.utf8))
                out.append("\" startDate=\"")
                out.append(timestamp: s)
                out.append("\" endDate=\"")
                out.append(timestamp: e)
                out.append("\" sum=\"")
                out.append(units: value, decimals: decimals)
                out.append("\" unit=\"")
                out.append(Array(unit.utf8))
                out.append("\"/>\n")
            }
            out.append("  </WorkoutActivity>\n")
        }
    }

    /// The truth of the workout just written, its GPX file, and Strava's duplicate of it.
    mutating func recordWorkoutTruth(
        _ w: WorkoutPlan, _ p: DayPlan, variant: WorkoutVariant, active: Int64, distance: Int64, heartRates: [Int64]
    ) {
        let route = w.kind.hasRoute ? routeFileName(w.start) : nil
        let inZip = route != nil && p.index % 5 != 1
        let average =
            heartRates.isEmpty
            ? nil : Double((heartRates.reduce(0, +) * 20_000 / Int64(heartRates.count) + 1) / 2) / 10_000
        extended.workouts.append(
            SyntheticWorkoutTruth(
                startSecondsSince1970: w.start, endSecondsSince1970: w.end,
                activityType: variant == .multisport ? "HKWorkoutActivityTypeSwimBikeRun" : w.kind.activityType,
                source: "\(config.ownerName)\u{2019}s Apple Watch", durationMinutes: Double(w.activeSeconds) / 60,
                elapsedMinutes: Double(w.end - w.start) / 60,
                distanceKm: w.kind.hasRoute ? Double(distance) / 100_000 : nil,
                activeEnergyKcal: Double(active) / 1000, heartRateAverageBpm: average,
                heartRateMaxBpm: heartRates.max().map(Double.init), routeFile: route, routeInZip: inZip,
                isDuplicate: false,
                legCount: variant == .multisport ? 2 : 0))
        if let route, inZip { extended.routes.append(makeRoute(w, fileName: route)) }

        guard w.strava, p.index % 3 == 0, variant != .multisport else { return }
        // Strava's copy of the run: its own (slightly shorter) span and totals, attributes only.
        let start = w.start + 20
        let end = w.end - 15
        let stravaDistance = distance * 101 / 100
        let stravaEnergy = active * 92 / 100
        let activeSeconds = end - start - w.pauseSeconds
        out.append(" <Workout workoutActivityType=\"")
        out.append(Array(w.kind.activityType.utf8))
        out.append("\" duration=\"")
        out.append(Array(String(Double(activeSeconds) / 60).utf8))
        out.append("\" durationUnit=\"min\"")
        writeTotals(distance: stravaDistance, energy: stravaEnergy)
        out.append(" sourceName=\"Strava\" sourceVersion=\"39310\"")
        writeTimes(created: end + 600, start: start, end: end)
        out.append(">\n")
        if config.writesTimeZoneMetadata && schedule.namesZone(at: start) {
            writeMetadata("HKTimeZone", zoneEscaped[schedule.zone(at: start)], indent: 2)
        }
        out.append(" </Workout>\n")
        extended.workouts.append(
            SyntheticWorkoutTruth(
                startSecondsSince1970: start, endSecondsSince1970: end, activityType: w.kind.activityType,
                source: "Strava",
                durationMinutes: Double(activeSeconds) / 60, elapsedMinutes: Double(end - start) / 60,
                distanceKm: Double(stravaDistance) / 100_000, activeEnergyKcal: Double(stravaEnergy) / 1000,
                heartRateAverageBpm: nil, heartRateMaxBpm: nil, routeFile: nil, routeInZip: false, isDuplicate: true,
                legCount: 0))
    }

    /// A loop in the Tiergarten, one point every 10 s while not paused, GPX 1.1 as the Health
    /// app writes it (times in UTC).
    func makeRoute(_ w: WorkoutPlan, fileName: String) -> SyntheticRouteTruth {
        var r = SplitMix64(seed: config.seed, day: Int(w.start / 86_400), stream: 500)
        let speed = w.kind == .running ? 3.0 : 1.5  // m/s
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
             <metadata>
              <time>\(utcText(w.end + 30))</time>
             </metadata>
             <trk>
              <name>Route \(routeTitle(w.start))</name>
              <trkseg>

            """
        var points: [(Double, Double, Double)] = []
        var angle = Double(r.int(0...359)) * .pi / 180
        var t = w.start
        while t <= w.end {
            if t >= w.pauseAt && t < w.pauseAt + w.pauseSeconds {
                t += 10
                continue
            }
            // 10 s at `speed` around a 700 m × 450 m ellipse (radius ≈ 500 m, so Δangle = d / 500).
            angle += speed * 10 / 500
            let lat = ((52.5145 + 0.0040 * sin(angle)) * 1e6).rounded() / 1e6
            let lon = ((13.3500 + 0.0065 * cos(angle)) * 1e6).rounded() / 1e6
            let ele = ((34 + 6 * sin(3 * angle) + Double(r.int(-20...20)) / 100) * 100).rounded() / 100
            points.append((lat, lon, ele))
            text += "   <trkpt lon=\"\(String(format: "%.6f", lon))\" lat=\"\(String(format: "%.6f", lat))\">"
            text += "<ele>\(String(format: "%.2f", ele))</ele><time>\(utcText(t))</time>"
            text +=
                "<extensions><speed>\(speed)</speed><course>-1.0</course><hAcc>3.5</hAcc><vAcc>2.4</vAcc></extensions></trkpt>\n"
            t += 10
        }
        text += "  </trkseg>\n </trk>\n</gpx>\n"
        var distance = 0.0
        var gain = 0.0
        for k in points.indices.dropFirst() {
            let (a, b) = (points[k - 1], points[k])
            let (p1, p2) = (a.0 * .pi / 180, b.0 * .pi / 180)
            let dp = p2 - p1
            let dl = (b.1 - a.1) * .pi / 180
            let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
            distance += 2 * 6_371_008.8 * asin(min(1, sqrt(h)))
            gain += max(0, b.2 - a.2)
        }
        return SyntheticRouteTruth(
            fileName: fileName, pointCount: points.count, distanceKm: distance / 1000, elevationGainM: gain,
            gpx: Array(text.utf8))
    }

    /// `2025-10-01 6:15pm`: the route's `<name>`, in the true local time of the start.
    func routeTitle(_ start: Int64) -> String {
        let c = routeClock(start)
        return "\(c.date) \(c.hour):\(c.minute)\(c.amPM)"
    }

    /// `2025-10-01T16:15:00Z`.
    func utcText(_ t: Int64) -> String {
        let day = Int(floorDiv(t, 86_400))
        let sod = Int(t - Int64(day) * 86_400)
        return
            "\(Civil.format(days: day))T\(Civil.pad(sod / 3600, 2)):\(Civil.pad(sod / 60 % 60, 2)):\(Civil.pad(sod % 60, 2))Z"
    }
}

extension SyntheticVitalsTruth {
    init(date: String) { self.date = date }
}

/// Seconds covered by the union of `[start, end)` intervals.
func unionSeconds(_ intervals: [(Int64, Int64)]) -> Int64 {
    var total: Int64 = 0
    var current: (Int64, Int64)?
    for (s, e) in intervals.sorted(by: { $0.0 < $1.0 }) where e > s {
        if let c = current, s <= c.1 {
            current = (c.0, max(c.1, e))
        } else {
            if let c = current { total += c.1 - c.0 }
            current = (s, e)
        }
    }
    if let c = current { total += c.1 - c.0 }
    return total
}
