import HealthExport

/// The part of an import that writes the ActivitySummary days and `Me`, at the end of the
/// export, when its date is known.
struct SummaryImport {
    /// ActivitySummary values, applied at the end, when the export's date is known.
    var summaries: [ActivitySummary] = []

    mutating func add(_ batch: [ActivitySummary], outcome: inout ImportOutcome) {
        summaries.append(contentsOf: batch)
        outcome.summariesRead += batch.count
    }

    /// The summary columns in table order (after `date`), for comparing and writing.
    static func columns(_ s: ActivitySummary) -> [SQLValue] {
        func real(_ v: Double?) -> SQLValue { v.map { .real($0) } ?? .null }
        return [
            real(s.activeEnergyBurnedKcal), real(s.activeEnergyBurnedGoalKcal),
            s.activeEnergyBurnedUnit.map { .text($0) } ?? .null, real(s.appleMoveTimeMinutes),
            real(s.appleMoveTimeGoalMinutes), real(s.appleExerciseTimeMinutes), real(s.appleExerciseTimeGoalMinutes),
            real(s.appleStandHours), real(s.appleStandHoursGoal),
        ]
    }

    /// Within one export, two summaries of one day (seen after restores) resolve as the
    /// analyzer does: the larger values win. Across exports, the later export's wins.
    func apply(_ db: Connection, exportUTC: Int64?, export: Int64, outcome: inout ImportOutcome) throws {
        var byDay: [CivilDate: ActivitySummary] = [:]
        for s in summaries {
            if let other = byDay[s.date], !s.isLarger(than: other) { continue }
            byDay[s.date] = s
        }
        let find = try db.prepare(
            """
            SELECT a.active_energy_kcal, a.active_energy_goal_kcal, a.active_energy_unit, a.move_time_min,
              a.move_time_goal_min, a.exercise_time_min, a.exercise_time_goal_min, a.stand_hours, a.stand_hours_goal,
              e.export_utc, a.export_id
            FROM activity_summaries a LEFT JOIN exports e ON e.id = a.export_id WHERE a.date = ?
            """)
        let write = try db.prepare("INSERT OR REPLACE INTO activity_summaries VALUES (?,?,?,?,?,?,?,?,?,?,?)")
        for day in byDay.keys.sorted() {
            let s = byDay[day]!
            let values = Self.columns(s)
            find.bind(1, day.description)
            if try find.step() {
                let stored = (0..<9).map { find.value(Int32($0)) }
                let storedExportUTC = find.int64OrNil(9)
                let storedExport = find.int64(10)
                find.reset()
                if Self.same(stored, values) { continue }
                let later: Bool
                if storedExport == export {
                    later = false  // one export holds the day once (resolved above)
                } else if let exportUTC, let storedExportUTC {
                    later = exportUTC > storedExportUTC
                } else {
                    later = exportUTC != nil
                }
                guard later else { continue }
                outcome.summariesReplaced += 1
            } else {
                find.reset()
                outcome.summariesNew += 1
            }
            write.bindAll([.text(day.description)] + values + [.integer(export)])
            try write.run()
        }
    }

    static func same(_ a: [SQLValue], _ b: [SQLValue]) -> Bool {
        zip(a, b).allSatisfy { x, y in
            switch (x, y) {
            case (.integer(let i), .real(let d)), (.real(let d), .integer(let i)): return Double(i) == d
            default: return x == y
            }
        }
    }

    static func applyMe(_ me: Me, _ db: Connection, exportUTC: Int64?, export: Int64) throws {
        let find = try db.prepare("SELECT e.export_utc FROM me JOIN exports e ON e.id = me.export_id")
        if try find.step() {
            let stored = find.int64OrNil(0)
            if let stored, (exportUTC ?? Int64.min) < stored { return }
        }
        let write = try db.prepare(
            """
            INSERT OR REPLACE INTO me (id, date_of_birth, biological_sex, blood_type, fitzpatrick_skin_type,
              cardio_fitness_medications_use, export_id) VALUES (1,?,?,?,?,?,?)
            """)
        write.bind(1, me.dateOfBirth)
        write.bind(2, me.biologicalSex)
        write.bind(3, me.bloodType)
        write.bind(4, me.fitzpatrickSkinType)
        write.bind(5, me.cardioFitnessMedicationsUse)
        write.bind(6, export)
        try write.run()
    }
}
