import HealthExport

/// The part of an import that writes workouts with their activities, events, statistics and
/// routes, unless the archive holds the workout (same type, source, start and end).
final class WorkoutImport {
    let db: Connection
    let exportID: Int64
    let lookups: ImportLookups
    let insertWorkout, insertActivity, insertEvent, insertStatistic, insertRoute, insertRouteFile,
        insertLocation: Statement

    init(db: Connection, exportID: Int64, lookups: ImportLookups) throws {
        self.db = db
        self.exportID = exportID
        self.lookups = lookups
        insertWorkout = try db.prepare(
            """
            INSERT INTO workouts (activity_type_id, source_id, source_version_id, device_id, start_utc, end_utc,
              creation_utc, printed_offset_min, duration_min, total_distance_km, total_energy_kcal, export_id)
            VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING
            """)
        insertActivity = try db.prepare(
            """
            INSERT INTO workout_activities (workout_id, position, uuid, start_utc, end_utc, printed_offset_min,
              duration_min) VALUES (?,?,?,?,?,?,?)
            """)
        insertEvent = try db.prepare(
            """
            INSERT INTO workout_events (workout_id, activity_id, position, type_id, date_utc, printed_offset_min,
              duration_min) VALUES (?,?,?,?,?,?,?)
            """)
        insertStatistic = try db.prepare(
            """
            INSERT INTO workout_statistics (workout_id, activity_id, position, type_id, start_utc, end_utc,
              printed_offset_min, sum, average, minimum, maximum, unit_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
            """)
        insertRoute = try db.prepare(
            """
            INSERT INTO workout_routes (workout_id, position, source_id, source_version_id, device_id, start_utc,
              end_utc, creation_utc, printed_offset_min) VALUES (?,?,?,?,?,?,?,?,?)
            """)
        insertRouteFile = try db.prepare("INSERT INTO workout_route_files (route_id, position, path) VALUES (?,?,?)")
        insertLocation = try db.prepare(
            """
            INSERT INTO route_locations (route_id, position, date_utc, printed_offset_min, latitude, longitude,
              altitude, horizontal_accuracy, vertical_accuracy, course, speed) VALUES (?,?,?,?,?,?,?,?,?,?,?)
            """)
    }

    func consume(_ w: Workout, outcome: inout ImportOutcome) throws {
        outcome.workoutsRead += 1
        let s = insertWorkout
        s.bind(1, try lookups.typeID(w.activityType))
        try lookups.bindSampleAttributes(s, from: 2, w.attributes)
        s.bind(9, w.durationMinutes)
        s.bind(10, w.totalDistanceKm)
        s.bind(11, w.totalEnergyBurnedKcal)
        s.bind(12, exportID)
        try s.run()
        guard db.changes == 1 else { return }
        let id = db.lastInsertRowID
        outcome.workoutsNew += 1
        try lookups.insertMetadata(w.metadata, kind: .workout, owner: id)
        var position = 0
        try insertEvents(w.events, workout: id, activity: nil, position: &position)
        try insertStatistics(w.statistics, workout: id, activity: nil, position: &position)
        for (n, a) in w.activities.enumerated() {
            let s = insertActivity
            s.bind(1, id)
            s.bind(2, n)
            s.bind(3, a.uuid)
            s.bind(4, a.startDate.secondsSince1970)
            s.bind(5, a.endDate?.secondsSince1970)
            s.bind(6, Int64(a.startDate.printedOffsetSeconds / 60))
            s.bind(7, a.durationMinutes)
            try s.run()
            let activity = db.lastInsertRowID
            try lookups.insertMetadata(a.metadata, kind: .workoutActivity, owner: activity)
            try insertEvents(a.events, workout: id, activity: activity, position: &position)
            try insertStatistics(a.statistics, workout: id, activity: activity, position: &position)
        }
        for (n, route) in w.routes.enumerated() {
            let s = insertRoute
            s.bind(1, id)
            s.bind(2, n)
            try lookups.bindSampleAttributes(s, from: 3, route.attributes)
            try s.run()
            let routeID = db.lastInsertRowID
            try lookups.insertMetadata(route.metadata, kind: .workoutRoute, owner: routeID)
            for (k, path) in route.filePaths.enumerated() {
                insertRouteFile.bind(1, routeID)
                insertRouteFile.bind(2, k)
                insertRouteFile.bind(3, path)
                try insertRouteFile.run()
            }
            for (k, l) in route.locations.enumerated() {
                let s = insertLocation
                s.bind(1, routeID)
                s.bind(2, k)
                s.bind(3, l.date.secondsSince1970)
                s.bind(4, Int64(l.date.printedOffsetSeconds / 60))
                s.bind(5, l.latitude)
                s.bind(6, l.longitude)
                s.bind(7, l.altitude)
                s.bind(8, l.horizontalAccuracy)
                s.bind(9, l.verticalAccuracy)
                s.bind(10, l.course)
                s.bind(11, l.speed)
                try s.run()
            }
        }
    }

    func insertEvents(_ events: [WorkoutEvent], workout: Int64, activity: Int64?, position: inout Int) throws {
        for e in events {
            let s = insertEvent
            s.bind(1, workout)
            s.bind(2, activity)
            s.bind(3, position)
            s.bind(4, try lookups.typeID(e.type))
            s.bind(5, e.date.secondsSince1970)
            s.bind(6, Int64(e.date.printedOffsetSeconds / 60))
            s.bind(7, e.durationMinutes)
            try s.run()
            position += 1
            try lookups.insertMetadata(e.metadata, kind: .workoutEvent, owner: db.lastInsertRowID)
        }
    }

    func insertStatistics(_ statistics: [WorkoutStatistics], workout: Int64, activity: Int64?, position: inout Int)
        throws
    {
        for st in statistics {
            let s = insertStatistic
            s.bind(1, workout)
            s.bind(2, activity)
            s.bind(3, position)
            s.bind(4, try lookups.typeID(st.type))
            s.bind(5, st.startDate.secondsSince1970)
            s.bind(6, st.endDate.secondsSince1970)
            s.bind(7, Int64(st.startDate.printedOffsetSeconds / 60))
            s.bind(8, st.sum)
            s.bind(9, st.average)
            s.bind(10, st.minimum)
            s.bind(11, st.maximum)
            s.bind(12, try lookups.unitID(st.originalUnit ?? st.unit?.rawValue))
            try s.run()
            position += 1
        }
    }
}
