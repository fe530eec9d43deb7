import HealthExport
import Testing

/// Durations, distances and energies cannot be negative: such an attribute is ignored with a
/// diagnostic naming its line, never a negative total (found by the CLI fuzzer, which
/// turned `duration="30"` into `duration="-5"` and got a workout of −5 minutes).
@Suite("Negative quantities")
struct NegativeQuantityTests {
    @Test func negativeWorkoutAndSummaryValuesAreIgnoredWithTheirLine() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2025-06-03 12:00:00 +0200"/>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="-5" durationUnit="min" totalDistance="-1" totalDistanceUnit="km" totalEnergyBurned="250" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2025-06-01 08:00:00 +0200" endDate="2025-06-01 08:30:00 +0200">
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2025-06-01 08:00:00 +0200" endDate="2025-06-01 08:30:00 +0200" sum="-3" unit="kcal"/>
             </Workout>
             <ActivitySummary dateComponents="2025-06-01" activeEnergyBurned="400" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleExerciseTime="-2" appleExerciseTimeGoal="30" appleStandHours="9" appleStandHoursGoal="12"/>
            </HealthData>
            """
        let r = try readAll(.path(try temporaryFile(xml)))
        let w = try #require(r.workouts.first)
        #expect(w.durationMinutes == nil)
        #expect(w.totalDistanceKm == nil)
        #expect(w.totalEnergyBurnedKcal == 250)  // the valid one is kept
        #expect(w.statistics.first?.sum == nil)
        let s = try #require(r.activitySummaries.first)
        #expect(s.appleExerciseTimeMinutes == nil)
        #expect(s.appleStandHours == 9)
        let negative = r.summary.diagnostics.filter { $0.description.contains("is negative") }.map(\.description)
        #expect(
            negative.sorted()
                == [
                    "1 × ignored attribute: ActivitySummary appleExerciseTime='-2' is negative (first at line 7)",
                    "1 × ignored attribute: Workout duration='-5' is negative (first at line 4)",
                    "1 × ignored attribute: Workout totalDistance='-1' is negative (first at line 4)",
                    "1 × ignored attribute: WorkoutStatistics sum='-3' is negative (first at line 5)",
                ].sorted(), "\(r.summary.diagnostics)")
    }
}
