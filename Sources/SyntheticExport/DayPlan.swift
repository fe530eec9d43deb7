/// Random streams: each purpose draws from its own (seed, day, stream) generator, so any
/// record type can be regenerated for any day, in any order, with identical values.
enum Stream {
    static let plan: UInt64 = 1
    static let wake: UInt64 = 2
    static let minutes: UInt64 = 3
    static let created: UInt64 = 4
    static func kind(_ k: RecordKind) -> UInt64 { 100 + UInt64(k.rawValue) }
    static let workout: UInt64 = 200
}

/// Everything that happens on one local day, decided up front. Times are instants (UTC
/// seconds); wall-clock anchors ("07:00") go through the zone, durations are elapsed seconds.
///
/// The day: asleep until `wake` (the previous night), perhaps an iPhone-only walk before the
/// Watch goes on at `wearStart` (07:00–07:30, or 08:30–09:45 on "late" days), the Watch worn
/// until `wearEnd` (22:00–22:45) with walks and perhaps a workout, perhaps an iPhone-only
/// walk across midnight, then the Watch goes back on for the night at `bedtime` (sleep
/// tracking only) until the next day's wake-up.
struct DayPlan {
    let index: Int
    let day: Int  // days since 1970 of the local date
    let dayStart: Int64
    let dayEnd: Int64
    var wake: Int64 = 0
    var wearStart: Int64 = 0
    var wearEnd: Int64 = 0
    /// Per worn minute `i` (instant `wearStart + 60 i`): activity, Watch steps, Watch distance.
    var minuteKind: [MinuteKind] = []
    var watchSteps: [Int32] = []
    var watchDistance: [Int32] = []  // 1e-5 km
    /// Walks (and run/walk workouts) with the Watch on: the iPhone records them too.
    var wornWalks: [Walk] = []
    /// Walks without the Watch: iPhone samples, decided here.
    var unwornWalks: [Walk] = []
    var unwornChunks: [PhoneChunk] = []
    /// The morning walk is also recorded by Strava (energy and distance) when set.
    var stravaWalk: Walk?
    var workouts: [WorkoutPlan] = []
    var standHours: [StandHourPlan] = []
    /// The night starting this evening; `nil` on the last day (data stops at its midnight).
    var bedtime: Int64?
    var nextWake: Int64?
    var manualSteps: (time: Int64, steps: Int64)?
    var bloodPressure: (time: Int64, systolic: Int64, diastolic: Int64)?
    var moveGoal: Int64 = 500
    var exerciseGoal: Int64 = 30
    var standGoal: Int64 = 12

    var wornMinutes: Int { minuteKind.count }
    /// A day without any sample (`SyntheticExportConfiguration.emptyDays`): nothing is worn or
    /// recorded; only its `ActivitySummary` (zero rings, the goals) is written.
    var isEmpty = false

    /// The worn-minute index containing `t`, if worn then.
    func minuteIndex(_ t: Int64) -> Int? {
        guard t >= wearStart, t < wearEnd else { return nil }
        return Int((t - wearStart) / 60)
    }
}

struct Planner {
    let seed: UInt64
    let firstDay: Int
    let dayCount: Int
    let schedule: ZoneSchedule

    /// The wake-up instant of day `index` (06:00–06:50 local), from its own stream so that
    /// the previous day's night can end exactly there.
    func wake(_ index: Int) -> Int64 {
        var r = SplitMix64(seed: seed, day: index, stream: Stream.wake)
        return schedule.clock(index).instant(day: firstDay + index, hour: 6, minute: r.int(0...50))
    }

    /// Day `index`'s plan, stage by stage, each drawing from the day's plan stream in this
    /// order (so that the same seed gives the same export): when the Watch is worn, the walks
    /// without it and the night, a workout, the walks with it, minute-level activity (its own
    /// stream), the iPhone's samples of the unworn walks, stand hours, and the odd manual entries.
    func makePlan(_ index: Int) -> DayPlan {
        var p = DayPlan(
            index: index, day: firstDay + index, dayStart: schedule.dayStart(index),
            dayEnd: schedule.dayStart(index + 1))
        if schedule.isEmptyDay(index) {
            p.isEmpty = true
            p.moveGoal = index < 45 ? 500 : 550
            (p.wake, p.wearStart, p.wearEnd) = (p.dayStart, p.dayStart, p.dayStart)
            return p
        }
        var r = SplitMix64(seed: seed, day: index, stream: Stream.plan)
        let shortTravelDay = planWearing(&p, &r)
        planUnwornWalks(&p, &r, shortTravelDay: shortTravelDay)
        planWorkout(&p, &r)
        let brisk = planWornWalks(&p, &r)
        planMinutes(&p, brisk: brisk)
        planPhoneChunks(&p, &r)
        planStandHours(&p, &r)
        if index % 10 == 3 {
            p.manualSteps = (at(p, 12, 0) + Int64(r.int(0...3599)), 500 * Int64(r.int(1...3)))
        }
        if index % 9 == 3 {
            p.bloodPressure = (
                p.wearStart + 1800 + Int64(r.int(0...1800)), Int64(r.int(112...132)), Int64(r.int(70...84))
            )
        }
        return p
    }

    /// The instant of local `h:m` on `p`'s day, in the day's zone.
    private func at(_ p: DayPlan, _ h: Int, _ m: Int) -> Int64 {
        schedule.instant(day: p.index, hour: h, minute: m)
    }

    /// Wake-up, when the Watch goes on and off, and the Move goal. True on a short travel day
    /// (an eastward change of up to 15 hours leaves 9 hours, the Watch off at 08:00): the Watch
    /// is on from 40 minutes after waking, and there is no morning walk.
    private func planWearing(_ p: inout DayPlan, _ r: inout SplitMix64) -> Bool {
        let index = p.index
        p.wake = wake(index)
        let lateWatch = index % 3 == 2 || r.chance(0.15)
        p.wearStart = lateWatch ? at(p, 8, 30 + 5 * r.int(0...15)) : at(p, 7, 5 * r.int(0...6))
        if schedule.startsAtDeparture(index) {
            // The day starts on arrival: awake 30 minutes after it, the Watch on 30 minutes later.
            p.wake = max(p.wake, p.dayStart + 1800)
            p.wearStart = max(p.wearStart, p.wake + 1800)
        }
        p.wearEnd = at(p, 22, 5 * r.int(0...9))
        if schedule.isTravelDay(index) { p.wearEnd = min(p.wearEnd, p.dayEnd - 3600) }
        let shortTravelDay = schedule.isTravelDay(index) && p.wearStart > p.wearEnd - 3 * 3600
        if shortTravelDay { p.wearStart = min(p.wearStart, p.wake + 2400) }
        p.moveGoal = index < 45 ? 500 : 550
        return shortTravelDay
    }

    /// The walks without the Watch, and the night. A morning walk before the Watch goes on
    /// (iPhone only, sometimes also Strava; the Watch goes on 5–15 minutes after it at the
    /// earliest); a late walk across local midnight (iPhone only). The last day, a travel
    /// day (the next day is in another zone) and the day before an empty day have neither the
    /// late walk nor a night.
    private func planUnwornWalks(_ p: inout DayPlan, _ r: inout SplitMix64, shortTravelDay: Bool) {
        let index = p.index
        let isLast = index == dayCount - 1 || schedule.isTravelDay(index) || schedule.isEmptyDay(index + 1)
        if !shortTravelDay && (index % 2 == 0 || r.chance(0.3)) {
            let start = p.wake + 60 * Int64(r.int(8...15))
            let end = start + 60 * Int64(r.int(15...35))
            let w = Walk(start: start, end: end)
            p.unwornWalks.append(w)
            if index % 4 == 0 || r.chance(0.2) { p.stravaWalk = w }
            p.wearStart = max(p.wearStart, end + 300 * Int64(r.int(1...3)))
        }
        var lateEnd: Int64?
        if !isLast && (index % 7 == 1 || r.chance(0.05)) {
            // Not on a 10-minute mark, so one 10-minute iPhone sample straddles midnight.
            var minute = r.int(40...52)
            if minute % 10 == 0 { minute += 3 }
            let start = at(p, 23, minute)
            let end = start + 60 * Int64(r.int(20...30))
            p.unwornWalks.append(Walk(start: start, end: end))
            lateEnd = end
        }
        if !isLast {
            p.bedtime = lateEnd.map { $0 + 60 * Int64(r.int(10...25)) } ?? at(p, 23, r.int(0...50))
            p.nextWake = wake(index + 1)
        }
    }

    /// A run on weekday 2, a run/walk/strength session on weekday 4, often a run on 6; on a
    /// travel day the Watch may come off before an evening workout, and on the day of an
    /// arrival it may go on after a lunch workout: such a workout is left out.
    private func planWorkout(_ p: inout DayPlan, _ r: inout SplitMix64) {
        let wk = p.index % 7
        var workoutKind: WorkoutKind?
        if wk == 2 { workoutKind = .running }
        if wk == 4 { workoutKind = [WorkoutKind.running, .walking, .strength][r.int(0...2)] }
        if wk == 6 && r.chance(0.6) { workoutKind = .running }
        guard let kind = workoutKind else { return }
        let lunch = wk == 4 && r.chance(0.5)
        let start = lunch ? at(p, 12, 5 * r.int(0...6)) : at(p, 18, 5 * r.int(0...18))
        let minutes: Int
        switch kind {
        case .running: minutes = 5 * r.int(5...11)
        case .walking: minutes = 5 * r.int(6...12)
        case .strength: minutes = 5 * r.int(6...9)
        }
        let end = start + Int64(minutes) * 60
        let pauseAt = start + 60 * Int64(r.int(8...(minutes - 8))) + Int64(r.int(0...59))
        let pause = kind == .strength ? 0 : Int64(r.int(40...180))
        if end <= p.wearEnd - 600 && start >= p.wearStart + 600 {
            p.workouts.append(
                WorkoutPlan(
                    kind: kind, start: start, end: end, pauseAt: pauseAt, pauseSeconds: pause,
                    strava: kind == .running && (wk == 2 || r.chance(0.3))))
        }
    }

    /// Walks with the Watch on: always at lunch, sometimes in the morning, afternoon, evening;
    /// none within 10 minutes of another or of the Watch going on or off. Returns which are brisk.
    private func planWornWalks(_ p: inout DayPlan, _ r: inout SplitMix64) -> [Bool] {
        var brisk: [Bool] = []
        let windows: [(h: Int, m: Int, spanSteps: Int, p: Double)] = [
            (8, 0, 18, 0.6), (12, 15, 15, 1.0), (15, 0, 24, 0.6), (20, 0, 18, 0.6),
        ]
        for w in windows where r.chance(w.p) {
            let start = at(p, w.h, w.m + 5 * r.int(0...w.spanSteps))
            let end = start + 300 * Int64(r.int(2...8))
            let isBrisk = r.chance(0.5)
            guard start >= p.wearStart + 600, end <= p.wearEnd - 600 else { continue }
            let clash =
                p.workouts.contains { start < $0.end + 600 && $0.start < end + 600 }
                || p.wornWalks.contains { start < $0.end + 600 && $0.start < end + 600 }
            if clash { continue }
            p.wornWalks.append(Walk(start: start, end: end))
            brisk.append(isBrisk)
        }
        return brisk
    }

    /// Minute-level activity while worn (walks, workouts, incidental steps), and the Watch's
    /// steps and distance per minute, from the day's minutes stream.
    private func planMinutes(_ p: inout DayPlan, brisk: [Bool]) {
        let n = Int((p.wearEnd - p.wearStart) / 60)
        p.minuteKind = Array(repeating: .rest, count: n)
        for (i, w) in p.wornWalks.enumerated() {
            for m in p.minuteIndex(w.start)!..<Int((w.end - p.wearStart) / 60) {
                p.minuteKind[m] = brisk[i] ? .briskWalk : .walk
            }
        }
        for w in p.workouts {
            for m in p.minuteIndex(w.start)!..<Int((w.end - p.wearStart) / 60) { p.minuteKind[m] = w.kind.minuteKind }
            if w.kind != .strength { p.wornWalks.append(Walk(start: w.start, end: w.end)) }
        }
        p.wornWalks.sort { $0.start < $1.start }
        var mr = SplitMix64(seed: seed, day: p.index, stream: Stream.minutes)
        for _ in 0..<mr.int(30...70) {
            let m = mr.int(0...(n - 1))
            if p.minuteKind[m] == .rest { p.minuteKind[m] = .incidental }
        }
        p.watchSteps = Array(repeating: 0, count: n)
        p.watchDistance = Array(repeating: 0, count: n)
        for m in 0..<n {
            let steps: Int
            let strideCm: Int
            switch p.minuteKind[m] {
            case .rest: (steps, strideCm) = (0, 0)
            case .incidental: (steps, strideCm) = (mr.int(4...60), mr.int(55...68))
            case .walk: (steps, strideCm) = (mr.int(85...105), mr.int(68...76))
            case .briskWalk: (steps, strideCm) = (mr.int(108...125), mr.int(74...82))
            case .run: (steps, strideCm) = (mr.int(150...176), mr.int(95...115))
            case .workoutWalk: (steps, strideCm) = (mr.int(112...124), mr.int(74...82))
            case .strength: (steps, strideCm) = (mr.int(2...15), 0)
            }
            p.watchSteps[m] = Int32(steps)
            p.watchDistance[m] = Int32(steps * strideCm)
        }
    }

    /// iPhone samples of the walks without the Watch: 10-minute chunks (the last one shorter).
    /// A chunk crossing local midnight gets values divisible by
    /// duration / gcd(seconds before midnight, duration), so both parts are whole units.
    private func planPhoneChunks(_ p: inout DayPlan, _ r: inout SplitMix64) {
        for w in p.unwornWalks {
            var t = w.start
            while t < w.end {
                let e = min(t + 600, w.end)
                let minutes = (e - t) / 60
                var steps = minutes * Int64(r.int(92...112))
                var distance = steps * Int64(r.int(70...77))
                if t < p.dayEnd && e > p.dayEnd {
                    let q = (e - t) / gcd(p.dayEnd - t, e - t)
                    steps = max(q, steps / q * q)
                    distance = max(q, distance / q * q)
                }
                p.unwornChunks.append(PhoneChunk(start: t, end: e, steps: steps, distance: distance))
                t = e
            }
        }
    }

    /// Stand hours: every local hour the Watch is worn in (partly) gets a record, stood when
    /// active in it or by chance (less likely from 21:00). On a travel day with a westward
    /// departure the hours run on in the new zone's clock (a whole number of hours behind: the
    /// same hour boundaries).
    private func planStandHours(_ p: inout DayPlan, _ r: inout SplitMix64) {
        let clock = schedule.clock(p.index)
        let firstHour = Int((clock.localSeconds(at: p.wearStart) - Int64(p.day) * 86_400) / 3600)
        let lastHour = Int((clock.localSeconds(at: p.wearEnd - 1) - Int64(p.day) * 86_400) / 3600)
        let westward = schedule.departsWestward(p.index)
        let firstStart = at(p, firstHour, 0)
        for k in 0...(lastHour - firstHour) {
            let hs = westward ? firstStart + 3600 * Int64(k) : at(p, firstHour + k, 0)
            guard hs < p.wearEnd else { break }
            let h = westward ? Int(((schedule.localSeconds(at: hs) % 86_400) + 86_400) % 86_400 / 3600) : firstHour + k
            let he = hs + 3600
            var active = false
            var t = max(hs, p.wearStart)
            while t < min(he, p.wearEnd) {
                if p.minuteKind[p.minuteIndex(t)!].isActive {
                    active = true
                    break
                }
                t += 60
            }
            p.standHours.append(StandHourPlan(start: hs, stood: active || r.chance(h >= 21 ? 0.35 : 0.8)))
        }
    }
}

func gcd(_ a: Int64, _ b: Int64) -> Int64 {
    var (x, y) = (abs(a), abs(b))
    while y != 0 { (x, y) = (y, x % y) }
    return x
}
