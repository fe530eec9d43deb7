import HealthAnalysis
import HealthExport

// `workouts.csv`: one row per workout (docs/export-format.md §7.7), duplicates included and marked
// (`counted` false, `duplicate_of` the start of the workout they repeat). Unmeasured values are
// empty cells. The route columns say which GPX file the workout names, whether the export holds
// it, and what it holds (read with libxml2).

/// A workout row with what the export's route files say about it.
public struct WorkoutTableRow: Sendable {
    public var row: WorkoutRow
    var duplicateOfStart: LocalTime?
    /// The first referenced route: nil (none referenced), or its summary / why it is missing.
    var route: Result<RouteSummary, RouteFileError>?
    /// Whether the export holds the route file; nil when route files were not read (`report
    /// --db`: the archive keeps the paths only, docs/archive.md §5).
    var routeInExport: Bool?
}

extension ReportTables {
    /// The table `workouts.csv`, in order.
    public static let workouts = ReportTable<WorkoutTableRow>(
        "workouts", fileName: "workouts.csv",
        columns: [
            .timestamp("start", \.row.start),
            .timestamp("end", \.row.end),
            .text("activity", \.row.activity),
            .text("source", identifying: true, \.row.source),
            .number("duration_min", decimals: 2, \.row.durationMinutes),
            .number("elapsed_min", decimals: 2, \.row.elapsedMinutes),
            .number("distance_km", decimals: 3, \.row.distanceKm),
            .number("active_energy_kcal", decimals: 1, \.row.activeEnergyKcal),
            .number("heart_rate_avg_bpm", decimals: 1, \.row.heartRateAvgBpm),
            .number("heart_rate_max_bpm", decimals: 1, \.row.heartRateMaxBpm),
            .text("route") { $0.row.routeFiles.first.map(routeName) ?? "" },
            .boolean("route_in_export") { $0.row.routeFiles.isEmpty ? nil : $0.routeInExport },
            .integer("route_points") { try? $0.route?.get().pointCount },
            .number("route_distance_km", decimals: 3) { try? $0.route?.get().distanceKm },
            .number("route_elevation_gain_m", decimals: 1) { (try? $0.route?.get())?.elevationGainM },
            .integer("legs", \.row.legs),
            .boolean("counted") { !$0.row.isDuplicate },
            .timestamp("duplicate_of", \.duplicateOfStart),
            .text("activity_type", \.row.activityType),
        ])

    /// `route_2025-10-01_6.15pm.gpx` for `/workout-routes/route_2025-10-01_6.15pm.gpx`.
    package static func routeName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The rows with their route facts from `routes` (nil: route files were not looked for).
    public static func workoutRows(_ result: AnalysisResult, routes: RouteFileIndex?) -> [WorkoutTableRow] {
        result.workouts.map { w in
            let route = w.routeFiles.first.flatMap { routes?.files[$0] }
            return WorkoutTableRow(
                row: w, duplicateOfStart: w.duplicateOf.map { result.workouts[$0].start }, route: route,
                routeInExport: routes == nil ? nil : route != nil)
        }
    }
}
