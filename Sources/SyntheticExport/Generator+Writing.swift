/// The XML shapes: Apple's attribute order, one space of indentation per level.
extension Generator {
    mutating func writeHeader() {
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        out.append(Array(PrologText.text(config.prolog).utf8))
        out.append("<HealthData locale=\"")
        out.appendEscaped(config.locale)
        out.append("\">\n <ExportDate value=\"")
        out.append(timestamp: exportInstant)
        out.append("\"/>\n")
        out.append(
            " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-04-12\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"
        )
    }

    /// A new pseudo memory address for each `HKDevice` description, as real exports have.
    mutating func nextAddress() -> UInt64 {
        addressState = addressState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let x = addressState >> 28
        let top: UInt64 = [0x2, 0x3, 0x8][Int((x >> 40) % 3)]
        return top << 32 | (x & 0xFFFF_FFF0)
    }

    mutating func indent(_ level: Int) {
        for _ in 0..<level { out.append(byte: 0x20) }
    }

    mutating func writeDevice(_ source: Source) {
        guard let tail = devices[Int(source.rawValue)] else { return }
        out.append(" device=\"&lt;&lt;HKDevice: 0x")
        out.append(hex: nextAddress(), width: 9)
        out.append(tail)
    }

    mutating func writeMetadata(_ key: StaticString, _ value: [UInt8], indent level: Int) {
        value.withUnsafeBufferPointer { writeMetadata(key, $0, indent: level) }
    }

    mutating func writeMetadata(_ key: StaticString, _ value: StaticString, indent level: Int) {
        value.withUTF8Buffer { writeMetadata(key, $0, indent: level) }
    }

    /// A `<MetadataEntry key value/>` line; `value` is written as it is (escaped by the caller).
    private mutating func writeMetadata(_ key: StaticString, _ value: UnsafeBufferPointer<UInt8>, indent level: Int) {
        indent(level)
        out.append("<MetadataEntry key=\"")
        out.append(key)
        out.append("\" value=\"")
        out.append(value)
        out.append("\"/>\n")
        metadataCount += 1
    }

    mutating func writeTimes(created: Int64, start: Int64, end: Int64) {
        out.append(" creationDate=\"")
        out.append(timestamp: created)
        out.append("\" startDate=\"")
        out.append(timestamp: start)
        out.append("\" endDate=\"")
        out.append(timestamp: end)
        out.append("\"")
    }

    /// Counts `s` on every day its interval overlaps (an instant: the day it lies in).
    mutating func countOnDays(_ kind: RecordKind, _ s: Sample) {
        if dayKindCounts.isEmpty {
            dayKindCounts = Array(repeating: Array(repeating: 0, count: RecordKind.allCases.count), count: days.count)
        }
        // The first day whose end is after the start (dayBounds is ascending, days.count + 1 long).
        var lo = 0
        var hi = days.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if dayBounds[mid + 1] <= s.start { lo = mid + 1 } else { hi = mid }
        }
        var i = lo
        while i < days.count && (dayBounds[i] < s.end || (s.start == s.end && dayBounds[i] <= s.start)) {
            dayKindCounts[i][kind.rawValue] += 1
            if s.start == s.end { break }
            i += 1
        }
    }

    mutating func writeRecord(_ kind: RecordKind, _ s: Sample, indent level: Int) {
        countOnDays(kind, s)
        indent(level)
        out.append(prefixes[kind.rawValue][Int(s.source.rawValue)])
        // As in real exports: sleep records (Watch and iPhone) and Watch stand time carry no device.
        let deviceless = kind == .sleepAnalysis || (kind == .standTime && s.source == .watch)
        if !deviceless { writeDevice(s.source) }
        if let unit = kind.unit {
            out.append(" unit=\"")
            out.append(Array(unit.utf8))
            out.append("\"")
        }
        writeTimes(created: s.created, start: s.start, end: s.end)
        out.append(" value=\"")
        switch kind {
        case .sleepAnalysis:
            switch s.tag {
            case Tag.inBed: out.append("HKCategoryValueSleepAnalysisInBed")
            case Tag.core: out.append("HKCategoryValueSleepAnalysisAsleepCore")
            case Tag.deep: out.append("HKCategoryValueSleepAnalysisAsleepDeep")
            case Tag.rem: out.append("HKCategoryValueSleepAnalysisAsleepREM")
            case Tag.asleepLegacy: out.append("HKCategoryValueSleepAnalysisAsleep")
            default: out.append("HKCategoryValueSleepAnalysisAwake")
            }
        case .standHour:
            out.append(s.tag == Tag.stood ? "HKCategoryValueAppleStandHourStood" : "HKCategoryValueAppleStandHourIdle")
        default:
            out.append(units: s.value, decimals: kind.decimals)
        }
        out.append("\"")
        switch kind {
        case .heartRate:
            out.append(">\n")
            writeMetadata("HKMetadataKeyHeartRateMotionContext", s.tag == Tag.active ? "2" : "1", indent: level + 1)
        case .sleepAnalysis where config.writesTimeZoneMetadata && schedule.namesZone(at: s.start):
            out.append(">\n")
            writeMetadata("HKTimeZone", zoneEscaped[schedule.zone(at: s.start)], indent: level + 1)
        case .stepCount where s.tag == Tag.userEntered:
            out.append(">\n")
            writeMetadata("HKWasUserEntered", "1", indent: level + 1)
        case .heartRateVariability:
            out.append(">\n")
            writeBeats(s, indent: level + 1)
            hrvCount += 1
        default:
            out.append("/>\n")
            return
        }
        indent(level)
        out.append("</Record>\n")
    }

    /// `HeartRateVariabilityMetadataList`: one beat every 60/bpm seconds from just after the
    /// start, times of day formatted en_US (`6:14:48.94 PM`) in the TRUE local time of the
    /// recording (the zone's offset then, not the export offset; docs/export-format.md §7.4).
    mutating func writeBeats(_ s: Sample, indent level: Int) {
        var r = SplitMix64(state: UInt64(bitPattern: s.start) ^ config.seed &* 0x9E37_79B9)
        let offset = schedule.offset(at: s.start)
        indent(level)
        out.append("<HeartRateVariabilityMetadataList>\n")
        var centis = s.start * 100 + Int64(r.int(30...150))
        let endCentis = s.end * 100
        while centis < endCentis {
            let bpm = Int(s.tag) + r.int(-6...6)
            indent(level + 1)
            out.append("<InstantaneousBeatsPerMinute bpm=\"")
            out.append(int: Int64(bpm))
            out.append("\" time=\"")
            let local = floorDiv(centis, 100) + offset
            let sod = Int(local - floorDiv(local, 86_400) * 86_400)
            let h24 = sod / 3600
            let h12 = h24 % 12 == 0 ? 12 : h24 % 12
            out.append(int: Int64(h12))
            out.append(byte: 0x3A)
            append2(sod / 60 % 60)
            out.append(byte: 0x3A)
            append2(sod % 60)
            out.append(byte: 0x2E)
            append2(Int(centis - floorDiv(centis, 100) * 100))
            out.append(h24 < 12 ? " AM\"/>\n" : " PM\"/>\n")
            beatCount += 1
            centis += Int64(6000 / bpm) + Int64(r.int(-4...4))
        }
        indent(level)
        out.append("</HeartRateVariabilityMetadataList>\n")
    }

    mutating func append2(_ v: Int) {
        out.append(byte: 0x30 &+ UInt8(v / 10))
        out.append(byte: 0x30 &+ UInt8(v % 10))
    }

    /// The blood-pressure correlation of the day; its two records were also written top-level.
    mutating func writeBloodPressure(_ plan: DayPlan) -> Bool {
        var bp: [Sample] = []
        factory.samples(.bloodPressureSystolic, plan, into: &bp)
        guard let systolic = bp.first else { return false }
        bp.removeAll()
        factory.samples(.bloodPressureDiastolic, plan, into: &bp)
        let diastolic = bp[0]
        out.append(
            " <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\" sourceName=\"Health Mate\" sourceVersion=\"6.12.1\""
        )
        writeDevice(.healthMate)
        writeTimes(created: systolic.created, start: systolic.start, end: systolic.end)
        out.append(">\n")
        writeMetadata("HKWasUserEntered", "0", indent: 2)
        writeRecord(.bloodPressureDiastolic, diastolic, indent: 2)
        writeRecord(.bloodPressureSystolic, systolic, indent: 2)
        out.append(" </Correlation>\n")
        return true
    }

    /// A Watch workout in the iOS 16+ shape: metadata, pause/resume events, statistics from
    /// the Watch records inside `[start, end)`, a route file reference; no total attributes.
    /// The random draws (creation times, METs, weather, the route's sync identifier) come from
    /// the workout's own stream, in the order of the elements written.
    mutating func writeWorkout(_ w: WorkoutPlan, _ plan: DayPlan) {
        var r = SplitMix64(seed: config.seed, day: plan.index, stream: Stream.workout)
        let sums = watchSums(w, plan)
        if let k = PriorityCoverage.dayIndex(w.start, dayBounds) {
            days[k].workouts += 1
            days[k].workoutMinutes += Double(w.activeSeconds) / 60
        }
        let created = w.end + Int64(r.int(5...40))
        let variant = config.extendedHealthData ? workoutVariant(w, plan) : .standard
        writeWorkoutStartTag(w, variant: variant, sums: sums, created: created)
        writeWorkoutMetadata(w, &r)
        writeWorkoutEvents(w)
        if variant != .legacyTotals {  // an older export: the totals are attributes, there are no statistics
            writeWorkoutStatistics(w, sums)
        }
        if variant == .multisport { writeLegs(w, plan) }
        if w.kind.hasRoute { writeWorkoutRoute(w, created: created, &r) }
        out.append(" </Workout>\n")
        if config.extendedHealthData {
            recordWorkoutTruth(
                w, plan, variant: variant, active: sums.active, distance: sums.distance,
                heartRates: variant == .legacyTotals ? [] : sums.heartRates)
        }
    }

    /// What the Watch recorded inside a workout: the sums of its active and basal energy,
    /// distance and steps samples within `[start, end)` (in the samples' units), and its heart
    /// rates from start to end.
    struct WorkoutSums {
        var active: Int64
        var basal: Int64
        var distance: Int64
        var steps: Int64
        var heartRates: [Int64]
    }

    /// The Watch's sums inside `w`, from the same samples the day's records hold.
    private func watchSums(_ w: WorkoutPlan, _ plan: DayPlan) -> WorkoutSums {
        var samples: [Sample] = []
        func watchSum(_ kind: RecordKind) -> Int64 {
            samples.removeAll(keepingCapacity: true)
            factory.samples(kind, plan, into: &samples)
            return samples.filter { $0.source == .watch && $0.start >= w.start && $0.end <= w.end }.reduce(0) {
                $0 + $1.value
            }
        }
        let active = watchSum(.activeEnergy)
        let basal = watchSum(.basalEnergy)
        let distance = watchSum(.distance)
        let steps = watchSum(.stepCount)
        samples.removeAll(keepingCapacity: true)
        factory.samples(.heartRate, plan, into: &samples)
        let hr = samples.filter { $0.start >= w.start && $0.start <= w.end }.map(\.value)
        return WorkoutSums(active: active, basal: basal, distance: distance, steps: steps, heartRates: hr)
    }

    /// `<Workout …>`: the activity (SwimBikeRun for a multisport variant), duration, the legacy
    /// total attributes for that variant, the Watch as source and device, the times.
    private mutating func writeWorkoutStartTag(
        _ w: WorkoutPlan, variant: WorkoutVariant, sums: WorkoutSums, created: Int64
    ) {
        out.append(" <Workout workoutActivityType=\"")
        out.append(Array((variant == .multisport ? "HKWorkoutActivityTypeSwimBikeRun" : w.kind.activityType).utf8))
        out.append("\" duration=\"")
        out.append(Array(String(Double(w.activeSeconds) / 60).utf8))
        out.append("\" durationUnit=\"min\"")
        if variant == .legacyTotals {
            writeTotals(distance: w.kind.hasRoute ? sums.distance : nil, energy: sums.active)
        }
        out.append(" sourceName=\"")
        out.append(watchName)
        out.append("\" sourceVersion=\"11.1\"")
        writeDevice(.watch)
        writeTimes(created: created, start: w.start, end: w.end)
        out.append(">\n")
    }

    /// The workout's metadata: indoor or not, its HKTimeZone where the export names zones, the
    /// average METs, and for a workout with a route the elevation and the weather.
    private mutating func writeWorkoutMetadata(_ w: WorkoutPlan, _ r: inout SplitMix64) {
        writeMetadata("HKIndoorWorkout", w.kind == .strength ? "1" : "0", indent: 2)
        if config.writesTimeZoneMetadata && schedule.namesZone(at: w.start) {
            writeMetadata("HKTimeZone", zoneEscaped[schedule.zone(at: w.start)], indent: 2)
        }
        let mets = Array("\(r.int(3...11)).\(r.int(10000...99999)) kcal/hr\u{00B7}kg".utf8)
        writeMetadata("HKAverageMETs", mets, indent: 2)
        if w.kind.hasRoute {
            writeMetadata("HKElevationAscended", Array("\(r.int(5...90) * 100) cm".utf8), indent: 2)
            writeMetadata("HKWeatherTemperature", Array("\(r.int(35...80)) degF".utf8), indent: 2)
            writeMetadata("HKWeatherHumidity", Array("\(r.int(40...95) * 100) %".utf8), indent: 2)
        }
    }

    /// The pause and resume events of a workout that paused.
    private mutating func writeWorkoutEvents(_ w: WorkoutPlan) {
        guard w.pauseSeconds > 0 else { return }
        out.append("  <WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"")
        out.append(timestamp: w.pauseAt)
        out.append("\"/>\n  <WorkoutEvent type=\"HKWorkoutEventTypeResume\" date=\"")
        out.append(timestamp: w.pauseAt + w.pauseSeconds)
        out.append("\"/>\n")
    }

    /// The `<WorkoutStatistics>` of the Watch's sums (no distance for strength training) and
    /// of its heart rate: the average to 4 decimals, rounded half up (Σ×10⁴/n), minimum, maximum.
    private mutating func writeWorkoutStatistics(_ w: WorkoutPlan, _ sums: WorkoutSums) {
        func statistic(_ type: StaticString, _ sum: Int64, _ decimals: Int, _ unit: StaticString) {
            out.append("  <WorkoutStatistics type=\"")
            out.append(type)
            out.append("\" startDate=\"")
            out.append(timestamp: w.start)
            out.append("\" endDate=\"")
            out.append(timestamp: w.end)
            out.append("\" sum=\"")
            out.append(units: sum, decimals: decimals)
            out.append("\" unit=\"")
            out.append(unit)
            out.append("\"/>\n")
        }
        statistic("HKQuantityTypeIdentifierActiveEnergyBurned", sums.active, 3, "kcal")
        statistic("HKQuantityTypeIdentifierBasalEnergyBurned", sums.basal, 3, "kcal")
        if w.kind != .strength {
            statistic("HKQuantityTypeIdentifierDistanceWalkingRunning", sums.distance, 5, "km")
        }
        statistic("HKQuantityTypeIdentifierStepCount", sums.steps, 0, "count")
        let hr = sums.heartRates
        guard !hr.isEmpty else { return }
        let average = (hr.reduce(0, +) * 20_000 / Int64(hr.count) + 1) / 2
        out.append("  <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\" startDate=\"")
        out.append(timestamp: w.start)
        out.append("\" endDate=\"")
        out.append(timestamp: w.end)
        out.append("\" average=\"")
        out.append(units: average, decimals: 4)
        out.append("\" minimum=\"")
        out.append(int: hr.min()!)
        out.append("\" maximum=\"")
        out.append(int: hr.max()!)
        out.append("\" unit=\"count/min\"/>\n")
    }

    /// `<WorkoutRoute>` with its sync metadata and the reference to its GPX file.
    private mutating func writeWorkoutRoute(_ w: WorkoutPlan, created: Int64, _ r: inout SplitMix64) {
        out.append("  <WorkoutRoute sourceName=\"")
        out.append(watchName)
        out.append("\" sourceVersion=\"11.1\"")
        writeTimes(created: created + Int64(r.int(1...30)), start: w.start, end: w.end)
        out.append(">\n")
        writeMetadata("HKMetadataKeySyncVersion", "2", indent: 3)
        writeMetadata("HKMetadataKeySyncIdentifier", Array(uuid(&r).utf8), indent: 3)
        out.append("   <FileReference path=\"/workout-routes/")
        out.append(Array(routeFileName(w.start).utf8))
        out.append("\"/>\n  </WorkoutRoute>\n")
    }

    /// `route_2026-03-05_6.15pm.gpx`: the TRUE local date and 12-hour time of the start.
    func routeFileName(_ start: Int64) -> String {
        let c = routeClock(start)
        return "route_\(c.date)_\(c.hour).\(c.minute)\(c.amPM).gpx"
    }

    /// The TRUE local date of `start` and its 12-hour time, as a route's file name and title
    /// write them: (`2026-03-05`, 6, `15`, `pm`).
    func routeClock(_ start: Int64) -> (date: String, hour: Int, minute: String, amPM: String) {
        let local = schedule.localSeconds(at: start)
        let day = floorDiv(local, 86_400)
        let sod = Int(local - day * 86_400)
        let h24 = sod / 3600
        return (
            Civil.format(days: Int(day)), h24 % 12 == 0 ? 12 : h24 % 12, Civil.pad(sod / 60 % 60, 2),
            h24 < 12 ? "am" : "pm"
        )
    }

    func uuid(_ r: inout SplitMix64) -> String {
        let hex = Array("0123456789ABCDEF")
        var s = ""
        for i in 0..<32 {
            if [8, 12, 16, 20].contains(i) { s.append("-") }
            s.append(hex[r.int(0...15)])
        }
        return s
    }

    /// The day's rings as the Watch saw them: values from the truth (Watch-only sums).
    mutating func writeActivitySummary(_ i: Int) {
        let plan = plans[i]
        days[i].moveGoalKcal = Double(plan.moveGoal)
        days[i].exerciseGoalMinutes = Double(plan.exerciseGoal)
        days[i].standGoalHours = Int(plan.standGoal)
        // moveKcal is a whole number of 1e-3 kcal: print it back in those units.
        let moveMilli = Int64((days[i].moveKcal * 1000).rounded())
        days[i].activitySummary = SyntheticActivitySummary(
            dateComponents: days[i].date, activeEnergyBurned: Double(moveMilli) / 1000,
            activeEnergyBurnedGoal: Double(plan.moveGoal), activeEnergyBurnedUnit: "Cal", appleMoveTime: 0,
            appleMoveTimeGoal: 0, appleExerciseTime: days[i].exerciseMinutes,
            appleExerciseTimeGoal: Double(plan.exerciseGoal), appleStandHours: days[i].standHours,
            appleStandHoursGoal: Int(plan.standGoal))
        out.append(" <ActivitySummary dateComponents=\"")
        out.append(Array(days[i].date.utf8))
        out.append("\" activeEnergyBurned=\"")
        out.append(units: moveMilli, decimals: 3)
        out.append("\" activeEnergyBurnedGoal=\"")
        out.append(int: plan.moveGoal)
        out.append("\" activeEnergyBurnedUnit=\"Cal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"")
        out.append(int: Int64(days[i].exerciseMinutes))
        out.append("\" appleExerciseTimeGoal=\"")
        out.append(int: plan.exerciseGoal)
        out.append("\" appleStandHours=\"")
        out.append(int: Int64(days[i].standHours))
        out.append("\" appleStandHoursGoal=\"")
        out.append(int: plan.standGoal)
        out.append("\"/>\n")
    }
}
