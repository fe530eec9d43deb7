/// Turns a day plan into the samples of one record type. Deterministic per (seed, day,
/// kind): regenerating a kind for a day gives the same samples, which the workout
/// statistics rely on.
struct SampleFactory {
    let seed: UInt64

    func samples(_ kind: RecordKind, _ p: DayPlan, into out: inout [Sample]) {
        guard !p.isEmpty else { return }
        var r = SplitMix64(seed: seed, day: p.index, stream: Stream.kind(kind))
        switch kind {
        case .stepCount, .distance:
            stepsOrDistance(kind, p, &r, into: &out)
        case .basalEnergy:
            basalEnergy(p, &r, into: &out)
        case .activeEnergy:
            activeEnergy(p, &r, into: &out)
        case .flights:
            flights(p, &r, into: &out)
        case .heartRate:
            heartRate(p, &r, into: &out)
        case .bloodPressureSystolic, .bloodPressureDiastolic:
            bloodPressure(kind, p, &r, into: &out)
        case .exerciseTime:
            exerciseTime(p, &r, into: &out)
        case .restingHeartRate:
            restingHeartRate(p, &r, into: &out)
        case .heartRateVariability:
            heartRateVariability(p, &r, into: &out)
        case .standTime:
            standTime(p, &r, into: &out)
        case .sleepAnalysis:
            sleepAnalysis(p, &r, into: &out)
        case .respiratoryRate, .oxygenSaturation, .wristTemperature, .vo2Max, .bodyMass, .walkingHeartRate:
            break  // written by Generator+Extended.swift when the configuration asks for them
        case .standHour:
            standHours(p, &r, into: &out)
        }
    }

    /// The Watch's 1-minute samples, the iPhone's 5/10-minute samples inside walks with the Watch on
    /// (hidden by the Watch's), the iPhone's chunks while the Watch is off, Strava's walk and a
    /// manual entry: `HKQuantityTypeIdentifierStepCount` or `…DistanceWalkingRunning`.
    private func stepsOrDistance(_ kind: RecordKind, _ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        let perMinute = kind == .stepCount ? p.watchSteps : p.watchDistance
        for m in 0..<p.wornMinutes where perMinute[m] > 0 {
            let s = ws + Int64(m) * 60
            out.append(
                Sample(
                    start: s, end: s + 60, value: Int64(perMinute[m]), created: r.created(after: s + 60), source: .watch
                ))
        }
        // The iPhone's 5/10-minute samples of walks with the Watch on: inside the walk,
        // so the Watch's 1-minute samples hide them completely; counts differ a little.
        for w in p.wornWalks {
            var t = w.start
            while t < w.end {
                let e = min(t + (r.chance(0.5) ? 300 : 600), w.end)
                var watch: Int64 = 0
                var u = t
                while u < e {
                    watch += Int64(perMinute[p.minuteIndex(u)!])
                    u += 60
                }
                let v = max(1, watch * Int64(r.int(90...110)) / 100)
                out.append(Sample(start: t, end: e, value: v, created: r.created(after: e, 60, 900), source: .phone))
                t = e
            }
        }
        for c in p.unwornChunks {
            let v = kind == .stepCount ? c.steps : c.distance
            out.append(
                Sample(start: c.start, end: c.end, value: v, created: r.created(after: c.end, 60, 900), source: .phone))
        }
        if kind == .distance, let w = p.stravaWalk {
            // Strava's one sample over the morning walk; the iPhone's chunks cover it.
            let phone = p.unwornChunks.filter { $0.start >= w.start && $0.end <= w.end }.reduce(0) {
                $0 + $1.distance
            }
            out.append(
                Sample(
                    start: w.start, end: w.end, value: phone * 102 / 100, created: r.created(after: w.end, 30, 120),
                    source: .strava))
        }
        if kind == .stepCount, let m = p.manualSteps {
            out.append(
                Sample(
                    start: m.time, end: m.time, value: m.steps, created: r.created(after: m.time, 30, 3000),
                    source: .manual,
                    tag: Tag.userEntered))
        }
    }

    /// Basal energy: contiguous samples of 1–3 minutes, cut at workout edges.
    private func basalEnergy(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        // Contiguous samples of 1–3 minutes (real Watches write about half as many basal as
        // active samples), cut at workout edges so workout statistics sum whole samples.
        let edges = p.workouts.flatMap { [$0.start, $0.end] }
        var s = ws
        while s < p.wearEnd {
            var e = min(s + 60 * Int64(r.int(1...3)), p.wearEnd)
            for edge in edges where edge > s && edge < e { e = edge }
            let minutes = (e - s) / 60
            out.append(
                Sample(
                    start: s, end: e, value: minutes * Int64(r.int(1020...1180)), created: r.created(after: e),
                    source: .watch))
            s = e
        }
    }

    /// Active energy: one Watch sample a worn minute by its kind, Strava's hidden estimate over
    /// its workouts, and Strava's walk with the Watch off.
    private func activeEnergy(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        let first = out.count
        for m in 0..<p.wornMinutes {
            let s = ws + Int64(m) * 60
            let v: Int
            switch p.minuteKind[m] {
            case .rest: v = r.int(60...380)
            case .incidental: v = r.int(700...1500)
            case .walk: v = r.int(3500...4800)
            case .briskWalk: v = r.int(4800...6400)
            case .run: v = r.int(10500...13500)
            case .workoutWalk: v = r.int(5000...6500)
            case .strength: v = r.int(6000...9000)
            }
            out.append(
                Sample(start: s, end: s + 60, value: Int64(v), created: r.created(after: s + 60), source: .watch))
        }
        for w in p.workouts where w.strava {
            // Strava's own estimate over the workout, lower than the Watch's: hidden.
            let watch = out[first...].filter { $0.start >= w.start && $0.end <= w.end }.reduce(0) { $0 + $1.value }
            out.append(
                Sample(
                    start: w.start, end: w.end, value: watch * 92 / 100, created: r.created(after: w.end, 60, 600),
                    source: .strava))
        }
        if let w = p.stravaWalk {
            // Watch not worn: nothing hides this one.
            out.append(
                Sample(
                    start: w.start, end: w.end, value: (w.end - w.start) / 60 * Int64(r.int(3800...4600)),
                    created: r.created(after: w.end, 30, 120), source: .strava))
        }
    }

    /// Flights climbed: the iPhone's, during walks and at a few resting minutes.
    private func flights(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        for w in p.wornWalks + p.unwornWalks where r.chance(0.4) {
            let s = w.start + 60 * Int64(r.int(0...3))
            let e = s + 60 * Int64(r.int(1...3))
            guard e <= w.end, (s < p.dayEnd) == (e <= p.dayEnd) else { continue }
            out.append(
                Sample(
                    start: s, end: e, value: Int64(r.int(1...3)), created: r.created(after: e, 60, 600), source: .phone)
            )
        }
        for _ in 0..<r.int(1...4) {
            let m = r.int(0...(p.wornMinutes - 1))
            let s = ws + Int64(m) * 60
            guard p.minuteKind[m] == .rest || p.minuteKind[m] == .incidental else { continue }
            out.append(
                Sample(
                    start: s, end: s + 60, value: Int64(r.int(1...2)), created: r.created(after: s + 60, 60, 600),
                    source: .phone))
        }
    }

    /// Heart rate: every 5–10 minutes while worn, every 5 seconds in workouts, and through the night.
    private func heartRate(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        var t = ws + Int64(r.int(20...280))
        while t < p.wearEnd {
            if let w = p.workouts.first(where: { t >= $0.start && t < $0.end }) {
                t = w.end + Int64(r.int(5...60))
                continue
            }
            let k = p.minuteKind[p.minuteIndex(t)!]
            let v: Int
            switch k {
            case .rest: v = r.int(58...78)
            case .incidental: v = r.int(70...92)
            case .walk: v = r.int(92...108)
            default: v = r.int(104...122)
            }
            out.append(
                Sample(
                    start: t, end: t, value: Int64(v), created: r.created(after: t, 5, 400), source: .watch,
                    tag: k.isActive ? Tag.active : Tag.sedentary))
            t += Int64(r.int(300...600))
        }
        for w in p.workouts {
            // Every 5 seconds during a workout.
            let (lo, hi): (Int, Int)
            switch w.kind {
            case .running: (lo, hi) = (128, 172)
            case .walking: (lo, hi) = (100, 128)
            case .strength: (lo, hi) = (95, 150)
            }
            var t = w.start + 2
            let span = Double(w.end - w.start)
            while t < w.end {
                let ramp = min(1.0, Double(t - w.start) / (0.2 * span))
                let base = lo + Int(Double(hi - lo - 8) * ramp)
                out.append(
                    Sample(
                        start: t, end: t, value: Int64(base + r.int(0...8)), created: r.created(after: t, 5, 60),
                        source: .watch, tag: Tag.active))
                t += 5
            }
        }
        if let bed = p.bedtime, let wake = p.nextWake {
            var t = bed + Int64(r.int(60...600))
            while t < wake {
                out.append(
                    Sample(
                        start: t, end: t, value: Int64(r.int(48...60)), created: r.created(after: t, 5, 900),
                        source: .watch,
                        tag: Tag.sedentary))
                t += Int64(r.int(540...840))
            }
        }
    }

    /// One blood-pressure reading (systolic or diastolic) from a cuff app, on days that have one.
    private func bloodPressure(_ kind: RecordKind, _ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        if let bp = p.bloodPressure {
            let v = kind == .bloodPressureSystolic ? bp.systolic : bp.diastolic
            out.append(Sample(start: bp.time, end: bp.time, value: v, created: bp.time + 4, source: .healthMate))
        }
    }

    /// Apple Exercise Time: one minute per exercise minute.
    private func exerciseTime(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        for m in 0..<p.wornMinutes where p.minuteKind[m].isExercise {
            let s = ws + Int64(m) * 60
            out.append(
                Sample(start: s, end: s + 60, value: 1, created: r.created(after: s + 60, 5, 120), source: .watch))
        }
    }

    /// Resting heart rate: one sample over the worn day.
    private func restingHeartRate(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        let s = ws + Int64(r.int(0...600))
        let e = p.wearEnd - Int64(r.int(300...1800))
        out.append(
            Sample(
                start: s, end: e, value: Int64(r.int(52...62)), created: r.created(after: e, 60, 600), source: .watch))
    }

    /// HRV (SDNN): a few readings at rest during the day and two at night, each with its beat count.
    private func heartRateVariability(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        // A few readings at rest during the day and two at night.
        for _ in 0..<r.int(2...3) {
            let m = r.int(0...(p.wornMinutes - 2))
            guard p.minuteKind[m] == .rest else { continue }
            let s = ws + Int64(m) * 60 + Int64(r.int(0...50))
            out.append(
                Sample(
                    start: s, end: s + Int64(r.int(55...65)), value: Int64(r.int(25_000...80_000)),
                    created: r.created(after: s + 65, 30, 600), source: .watch, tag: UInt8(r.int(58...78))))
        }
        if let bed = p.bedtime, let wake = p.nextWake, wake - bed > 3 * 3600 {
            for _ in 0..<2 {
                let s = bed + 3600 + r.int64(0...(wake - bed - 2 * 3600))
                out.append(
                    Sample(
                        start: s, end: s + Int64(r.int(55...65)), value: Int64(r.int(35_000...95_000)),
                        created: r.created(after: s + 65, 30, 900), source: .watch, tag: UInt8(r.int(48...60))))
            }
        }
    }

    /// Apple Stand Time: 5-minute buckets in the hours stood.
    private func standTime(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        let ws = p.wearStart
        for h in p.standHours where h.stood {
            let from = max(h.start, ws)
            let to = min(h.start + 3600, p.wearEnd)
            let buckets = Int((to - from) / 300)
            guard buckets > 0 else { continue }
            var used = Set<Int>()
            for _ in 0..<r.int(1...3) {
                let b = r.int(0...(buckets - 1))
                guard used.insert(b).inserted else { continue }
                let s = from + Int64(b) * 300
                out.append(
                    Sample(
                        start: s, end: s + 300, value: Int64(r.int(1...5)), created: r.created(after: s + 300, 20, 300),
                        source: .watch))
            }
        }
    }

    /// Sleep: the iPhone's in-bed sample and the Watch's stages, with short awakenings.
    private func sleepAnalysis(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        guard let bed = p.bedtime, let wake = p.nextWake else { return }
        out.append(
            Sample(
                start: bed, end: wake, value: 0, created: r.created(after: wake, 60, 1800), source: .phone,
                tag: Tag.inBed))
        var t = bed + 60 * Int64(r.int(8...25))
        let cycle: [(UInt8, ClosedRange<Int>)] = [
            (Tag.core, 25...50), (Tag.deep, 10...30), (Tag.core, 10...20), (Tag.rem, 10...30),
        ]
        var i = 0
        var lastAwake = false
        while t < wake {
            var (stage, range) = cycle[i % cycle.count]
            if i % cycle.count == 0 && i > 0 && !lastAwake && r.chance(0.35) {
                (stage, range) = (Tag.awake, 1...4)
                lastAwake = true
            } else {
                i += 1
                lastAwake = false
            }
            let e = min(t + 60 * Int64(r.int(range)) + Int64(r.int(0...59)), wake)
            out.append(
                Sample(
                    start: t, end: e, value: 0, created: r.created(after: wake, 60, 1800), source: .watch, tag: stage))
            t = e
        }
    }

    /// Apple Stand Hour: one sample per hour, stood or idle.
    private func standHours(_ p: DayPlan, _ r: inout SplitMix64, into out: inout [Sample]) {
        for h in p.standHours {
            out.append(
                Sample(
                    start: h.start, end: h.start + 3600, value: 0, created: r.created(after: h.start + 3600, 10, 300),
                    source: .watch, tag: h.stood ? Tag.stood : Tag.idle))
        }
    }
}

extension SplitMix64 {
    /// A creation time `lo...hi` seconds after `end` (the default: 15 s to 4 min, as a Watch
    /// syncs), drawn from this generator.
    fileprivate mutating func created(after end: Int64, _ lo: Int = 15, _ hi: Int = 240) -> Int64 {
        end + Int64(int(lo...hi))
    }
}
