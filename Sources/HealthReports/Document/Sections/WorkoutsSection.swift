import HealthAnalysis
import HealthExport

// The report: workouts by activity (docs/export-format.md §7.7), duplicates counted once.

extension ReportSections {
    mutating func workoutsSection() {
        guard heading("Workouts", emptyWhen: result.workouts.isEmpty, "No workouts.") else { return }
        let counted = result.workouts.filter { !$0.isDuplicate }
        let duplicates = result.workouts.count - counted.count
        struct Totals {
            var count = 0
            var minutes = 0.0
            var distance: Double?
            var energy: Double?
        }
        var byActivity: [String: Totals] = [:]
        for w in counted {
            var t = byActivity[w.activity] ?? Totals()
            t.count += 1
            t.minutes += w.durationMinutes ?? w.elapsedMinutes
            if let d = w.distanceKm { t.distance = (t.distance ?? 0) + d }
            if let e = w.activeEnergyKcal { t.energy = (t.energy ?? 0) + e }
            byActivity[w.activity] = t
        }
        let rows = byActivity.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }.map { name, t in
            [[Inline.input(name)]]
                + [grouped(t.count), number(t.minutes / 60, 1), number(t.distance, 1), number(t.energy, 0)].map {
                    [Inline.text($0)]
                }
        }
        add(
            .table(
                DocumentTable(
                    ["Activity", "Workouts", "Hours", "Distance (km)", "Active energy (kcal)"],
                    [.left, .right, .right, .right, .right], rows)))
        var notes: [String] = []
        if duplicates > 0 {
            notes.append(
                "\(duplicates) \(duplicates == 1 ? "workout was" : "workouts were") recorded twice (the same session "
                    + "from a second source, e.g. a phone app): counted once, from the higher-priority source, and "
                    + "listed in workouts.csv with counted = false.")
        }
        let routes = result.workouts.filter { !$0.routeFiles.isEmpty }
        if !routes.isEmpty {
            if let index = context.routes {
                let missing = routes.filter { index.files[$0.routeFiles[0]] == nil }.count
                let broken = routes.filter {
                    if case .failure = index.files[$0.routeFiles[0]] { return true } else { return false }
                }.count
                var line = namingRoutes(routes.count)
                if routes.count == 1 {
                    line +=
                        missing > 0
                        ? "; it is not in the export (a warning, its route columns are empty)" : "; it is in the export"
                    line += broken > 0 ? ", but it could not be read" : ""
                } else {
                    let present = routes.count - missing
                    line += "; \(grouped(present)) of them \(present == 1 ? "is" : "are") in the export"
                    line +=
                        missing > 0 ? " (\(grouped(missing)) missing: a warning, their route columns are empty)" : ""
                    line += broken > 0 ? "; \(grouped(broken)) could not be read" : ""
                }
                notes.append(line + ".")
            } else {
                notes.append(namingRoutes(routes.count) + " (route files were not read).")
            }
        }
        let multisport = counted.filter { $0.legs > 0 }.count
        if multisport > 0 {
            notes.append(
                "\(multisport) \(multisport == 1 ? "workout has" : "workouts have") legs (multisport or intervals): "
                    + "their totals are the workout's own, the legs are not added again.")
        }
        add(bullets(notes))
        addChart("chart_workouts.svg")
    }

    /// "1 workout names a route file", "3 workouts name a route file".
    private func namingRoutes(_ count: Int) -> String {
        count == 1 ? "1 workout names a route file" : "\(grouped(count)) workouts name a route file"
    }
}
