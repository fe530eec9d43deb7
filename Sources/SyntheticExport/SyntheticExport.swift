/// Deterministic synthetic Apple Health exports (`export.xml`) that know their true values.
///
/// A person wears an Apple Watch during the day (and at night for sleep tracking) and
/// carries an iPhone; both record the same walks. Strava, Withings Health Mate and a manual
/// entry add third-party and top-priority samples. Everything is shaped like a current
/// (Export Version 14) export, including the export-time UTC offset on every timestamp.
///
/// A typical day (averages over a year): ~860 Watch ActiveEnergyBurned (1 min) and ~430
/// BasalEnergyBurned (1–3 min) samples over the worn hours, ~325 HeartRate (every 5–10 min,
/// every 5 s in workouts, every 9–14 min asleep), ~136 StepCount and ~135
/// DistanceWalkingRunning (Watch 1-min samples of walks and incidental steps, iPhone 5/10-min
/// samples of the same walks, iPhone-only walks before the Watch goes on and, weekly, across
/// midnight), ~48 AppleExerciseTime, ~23 AppleStandTime, ~15 AppleStandHour, ~19
/// SleepAnalysis (iPhone InBed, Watch Core/Deep/REM/Awake), ~4 HRV with ~60 beats each,
/// ~4 FlightsClimbed, 1 RestingHeartRate, 1 ActivitySummary; a workout about 2.5 times a
/// week; a blood-pressure correlation every 9 days; a manual step entry every 10 days.
public enum SyntheticExport {
    /// Streams the XML of `configuration` to `sink` in chunks of about 1 MiB (the export is
    /// never held in memory) and returns what it contains.
    ///
    /// - Parameters:
    ///   - configuration: must pass `validate()`; an invalid one traps.
    ///   - sink: receives consecutive chunks; the buffer is only valid during the call.
    /// - Returns: the per-day truth and counts of what was written.
    /// - Complexity: O(records); memory O(records of one type) for the truth.
    public static func write(
        _ configuration: SyntheticExportConfiguration, to sink: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> SyntheticTruth {
        do {
            try configuration.validate()
        } catch {
            preconditionFailure("invalid SyntheticExportConfiguration: \(error)")
        }
        var generator = Generator(configuration)
        defer { generator.out.deallocate() }
        return try generator.run(sink)
    }

    /// The whole export in memory with its truth. For tests and small samples only.
    public static func makeExport(_ configuration: SyntheticExportConfiguration) -> (
        bytes: [UInt8], truth: SyntheticTruth
    ) {
        var bytes: [UInt8] = []
        let truth = write(configuration) { bytes.append(contentsOf: $0) }
        return (bytes, truth)
    }

    /// The truth alone (the XML is generated and discarded).
    public static func truth(_ configuration: SyntheticExportConfiguration) -> SyntheticTruth {
        write(configuration) { _ in }
    }
}

/// One generation run: plans all days, then writes records type by type, then correlations,
/// workouts and activity summaries, computing the truth on the way.
struct Generator {
    let config: SyntheticExportConfiguration
    let schedule: ZoneSchedule
    let firstDay: Int
    let dayBounds: [Int64]
    let plans: [DayPlan]
    let factory: SampleFactory
    let exportInstant: Int64
    var out: OutputBuffer
    var addressState: UInt64
    let prefixes: [[[UInt8]]]  // [kind][source]: `<Record type=… sourceVersion="…"`
    let devices: [[UInt8]?]  // per source: bytes after the hex address, up to the closing quote
    /// Per zone of the schedule, the escaped identifier for `HKTimeZone`.
    let zoneEscaped: [[UInt8]]
    let watchName: [UInt8]

    // Truth being built.
    var days: [SyntheticDayTruth]
    var recordCounts: [String: Int] = [:]
    /// Records per day and `RecordKind` (raw value) overlapping that day (`SyntheticDayTruth.recordsPerType`).
    var dayKindCounts: [[Int32]] = []
    var metadataCount = 0
    var beatCount = 0
    var hrvCount = 0
    var bytesWritten: Int64 = 0
    var heartRateSums: [Int64]
    /// Every HeartRate sample (instant, bpm), for the time-weighted mean.
    var heartRateSeries: [(instant: Int64, bpm: Int64)] = []
    /// What `extendedHealthData` adds (Generator+Extended.swift).
    var extended = SyntheticExtendedTruth()
    /// Per averaged kind (raw value) and day index: sum and count of the values.
    var vitalSums: [Int: [Int: (sum: Double, count: Int)]] = [:]

    init(_ config: SyntheticExportConfiguration) {
        self.config = config
        firstDay = Civil.parse(config.firstDay)!
        schedule = ZoneSchedule(config, firstDay: firstDay)
        dayBounds = (0...config.days).map { [schedule] in schedule.dayStart($0) }
        let planner = Planner(seed: config.seed, firstDay: firstDay, dayCount: config.days, schedule: schedule)
        // The export is made where the person is at the end.
        let clock = schedule.clock(config.days)
        plans = (0..<config.days).map(planner.makePlan)
        factory = SampleFactory(seed: config.seed)
        if let text = config.exportDate, let local = Civil.parseLocalDateTime(text) {
            exportInstant = clock.instant(localSeconds: local)
        } else {
            exportInstant = clock.instant(day: firstDay + config.days, hour: 12, minute: 0)
        }
        out = OutputBuffer(printedOffset: clock.offset(at: exportInstant))
        addressState = config.seed ^ 0x5DEE_CE66_D1CE_4E5B

        let owner = config.ownerName
        let names: [Source: String] = [
            .watch: "\(owner)\u{2019}s Apple Watch", .phone: "\(owner)\u{2019}s iPhone", .strava: "Strava",
            .healthMate: "Health Mate", .manual: "Health", .autoSleep: "AutoSleep",
        ]
        let versions: [Source: String] = [
            .watch: "11.1", .phone: "18.1", .strava: "39310", .healthMate: "6.12.1", .manual: "18.1",
            .autoSleep: "6.8.2",
        ]
        devices = Source.allCases.map { source in
            let tail: String
            switch source {
            case .watch:
                tail = "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch7,2, software:11.1"
            case .phone: tail = "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone16,1, software:18.1"
            case .healthMate: tail = "name:BPM Connect, manufacturer:Withings, model:BPM Connect, firmware:2007"
            case .strava, .manual, .autoSleep: return nil
            }
            return xmlEscaped(">, \(tail)>") + Array("\"".utf8)
        }
        prefixes = RecordKind.allCases.map { kind in
            Source.allCases.map { source in
                var version = versions[source]!
                // Apple writes stand time with a system-service version and no device.
                if kind == .standTime && source == .watch { version = "2890.4.12.2.3" }
                return Array("<Record type=\"\(kind.typeIdentifier)\" sourceName=\"".utf8) + xmlEscaped(names[source]!)
                    + Array("\" sourceVersion=\"".utf8) + xmlEscaped(version) + Array("\"".utf8)
            }
        }
        zoneEscaped = schedule.identifiers.map { xmlEscaped($0) }
        watchName = xmlEscaped(names[.watch]!)

        heartRateSums = Array(repeating: 0, count: config.days)
        days = (0..<config.days).map { [dayBounds, firstDay] i in
            let date = Civil.format(days: firstDay + i)
            return SyntheticDayTruth(
                date: date, startSecondsSince1970: dayBounds[i], endSecondsSince1970: dayBounds[i + 1], steps: 0,
                distanceKm: 0, flightsClimbed: 0, activeEnergyKcal: 0, moveKcal: 0, basalEnergyKcal: 0, moveGoalKcal: 0,
                exerciseMinutes: 0, exerciseGoalMinutes: 0, standHours: 0, standHourRecords: 0, standGoalHours: 0,
                standMinutes: 0, restingHeartRateBpm: nil, heartRateMinBpm: nil, heartRateMeanBpm: nil,
                heartRateMaxBpm: nil, heartRateSampleCount: 0, hrvRecords: 0, workouts: 0, workoutMinutes: 0,
                asleepMinutes: nil, inBedMinutes: nil, bloodPressureReadings: 0,
                activitySummary: SyntheticActivitySummary(
                    dateComponents: date, activeEnergyBurned: 0, activeEnergyBurnedGoal: 0,
                    activeEnergyBurnedUnit: "Cal",
                    appleMoveTime: 0, appleMoveTimeGoal: 0, appleExerciseTime: 0, appleExerciseTimeGoal: 0,
                    appleStandHours: 0, appleStandHoursGoal: 0))
        }
    }

    // MARK: Driving

    mutating func run(_ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows -> SyntheticTruth {
        writeHeader()
        if config.recordOrder == .byDay {
            try writeRecordsByDay(sink)
        } else {
            try writeRecordsByType(sink)
        }
        var correlations = 0
        var correlationChildren = 0
        for plan in plans {
            if writeBloodPressure(plan) {
                correlations += 1
                correlationChildren += 2
            }
            if out.count >= OutputBuffer.flushThreshold { try flush(sink) }
        }
        var workouts = 0
        for plan in plans {
            for w in plan.workouts where config.hasAppleWatch {
                writeWorkout(w, plan)
                workouts += 1
                if out.count >= OutputBuffer.flushThreshold { try flush(sink) }
            }
        }
        for i in days.indices {
            writeActivitySummary(i)
            if out.count >= OutputBuffer.flushThreshold { try flush(sink) }
        }
        out.append("</HealthData>\n")
        try flush(sink)

        var names = ["\(config.ownerName)\u{2019}s Apple Watch", "\(config.ownerName)\u{2019}s iPhone", "Strava"]
        if correlations > 0 { names.append("Health Mate") }
        if plans.contains(where: { $0.manualSteps != nil }) { names.append("Health") }
        if config.extendedHealthData { names.append("AutoSleep") }
        var printedExport = OutputBuffer(printedOffset: out.printedOffset)
        printedExport.append(timestamp: exportInstant)
        let exportText = String(decoding: printedExport.bytes, as: UTF8.self)
        printedExport.deallocate()
        for i in days.indices where i < dayKindCounts.count {
            for kind in RecordKind.allCases where dayKindCounts[i][kind.rawValue] > 0 {
                days[i].recordsPerType[kind.typeIdentifier] = Int(dayKindCounts[i][kind.rawValue])
            }
        }
        var truth = SyntheticTruth(
            exportDate: exportText, exportDateSecondsSince1970: exportInstant,
            exportUTCOffsetSeconds: Int(out.printedOffset), timeZoneIdentifier: config.timeZoneIdentifier,
            exportVersion: PrologText.exportVersion(config.prolog), days: days, recordCounts: recordCounts,
            correlationChildRecordCount: correlationChildren, correlationCount: correlations, workoutCount: workouts,
            activitySummaryCount: days.count, hrvRecordCount: hrvCount, instantaneousBeatCount: beatCount,
            metadataEntryCount: metadataCount, sourceNames: names, byteCount: bytesWritten)
        finishTruth(&truth)
        truth.dayTimeZoneIdentifiers = days.indices.map { schedule.identifier(day: $0) }
        return truth
    }

    mutating func flush(_ sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        guard out.count > 0 else { return }
        try sink(out.bytes)
        bytesWritten += Int64(out.count)
        out.count = 0
    }

    // MARK: Truth

    /// Cumulative types: docs/deduplication.md §4 over all samples of the type (see `PriorityCoverage`).
    mutating func accumulateCumulative(_ kind: RecordKind, _ pieces: [PriorityCoverage.Piece]) {
        var scale = 1.0
        for _ in 0..<kind.decimals { scale *= 10 }
        // Watch-only sums for the Move ring: the same rule over the Watch's samples alone.
        let sums = PriorityCoverage.dailySums(pieces, dayBounds: dayBounds)
        // Without a Watch, the Move ring is the phone's estimate: the iPhone's energy alone.
        let ringSource = config.hasAppleWatch ? Source.watch : .phone
        let watchOnly =
            kind == .activeEnergy
            ? PriorityCoverage.dailySums(pieces.filter { $0.rank == UInt8(ringSource.rank) }, dayBounds: dayBounds)
            : []
        for i in days.indices {
            let v = sums[i] / scale
            switch kind {
            case .stepCount: days[i].steps = v
            case .distance: days[i].distanceKm = v
            case .basalEnergy: days[i].basalEnergyKcal = v
            case .activeEnergy:
                days[i].activeEnergyKcal = v
                days[i].moveKcal = watchOnly[i] / scale
            case .flights: days[i].flightsClimbed = v
            case .exerciseTime: days[i].exerciseMinutes = v
            case .standTime: days[i].standMinutes = v
            default: break
            }
        }
    }

    /// Discrete and category types, by the instant (or start) of each sample.
    mutating func accumulateDiscrete(_ kind: RecordKind, _ plan: DayPlan, _ samples: [Sample]) {
        for s in samples {
            guard let k = PriorityCoverage.dayIndex(s.start, dayBounds) else { continue }
            switch kind {
            case .heartRate:
                let v = Double(s.value)
                days[k].heartRateMinBpm = min(days[k].heartRateMinBpm ?? v, v)
                days[k].heartRateMaxBpm = max(days[k].heartRateMaxBpm ?? v, v)
                heartRateSums[k] += s.value
                days[k].heartRateSampleCount += 1
                days[k].heartRateMeanBpm = Double(heartRateSums[k]) / Double(days[k].heartRateSampleCount)
            case .restingHeartRate: days[k].restingHeartRateBpm = Double(s.value)
            case .heartRateVariability: days[k].hrvRecords += 1
            case .standHour:
                days[k].standHourRecords += 1
                if s.tag == Tag.stood { days[k].standHours += 1 }
            case .bloodPressureSystolic: days[k].bloodPressureReadings += 1
            case .sleepAnalysis:
                // Attributed to the local day of the wake-up (the end).
                guard let w = PriorityCoverage.dayIndex(s.end - 1, dayBounds) else { continue }
                let minutes = Double(s.end - s.start) / 60
                if s.tag == Tag.inBed {
                    days[w].inBedMinutes = (days[w].inBedMinutes ?? 0) + minutes
                } else if s.tag != Tag.awake && s.source == .watch {
                    days[w].asleepMinutes = (days[w].asleepMinutes ?? 0) + minutes
                }
            default: break
            }
        }
    }
}
