import HealthAnalysis
import HealthExport

// The report: sleep per night (docs/sleep-and-workouts.md §2), from sleep.csv's rows.

extension ReportSections {
    mutating func sleepSection() {
        // Two kinds of night, each counted and averaged over its own nights (SleepSummary).
        let summary = SleepSummary(result.sleep)
        guard heading("Sleep", emptyWhen: summary.isEmpty, "No sleep records.") else { return }
        let nights = result.sleep.filter { !$0.isNap && $0.asleepMinutes != nil }
        func mean(_ values: [Double?]) -> Double? {
            let v = values.compactMap { $0 }
            return v.isEmpty ? nil : v.reduce(0, +) / Double(v.count)
        }
        let hours = Self.hoursAndMinutes
        let staged = nights.filter { $0.coreMinutes != nil }
        paragraph(
            "Each night is filed under the date you woke up. Two kinds of night, each averaged over its own "
                + "nights: asleep (from a source that records sleep, such as the Watch) and in bed (time in bed, "
                + "such as an iPhone's sleep schedule records it; not sleep). Asleep time comes from one source per "
                + "night, the highest-priority one that recorded sleep (sources are never added). Naps (asleep "
                + "after 10:00 and awake by 20:00) are counted apart.")
        var rows: [[String]] = []
        if summary.asleepNights > 0 {
            rows.append(["Asleep", grouped(summary.asleepNights), hours(summary.asleepMeanMinutes)])
        }
        if !staged.isEmpty {
            rows.append(["Deep", grouped(staged.count), hours(mean(staged.map(\.deepMinutes)))])
            rows.append(["Core", grouped(staged.count), hours(mean(staged.map(\.coreMinutes)))])
            rows.append(["REM", grouped(staged.count), hours(mean(staged.map(\.remMinutes)))])
            rows.append(["Awake", grouped(staged.count), hours(mean(staged.map(\.awakeMinutes)))])
        }
        if summary.inBedNights > 0 {
            rows.append(["In bed", grouped(summary.inBedNights), hours(summary.inBedMeanMinutes)])
        }
        add(.table(DocumentTable(["", "Nights", "Per night"], [.left, .right, .right], text: rows)))
        var notes: [String] = []
        if summary.asleepNights == 0 {
            notes.append(
                "No night has asleep records: the nights above are time in bed only (an iPhone's sleep schedule "
                    + "without a Watch, or a source that records no sleep), not sleep.")
        } else if summary.inBedOnlyNights > 0 {
            notes.append(
                "\(counted(summary.inBedOnlyNights, "night")) of the \(grouped(summary.inBedNights)) in bed "
                    + "\(summary.inBedOnlyNights == 1 ? "has" : "have") no asleep records (in bed only); "
                    + "\(summary.inBedOnlyNights == 1 ? "it is" : "they are") not in the asleep nights.")
        }
        if staged.count < nights.count {
            let unstaged = nights.count - staged.count
            notes.append(
                "\(grouped(unstaged)) of \(grouped(nights.count)) \(nights.count == 1 ? "night" : "nights") "
                    + (unstaged == 1
                        ? "comes from a source without sleep stages; its stage columns in sleep.csv are empty and it "
                            + "is left out of the stage averages."
                        : "come from a source without sleep stages; their stage columns in sleep.csv are empty and "
                            + "they are left out of the stage averages."))
        }
        let bySource = Dictionary(grouping: nights, by: { $0.source ?? "" }).mapValues(\.count)
        if bySource.count > 1 {
            notes.append(
                "Nights by source: "
                    + bySource.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key) \($0.value)" }
                    .joined(separator: ", ") + ".")
        }
        if summary.napDays > 0 {
            notes.append(
                "\(counted(summary.napDays, "day")) with naps, \(hours(summary.napMeanMinutes)) "
                    + "asleep on average (not added to the nights).")
        }
        add(bullets(notes))
        addChart("chart_sleep.svg")
    }

    /// `6 h 39 min`; `—` for no value.
    static func hoursAndMinutes(_ minutes: Double?) -> String {
        guard let minutes else { return "—" }
        let m = Int(minutes.rounded())
        return "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60) min"
    }
}
