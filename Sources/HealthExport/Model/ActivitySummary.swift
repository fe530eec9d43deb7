/// An `<ActivitySummary>`: the Activity rings of one calendar day as the Watch saw it
/// (reference §2.5, §4). Energies are in kcal (converted from `Cal`/`kJ`), times in minutes.
public struct ActivitySummary: Hashable, Sendable {
    /// `dateComponents`: a calendar date with no time or zone (the Watch's local day).
    public var date: CivilDate
    public var activeEnergyBurnedKcal: Double?
    public var activeEnergyBurnedGoalKcal: Double?
    /// `activeEnergyBurnedUnit` as written (`kcal`, `Cal`, `kJ`).
    public var activeEnergyBurnedUnit: String?
    /// `appleMoveTime` (iOS 14+) or the older `appleMoveMinutes`, in minutes.
    public var appleMoveTimeMinutes: Double?
    public var appleMoveTimeGoalMinutes: Double?
    public var appleExerciseTimeMinutes: Double?
    public var appleExerciseTimeGoalMinutes: Double?
    public var appleStandHours: Double?
    public var appleStandHoursGoal: Double?
    public var line: Int

    /// True when the Move ring is in time mode: the export has no move-mode attribute, so this
    /// is inferred from a positive move-time goal (reference §2.5).
    public var isMoveTimeMode: Bool { (appleMoveTimeGoalMinutes ?? 0) > 0 }

    public init(
        date: CivilDate,
        activeEnergyBurnedKcal: Double? = nil,
        activeEnergyBurnedGoalKcal: Double? = nil,
        activeEnergyBurnedUnit: String? = nil,
        appleMoveTimeMinutes: Double? = nil,
        appleMoveTimeGoalMinutes: Double? = nil,
        appleExerciseTimeMinutes: Double? = nil,
        appleExerciseTimeGoalMinutes: Double? = nil,
        appleStandHours: Double? = nil,
        appleStandHoursGoal: Double? = nil,
        line: Int = 0
    ) {
        self.date = date
        self.activeEnergyBurnedKcal = activeEnergyBurnedKcal
        self.activeEnergyBurnedGoalKcal = activeEnergyBurnedGoalKcal
        self.activeEnergyBurnedUnit = activeEnergyBurnedUnit
        self.appleMoveTimeMinutes = appleMoveTimeMinutes
        self.appleMoveTimeGoalMinutes = appleMoveTimeGoalMinutes
        self.appleExerciseTimeMinutes = appleExerciseTimeMinutes
        self.appleExerciseTimeGoalMinutes = appleExerciseTimeGoalMinutes
        self.appleStandHours = appleStandHours
        self.appleStandHoursGoal = appleStandHoursGoal
        self.line = line
    }
}
