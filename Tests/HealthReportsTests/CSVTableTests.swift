import HealthExport
import Testing

@testable import HealthAnalysis
@testable import HealthReports
@testable import HealthTables

@Suite("CSV quoting")
struct CSVQuotingTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        (" padded ", " padded "),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("\"", "\"\"\"\""),
        ("two\nlines", "\"two\nlines\""),
        ("carriage\rreturn", "\"carriage\rreturn\""),
        ("crlf\r\nend", "\"crlf\r\nend\""),
        ("Alice’s Apple Watch", "Alice’s Apple Watch"),
        ("Alice's iPhone", "Alice's iPhone"),
        ("Runner 🏃‍♀️", "Runner 🏃‍♀️"),
        ("🏃, \"fast\"", "\"🏃, \"\"fast\"\"\""),
    ])
    func quotesOnlyFieldsWithCommaQuoteOrLineBreak(field: String, expected: String) {
        #expect(CSV.escape(field) == expected)
    }

    @Test func quotesTheHeaderAndRowsTheSameWay() {
        #expect(CSV.line(["a", "b,c", ""]) == "a,\"b,c\",\n")
    }

    @Test func sourceNamesSurviveARoundTripThroughAnRFC4180Reader() throws {
        let names = [
            "Alice’s Apple Watch", "Alice's iPhone", "Band \"Pro\", 2nd gen 🏃", "line\nbreak", "cr\rlf\r\n",
            ",", "\"", "",
        ]
        var result = makeSampleResult()
        result.sources = names.map {
            SourceContribution(
                type: "HKQuantityTypeIdentifierStepCount", sourceName: $0, sourceClass: .other, samples: 1,
                rawTotal: 1, countedTotal: 1, unit: .count)
        }
        let records = try #require(parseCSV(ReportWriter().sourcesCSV(result)))
        #expect(records.count == names.count + 1)
        #expect(records.dropFirst().map { $0[1] } == names)
        #expect(records.allSatisfy { $0.count == ReportWriter.sourcesCSVHeader.count })
    }

    @Test func everyGeneratedFileIsValidCSVWithOneFieldPerColumn() throws {
        let writer = ReportWriter()
        let result = makeSampleResult()
        let files: [(String, [String])] = [
            (writer.dailyCSV(result), ReportWriter.dailyCSVHeader),
            (writer.weeklyCSV(result), ReportWriter.weeklyCSVHeader),
            (writer.standHoursCSV(result), ReportWriter.standHoursCSVHeader),
            (writer.sourcesCSV(result), ReportWriter.sourcesCSVHeader),
        ]
        for (text, header) in files {
            let records = try #require(parseCSV(text))
            #expect(records.first == header)
            #expect(records.allSatisfy { $0.count == header.count })
            // Every record, the last included, ends with LF, and no line with CR (no field has one).
            #expect(text.hasSuffix("\n") && !text.contains("\r"))
        }
    }
}

@Suite("CSV values")
struct CSVValueTests {
    /// The CSV field of `value` in a number column with `decimals`.
    func number(_ value: Double?, decimals: Int) -> String {
        ReportColumn<Double?>.number("x", decimals: decimals) { $0 }.csvField(value)
    }
    func integer(_ value: Int?) -> String { ReportColumn<Int?>.integer("x") { $0 }.csvField(value) }
    func boolean(_ value: Bool?) -> String { ReportColumn<Bool?>.boolean("x") { $0 }.csvField(value) }

    @Test func missingValuesAreEmptyCellsNeverZero() {
        #expect(number(nil, decimals: 1) == "")
        #expect(integer(nil) == "")
        #expect(number(.nan, decimals: 1) == "")
        #expect(number(.infinity, decimals: 1) == "")
        #expect(number(0, decimals: 1) == "0")
        #expect(integer(0) == "0")
    }

    @Test func booleansAreTrueAndFalse() {
        #expect(boolean(true) == "true")
        #expect(boolean(false) == "false")
    }

    @Test func numbersHaveFixedDecimalsWithTrailingZerosTrimmed() {
        #expect(number(12.0, decimals: 1) == "12")
        #expect(number(12.25, decimals: 1) == "12.3")
        #expect(number(9.87654, decimals: 3) == "9.877")
        #expect(number(1_000_000.5, decimals: 1) == "1000000.5")
        #expect(number(1e-7, decimals: 3) == "0")
        #expect(number(1e9, decimals: 1) == "1000000000")
    }

    @Test func aDayWithoutDataHasEmptyCellsExceptItsDateAndWorkoutCounts() {
        let text = ReportWriter().dailyCSV(makeResult(days: [DailyMetrics(date: date("2025-03-30"))]))
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        // workouts and workout_min are not optional: 0 workouts is a fact, not missing data.
        #expect(lines[1] == "2025-03-30,,,,,,,,,,,,,,0,0,,,,,,,,,,,,,,,,,,,,")
    }

    @Test func dailyRowsCarryTheirValuesInHeaderOrder() throws {
        var d = DailyMetrics(date: date("2025-01-05"))
        d.steps = 12_000.5
        d.distanceKm = 9.87654
        d.flightsClimbed = 11
        d.activeEnergyKcal = 640.04
        d.moveKcal = 612.55
        d.moveGoalKcal = 500
        d.exerciseMinutes = 45.5
        d.exerciseGoalMinutes = 30
        d.standHours = 13
        d.standGoalHours = 12
        d.ringsClosed = 3
        d.restingHeartRateBpm = 57.25
        d.heartRateAvgBpm = 72.46
        d.workouts = 1
        d.workoutMinutes = 42.25
        d.summaryMoveKcal = 612
        d.summaryExerciseMinutes = 46
        d.summaryStandHours = 13
        d.moveMinutes = nil
        d.moveGoalMinutes = nil
        d.heartRateMinBpm = 48
        d.heartRateMaxBpm = 171
        let records = try #require(parseCSV(ReportWriter().dailyCSV(makeResult(days: [d]))))
        let row = Dictionary(uniqueKeysWithValues: zip(records[0], records[1]))
        #expect(row["date"] == "2025-01-05")
        #expect(row["steps"] == "12001")  // half away from zero
        #expect(row["distance_km"] == "9.877")
        #expect(row["flights_climbed"] == "11")
        #expect(row["active_energy_kcal"] == "640")
        #expect(row["move_kcal"] == "612.6")
        #expect(row["move_goal_kcal"] == "500")
        #expect(row["exercise_min"] == "45.5")
        #expect(row["stand_hours"] == "13")
        #expect(row["stand_goal_hours"] == "12")
        #expect(row["rings_closed"] == "3")
        #expect(row["resting_heart_rate_bpm"] == "57.3")
        #expect(row["heart_rate_avg_bpm"] == "72.5")
        #expect(row["workouts"] == "1")
        #expect(row["workout_min"] == "42.3")
        #expect(row["summary_move_kcal"] == "612")
        #expect(row["summary_exercise_min"] == "46")
        #expect(row["summary_stand_hours"] == "13")
        #expect(row["move_min"] == "")
        #expect(row["heart_rate_min_bpm"] == "48")
        #expect(row["heart_rate_max_bpm"] == "171")
    }

    @Test func weeklyRowsMarkPartialWeeksAndLeaveMissingChangesEmpty() throws {
        let records = try #require(parseCSV(ReportWriter().weeklyCSV(makeSampleResult())))
        let rows = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(records[0], $0)) }
        #expect(rows.map { $0["partial"] } == ["false", "false", "true"])
        #expect(rows.map { $0["steps_change_pct"] } == ["", "55.7", ""])
        #expect(rows.map { $0["active_energy_change_pct"] } == ["", "84.8", ""])
        #expect(rows.map { $0["exercise_change_pct"] } == ["", "70.4", ""])
        #expect(rows.map { $0["steps_per_day_rolling_4w"] } == ["5941", "6510", "6071"])
        #expect(rows[2]["distance_km"] == "")
        #expect(rows[2]["move_ring_closed_days"] == "0")
    }

    @Test func standHoursAreOneRowPerRecordedHour() {
        let text = ReportWriter().standHoursCSV(makeSampleResult())
        let rows = [
            "date,hour,stood,utc_offset", "2025-01-05,8,true,+00:00", "2025-01-05,9,false,+00:00",
            "2025-01-05,10,true,+00:00", "2025-01-06,8,true,+00:00", "2025-01-06,9,true,+00:00",
            "2025-01-06,23,false,+00:00",
        ]
        #expect(text == rows.map { $0 + "\n" }.joined())
    }
}

@Suite("CSV headers")
struct CSVHeaderTests {
    @Test func dailyHeaderStartsWithTheContractColumnsInOrder() {
        let contract =
            "date,steps,distance_km,flights_climbed,active_energy_kcal,move_kcal,move_goal_kcal,exercise_min,"
            + "exercise_goal_min,stand_hours,stand_goal_hours,rings_closed,resting_heart_rate_bpm,"
            + "heart_rate_avg_bpm,workouts,workout_min,summary_move_kcal,summary_exercise_min,summary_stand_hours"
        let firstLine = ReportWriter().dailyCSV(makeEmptyResult())
        #expect(
            firstLine == contract
                + ",move_min,move_goal_min,heart_rate_min_bpm,heart_rate_max_bpm,summary_move_min,basal_energy_kcal,walking_heart_rate_avg_bpm,vo2_max_ml_min_kg,body_mass_kg"
                + ",hrv_sdnn_ms,respiratory_rate_per_min,blood_oxygen_pct,wrist_temperature_c,"
                + "blood_pressure_systolic_mmhg,blood_pressure_diastolic_mmhg,sleep_min,time_zone\n"
        )
    }

    @Test func weeklyHeaderIsExact() {
        #expect(
            ReportWriter().weeklyCSV(makeEmptyResult())
                == "week,week_start,days,partial,steps,distance_km,active_energy_kcal,exercise_min,stand_hours,"
                + "steps_per_day,active_energy_kcal_per_day,exercise_min_per_day,move_ring_closed_days,"
                + "exercise_ring_closed_days,stand_ring_closed_days,all_rings_closed_days,workouts,workout_min,"
                + "resting_heart_rate_avg_bpm,steps_change_pct,active_energy_change_pct,exercise_change_pct,"
                + "steps_per_day_rolling_4w,"
                + "move_kcal,move_kcal_per_day,sleep_min_per_night,body_mass_kg,workouts_by_activity\n")
    }

    @Test func standHoursHeaderIsExact() {
        #expect(ReportWriter().standHoursCSV(makeEmptyResult()) == "date,hour,stood,utc_offset\n")
    }

    @Test func sourcesHeaderIsExact() {
        #expect(
            ReportWriter().sourcesCSV(makeEmptyResult())
                == "type,source,source_class,samples,raw_total,counted_total,unit\n")
    }

    @Test func headerPropertiesMatchTheFiles() {
        let writer = ReportWriter()
        let empty = makeEmptyResult()
        #expect(ReportWriter.dailyCSVHeader.joined(separator: ",") + "\n" == writer.dailyCSV(empty))
        #expect(ReportWriter.weeklyCSVHeader.joined(separator: ",") + "\n" == writer.weeklyCSV(empty))
        #expect(ReportWriter.dailyCSVHeader.count == 36)
        #expect(ReportWriter.weeklyCSVHeader.count == 28)
    }
}

func makeResult(days: [DailyMetrics]) -> AnalysisResult {
    var result = makeEmptyResult()
    result.days = days
    return result
}
