import HealthAnalysis
import HealthExport

// `workouts.csv`: one row per workout (docs/export-format.md §7.7), duplicates included and marked
// (`counted` false, `duplicate_of` the start of the workout they repeat). Unmeasured values are
// empty cells. The route columns say which GPX file the workout names, whether the export holds
// it, and what it holds (read with libxml2).

/// A workout row with what the export's route files say about it.
struct WorkoutCSVRow: Sendable {
    var row: WorkoutRow
    var duplicateOfStart: LocalTime?
    /// The first referenced route: nil (none referenced), or its summary / why it is missing.
    var route: Result<RouteSummary, RouteFileError>?
    var routeInExport: Bool
}

extension ReportWriter {
    /// The table `workouts.csv`, in order.
    static let workoutsTable = ReportTable<WorkoutCSVRow>(
        "workouts", file: .workouts,
        columns: [
            .timestamp("start") { $0.row.start },
            .timestamp("end") { $0.row.end },
            .text("activity") { $0.row.activity },
            .text("source", identifying: true) { $0.row.source },
            .number("duration_min", decimals: 2) { $0.row.durationMinutes },
            .number("elapsed_min", decimals: 2) { $0.row.elapsedMinutes },
            .number("distance_km", decimals: 3) { $0.row.distanceKm },
            .number("active_energy_kcal", decimals: 1) { $0.row.activeEnergyKcal },
            .number("heart_rate_avg_bpm", decimals: 1) { $0.row.heartRateAvgBpm },
            .number("heart_rate_max_bpm", decimals: 1) { $0.row.heartRateMaxBpm },
            .text("route") { $0.row.routeFiles.first.map(routeName) ?? "" },
            .boolean("route_in_export") { $0.row.routeFiles.isEmpty ? nil : $0.routeInExport },
            .integer("route_points") { try? $0.route?.get().pointCount },
            .number("route_distance_km", decimals: 3) { try? $0.route?.get().distanceKm },
            .number("route_elevation_gain_m", decimals: 1) { (try? $0.route?.get())?.elevationGainM },
            .integer("legs") { $0.row.legs },
            .boolean("counted") { !$0.row.isDuplicate },
            .timestamp("duplicate_of") { $0.duplicateOfStart },
            .text("activity_type") { $0.row.activityType },
        ])

    /// `route_2025-10-01_6.15pm.gpx` for `/workout-routes/route_2025-10-01_6.15pm.gpx`.
    static func routeName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The rows with their route facts from `routes` (nil: route files were not looked for).
    static func workoutCSVRows(_ result: AnalysisResult, routes: RouteFileIndex?) -> [WorkoutCSVRow] {
        result.workouts.map { w in
            let route = w.routeFiles.first.flatMap { routes?.files[$0] }
            return WorkoutCSVRow(
                row: w, duplicateOfStart: w.duplicateOf.map { result.workouts[$0].start }, route: route,
                routeInExport: route != nil)
        }
    }

    /// The warning for route files that workouts name but the export does not hold (or that could
    /// not be read), e.g. `4 of 26 route files named by workouts are not in the export (first:
    /// route_2025-10-10_7.25pm.gpx)`; nil when all are there or routes were not looked for.
    /// A missing route file is a warning, never an error: its workout row is complete without it.
    public static func routeWarning(_ result: AnalysisResult, routes: RouteFileIndex?) -> String? {
        guard let routes else { return nil }
        let named = result.workouts.compactMap(\.routeFiles.first)
        let missing = named.filter { routes.files[$0] == nil }
        let broken = named.compactMap { path -> String? in
            if case .failure(let e) = routes.files[path] { return e.description }
            return nil
        }
        var parts: [String] = []
        if let first = missing.first {
            parts.append(
                "\(grouped(missing.count)) of \(counted(named.count, "route file")) named by workouts \(missing.count == 1 ? "is" : "are") not in the export (first: \(routeName(first)))"
            )
        }
        if let first = broken.first { parts.append("\(grouped(broken.count)) could not be read (first: \(first))") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The text of `workouts.csv`: one row per workout of `result.workouts`, by start.
    public func workoutsCSV(_ result: AnalysisResult, routes: RouteFileIndex? = nil) -> String {
        Self.workoutsTable.csv(Self.workoutCSVRows(result, routes: routes))
    }
}
