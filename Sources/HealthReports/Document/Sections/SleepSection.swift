import HealthAnalysis
import HealthExport

// The report: sleep per night (docs/sleep-and-workouts.md §2), from sleep.csv's rows.

extension ReportSections {
    mutating func sleepSection() {
        heading("Sleep")
        let nights = result.sleep.filter { !$0.isNap && $0.asleepMinutes != nil }
        guard !nights.isEmpty else {
            paragraph("No sleep records.")
            return
        }
        let naps = result.sleep.filter(\.isNap)
        func mean(_ values: [Double?]) -> Double? {
            let v = values.compactMap { $0 }
            return v.isEmpty ? nil : v.reduce(0, +) / Double(v.count)
        }
        func hours(_ minutes: Double?) -> String {
            guard let minutes else { return none }
            let m = Int((minutes).rounded())
            return "\(m / 60) h \(m % 60 < 10 ? "0" : "")\(m % 60) min"
        }
        let staged = nights.filter { $0.coreMinutes != nil }
        paragraph(
            "Each night is filed under the date you woke up. Asleep time comes from one source per night, "
                + "the highest-priority one that recorded sleep (sources are never added); time in bed and awake "
                + "are not sleep. Naps (asleep after 10:00 and awake by 20:00) are counted apart.")
        add(
            .table(
                DocumentTable(
                    ["", "Per night"], [.left, .right],
                    text: [
                        ["Nights", grouped(nights.count)],
                        ["Asleep", hours(mean(nights.map(\.asleepMinutes)))],
                        ["Deep", hours(mean(staged.map(\.deepMinutes)))],
                        ["Core", hours(mean(staged.map(\.coreMinutes)))],
                        ["REM", hours(mean(staged.map(\.remMinutes)))],
                        ["Awake", hours(mean(staged.map(\.awakeMinutes)))],
                        ["In bed", hours(mean(nights.map(\.inBedMinutes)))],
                    ])))
        var notes: [String] = []
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
        if !naps.isEmpty {
            notes.append(
                "\(counted(naps.count, "day")) with naps, \(hours(mean(naps.map(\.asleepMinutes)))) "
                    + "asleep on average (not added to the nights).")
        }
        add(bullets(notes))
        addChart("chart_sleep.svg")
    }
}
