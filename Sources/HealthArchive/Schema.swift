// The archive's schema, version 3 (version 1 stored one `records` row per record, version 2 a top-level
// record's metadata and heartbeats in rows of their own; SchemaUpgrade.swift turns such an archive
// into this one). Documented for people in docs/archive-guide.md and docs/archive.md;
// keep them in step. Instants are INTEGER seconds since 1970 UTC (`*_utc`), with the
// offset the export printed them in beside them (`printed_offset_min`, minutes east of UTC,
// docs/export-format.md §9): identity and every computation use the instant, never the printed text.
// Values are in the canonical unit of their dimension (docs/export-format.md §11); `units` keeps the
// unit as written, and `original_value` the value as written where it differs.

enum Schema {
    /// `PRAGMA user_version` of archives this code writes. A newer archive is refused.
    static let version: Int64 = 3
    /// The id of a top-level record: type, then start (biased by 2^31 so 1901-12-13 to 2174-02-25 fit in 33
    /// bits), then `n`, a counter among records of one type starting in the same second.
    static func recordID(type: Int64, start: Int64, n: Int64) -> Int64? {
        let biased = start + (1 << 31)
        guard type > 0, type < 512, biased >= 0, biased < (1 << 33), n >= 0, n < (1 << 21) else { return nil }
        return type << 54 | biased << 21 | n
    }

    /// The ids of records of `type` starting from `from` to `to` (inclusive; starts outside
    /// what an id can hold are clamped: no record has them).
    static func recordIDs(type: Int64, from: Int64, to: Int64) -> ClosedRange<Int64>? {
        let first = -(Int64(1) << 31)
        let last = (Int64(1) << 33) - (Int64(1) << 31) - 1
        guard from <= last, to >= first,
            let lo = recordID(type: type, start: max(from, first), n: 0),
            let hi = recordID(type: type, start: min(to, last), n: 0)
        else { return nil }
        return lo...(hi | ((1 << 21) - 1))
    }

    static func start(ofRecord id: Int64) -> Int64 { ((id >> 21) & ((1 << 33) - 1)) - (1 << 31) }

    /// `PRAGMA application_id`: "HAAR" (health-analyzer archive), so that `file(1)` and this
    /// code tell the archive from other SQLite files.
    static let applicationID: Int64 = 0x4841_4152

    /// `metadata.owner_kind`: which table `metadata.owner_id` points into. Top-level records'
    /// metadata (kind 1 up to version 2) is in their blocks since version 3.
    enum OwnerKind: Int64 {
        case record = 1
        case correlation = 2
        case correlationRecord = 3
        case workout = 4
        case workoutActivity = 5
        case workoutEvent = 6
        case workoutRoute = 7
    }

    /// The tables, indexes and views of version 3, created in one transaction.
    static let create: [String] =
        [
            // Lookup tables: every repeated string once.
            "CREATE TABLE types (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE)",
            "CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
            "CREATE TABLE source_versions (id INTEGER PRIMARY KEY, version TEXT NOT NULL UNIQUE)",
            """
            CREATE TABLE devices (id INTEGER PRIMARY KEY, name TEXT, manufacturer TEXT, model TEXT, hardware TEXT,
              software TEXT, creation_date TEXT, other_fields TEXT)
            """,
            "CREATE TABLE units (id INTEGER PRIMARY KEY, unit TEXT NOT NULL UNIQUE, canonical_unit TEXT)",
            "CREATE TABLE value_texts (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)",
            "CREATE TABLE metadata_keys (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE)",

            // One row per export imported (re-importing the same export updates last_imported_utc).
            """
            CREATE TABLE exports (id INTEGER PRIMARY KEY, input_name TEXT NOT NULL, export_utc INTEGER,
              printed_offset_min INTEGER, export_version INTEGER, locale TEXT, bytes_read INTEGER NOT NULL,
              first_imported_utc INTEGER NOT NULL, last_imported_utc INTEGER NOT NULL,
              records_read INTEGER NOT NULL, records_new INTEGER NOT NULL)
            """,
            """
            CREATE TABLE export_diagnostics (export_id INTEGER NOT NULL REFERENCES exports(id),
              position INTEGER NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL, count INTEGER NOT NULL,
              first_line INTEGER NOT NULL, PRIMARY KEY (export_id, position)) WITHOUT ROWID
            """,

            // Top-level records, in blocks (RecordBlocks.swift): one row holds the records of one
            // type whose starts share a 2^16-second stretch, as JSON, with their metadata and
            // heartbeats (the `record_metadata` and `heartbeats` views). Identity: type, source,
            // start, end, value and unit (checked on import). A record's id is the key
            // `(type_id << 54) | ((start_utc + 2^31) << 21) | n`, and its block's id is the record
            // id >> 37, so the table is ordered by type and start. `count` is the block's records.
            """
            CREATE TABLE record_blocks (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, records TEXT NOT NULL,
              type_id INTEGER GENERATED ALWAYS AS (id >> 17) VIRTUAL)
            """,
            // `copies`: the most exact duplicates of a record (docs/deduplication.md §2) that any
            // one imported export held, for the few records where that is more than 1.
            "CREATE TABLE record_copies (id INTEGER PRIMARY KEY, copies INTEGER NOT NULL)",

            // Correlations and the records inside them (copies of top-level records: never counted).
            """
            CREATE TABLE correlations (id INTEGER PRIMARY KEY, type_id INTEGER NOT NULL REFERENCES types(id),
              source_id INTEGER NOT NULL REFERENCES sources(id),
              source_version_id INTEGER REFERENCES source_versions(id), device_id INTEGER REFERENCES devices(id),
              start_utc INTEGER NOT NULL, end_utc INTEGER NOT NULL, creation_utc INTEGER,
              printed_offset_min INTEGER NOT NULL, export_id INTEGER NOT NULL REFERENCES exports(id),
              UNIQUE (type_id, source_id, start_utc, end_utc))
            """,
            """
            CREATE TABLE correlation_records (id INTEGER PRIMARY KEY,
              correlation_id INTEGER NOT NULL REFERENCES correlations(id), position INTEGER NOT NULL,
              type_id INTEGER NOT NULL REFERENCES types(id), source_id INTEGER NOT NULL REFERENCES sources(id),
              source_version_id INTEGER REFERENCES source_versions(id), device_id INTEGER REFERENCES devices(id),
              start_utc INTEGER NOT NULL, end_utc INTEGER NOT NULL, creation_utc INTEGER,
              printed_offset_min INTEGER NOT NULL, value REAL, unit_id INTEGER REFERENCES units(id),
              original_value REAL, value_text_id INTEGER REFERENCES value_texts(id))
            """,
            "CREATE INDEX correlation_records_by_parent ON correlation_records (correlation_id, position)",

            // Workouts with their activities, events, statistics and routes.
            """
            CREATE TABLE workouts (id INTEGER PRIMARY KEY, activity_type_id INTEGER NOT NULL REFERENCES types(id),
              source_id INTEGER NOT NULL REFERENCES sources(id),
              source_version_id INTEGER REFERENCES source_versions(id), device_id INTEGER REFERENCES devices(id),
              start_utc INTEGER NOT NULL, end_utc INTEGER NOT NULL, creation_utc INTEGER,
              printed_offset_min INTEGER NOT NULL, duration_min REAL, total_distance_km REAL,
              total_energy_kcal REAL, export_id INTEGER NOT NULL REFERENCES exports(id),
              UNIQUE (activity_type_id, source_id, start_utc, end_utc))
            """,
            """
            CREATE TABLE workout_activities (id INTEGER PRIMARY KEY, workout_id INTEGER NOT NULL REFERENCES workouts(id),
              position INTEGER NOT NULL, uuid TEXT, start_utc INTEGER NOT NULL, end_utc INTEGER,
              printed_offset_min INTEGER NOT NULL, duration_min REAL)
            """,
            """
            CREATE TABLE workout_events (id INTEGER PRIMARY KEY, workout_id INTEGER NOT NULL REFERENCES workouts(id),
              activity_id INTEGER REFERENCES workout_activities(id), position INTEGER NOT NULL,
              type_id INTEGER NOT NULL REFERENCES types(id), date_utc INTEGER NOT NULL,
              printed_offset_min INTEGER NOT NULL, duration_min REAL)
            """,
            """
            CREATE TABLE workout_statistics (id INTEGER PRIMARY KEY,
              workout_id INTEGER NOT NULL REFERENCES workouts(id), activity_id INTEGER REFERENCES workout_activities(id),
              position INTEGER NOT NULL, type_id INTEGER NOT NULL REFERENCES types(id), start_utc INTEGER NOT NULL,
              end_utc INTEGER NOT NULL, printed_offset_min INTEGER NOT NULL, sum REAL, average REAL, minimum REAL,
              maximum REAL, unit_id INTEGER REFERENCES units(id))
            """,
            """
            CREATE TABLE workout_routes (id INTEGER PRIMARY KEY, workout_id INTEGER NOT NULL REFERENCES workouts(id),
              position INTEGER NOT NULL, source_id INTEGER NOT NULL REFERENCES sources(id),
              source_version_id INTEGER REFERENCES source_versions(id), device_id INTEGER REFERENCES devices(id),
              start_utc INTEGER NOT NULL, end_utc INTEGER NOT NULL, creation_utc INTEGER,
              printed_offset_min INTEGER NOT NULL)
            """,
            """
            CREATE TABLE workout_route_files (route_id INTEGER NOT NULL REFERENCES workout_routes(id),
              position INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (route_id, position)) WITHOUT ROWID
            """,
            """
            CREATE TABLE route_locations (route_id INTEGER NOT NULL REFERENCES workout_routes(id),
              position INTEGER NOT NULL, date_utc INTEGER NOT NULL, printed_offset_min INTEGER NOT NULL,
              latitude REAL NOT NULL, longitude REAL NOT NULL, altitude REAL, horizontal_accuracy REAL,
              vertical_accuracy REAL, course REAL, speed REAL, PRIMARY KEY (route_id, position)) WITHOUT ROWID
            """,
            "CREATE INDEX workout_activities_by_workout ON workout_activities (workout_id, position)",
            "CREATE INDEX workout_events_by_workout ON workout_events (workout_id, position)",
            "CREATE INDEX workout_statistics_by_workout ON workout_statistics (workout_id, position)",
            "CREATE INDEX workout_routes_by_workout ON workout_routes (workout_id, position)",

            // One ActivitySummary per day: a later export's replaces an earlier one that differs.
            """
            CREATE TABLE activity_summaries (date TEXT PRIMARY KEY, active_energy_kcal REAL,
              active_energy_goal_kcal REAL, active_energy_unit TEXT, move_time_min REAL, move_time_goal_min REAL,
              exercise_time_min REAL, exercise_time_goal_min REAL, stand_hours REAL, stand_hours_goal REAL,
              export_id INTEGER NOT NULL REFERENCES exports(id)) WITHOUT ROWID
            """,
            // The latest export's <Me>.
            """
            CREATE TABLE me (id INTEGER PRIMARY KEY CHECK (id = 1), date_of_birth TEXT, biological_sex TEXT,
              blood_type TEXT, fitzpatrick_skin_type TEXT, cardio_fitness_medications_use TEXT,
              export_id INTEGER NOT NULL REFERENCES exports(id))
            """,
            // MetadataEntry children of every kind of element but top-level records (those are in
            // their blocks), in document order.
            """
            CREATE TABLE metadata (owner_kind INTEGER NOT NULL, owner_id INTEGER NOT NULL, position INTEGER NOT NULL,
              key_id INTEGER NOT NULL REFERENCES metadata_keys(id), value TEXT NOT NULL,
              PRIMARY KEY (owner_kind, owner_id, position)) WITHOUT ROWID
            """,

            // Views for people: the records of the blocks one per row, with the columns version 1
            // stored, and their metadata and heartbeats; names instead of ids, instants as UTC text.
            recordsView,
            """
            CREATE VIEW record_metadata AS
              SELECT (b.id << 37) | ((r.value ->> 0) << 21) | (r.value ->> 1) AS record_id, m.key AS position,
                m.value ->> 0 AS key_id, k.key AS key, m.value ->> 1 AS value
              FROM record_blocks b, json_each(b.records) r, json_each(r.value, '$[14]') m
                LEFT JOIN metadata_keys k ON k.id = m.value ->> 0
              WHERE m.type = 'array'
            """,
            """
            CREATE VIEW heartbeats AS
              SELECT (b.id << 37) | ((r.value ->> 0) << 21) | (r.value ->> 1) AS record_id, h.key AS position,
                CAST(h.value ->> 0 AS REAL) AS bpm, h.value ->> 1 AS time
              FROM record_blocks b, json_each(b.records) r, json_each(r.value, '$[15]') h
              WHERE h.type = 'array'
            """,
            """
            CREATE VIEW record_values AS
              SELECT r.id, t.identifier AS type, s.name AS source, datetime(r.start_utc, 'unixepoch') AS start_utc,
                datetime(r.end_utc, 'unixepoch') AS end_utc, r.printed_offset_min, r.value, u.canonical_unit AS unit,
                coalesce(r.original_value, r.value) AS original_value, u.unit AS original_unit,
                vt.text AS category_value, d.name AS device, d.model AS device_model, r.export_id
              FROM records r JOIN types t ON t.id = r.type_id JOIN sources s ON s.id = r.source_id
                LEFT JOIN units u ON u.id = r.unit_id LEFT JOIN value_texts vt ON vt.id = r.value_text_id
                LEFT JOIN devices d ON d.id = r.device_id
            """,
            """
            CREATE VIEW workout_list AS
              SELECT w.id, replace(t.identifier, 'HKWorkoutActivityType', '') AS activity, s.name AS source,
                datetime(w.start_utc, 'unixepoch') AS start_utc, datetime(w.end_utc, 'unixepoch') AS end_utc,
                w.duration_min, w.total_distance_km, w.total_energy_kcal
              FROM workouts w JOIN types t ON t.id = w.activity_type_id JOIN sources s ON s.id = w.source_id
            """,
            """
            CREATE VIEW blood_pressure AS
              SELECT c.id, datetime(c.start_utc, 'unixepoch') AS start_utc, s.name AS source,
                (SELECT cr.value FROM correlation_records cr JOIN types ct ON ct.id = cr.type_id
                  WHERE cr.correlation_id = c.id AND ct.identifier = 'HKQuantityTypeIdentifierBloodPressureSystolic')
                  AS systolic_mmhg,
                (SELECT cr.value FROM correlation_records cr JOIN types ct ON ct.id = cr.type_id
                  WHERE cr.correlation_id = c.id AND ct.identifier = 'HKQuantityTypeIdentifierBloodPressureDiastolic')
                  AS diastolic_mmhg
              FROM correlations c JOIN types t ON t.id = c.type_id JOIN sources s ON s.id = c.source_id
              WHERE t.identifier = 'HKCorrelationTypeIdentifierBloodPressure'
            """,
        ] + plainViews.map(plainView)

    /// The `CREATE VIEW` statements of `create`.
    static var views: [String] { create.filter { $0.hasPrefix("CREATE VIEW") } }

    /// `records`: one row per top-level record, unpacked from `record_blocks` (`line` is the record's
    /// line in the export it was first imported from; `block_id` its block, for fast filters).
    static let recordsView = """
        CREATE VIEW records AS
          SELECT (b.id << 37) | ((r.value ->> 0) << 21) | (r.value ->> 1) AS id, r.value ->> 2 AS source_id,
            r.value ->> 9 AS source_version_id, r.value ->> 10 AS device_id, r.value ->> 3 AS duration_s,
            r.value ->> 11 AS creation_delay_s, r.value ->> 6 AS printed_offset_min,
            CAST(r.value ->> 4 AS REAL) AS value, r.value ->> 5 AS unit_id,
            CAST(r.value ->> 12 AS REAL) AS original_value, r.value ->> 13 AS value_text_id,
            r.value ->> 7 AS export_id, r.value ->> 8 AS line,
            coalesce((SELECT c.copies FROM record_copies c
              WHERE c.id = (b.id << 37) | ((r.value ->> 0) << 21) | (r.value ->> 1)), 1) AS copies,
            b.id >> 17 AS type_id, (((b.id & 131071) << 16) | (r.value ->> 0)) - 2147483648 AS start_utc,
            (((b.id & 131071) << 16) | (r.value ->> 0)) - 2147483648 + (r.value ->> 3) AS end_utc,
            (((b.id & 131071) << 16) | (r.value ->> 0)) - 2147483648 + (r.value ->> 3) + (r.value ->> 11)
              AS creation_utc,
            b.id AS block_id
          FROM record_blocks b, json_each(b.records) r
        """

    /// Views with plain names over one record type each: `steps`, `heart_rate`, ….
    static let plainViews: [(name: String, type: String)] = [
        ("steps", "HKQuantityTypeIdentifierStepCount"),
        ("distance", "HKQuantityTypeIdentifierDistanceWalkingRunning"),
        ("flights_climbed", "HKQuantityTypeIdentifierFlightsClimbed"),
        ("active_energy", "HKQuantityTypeIdentifierActiveEnergyBurned"),
        ("basal_energy", "HKQuantityTypeIdentifierBasalEnergyBurned"),
        ("exercise_time", "HKQuantityTypeIdentifierAppleExerciseTime"),
        ("stand_time", "HKQuantityTypeIdentifierAppleStandTime"),
        ("heart_rate", "HKQuantityTypeIdentifierHeartRate"),
        ("resting_heart_rate", "HKQuantityTypeIdentifierRestingHeartRate"),
        ("walking_heart_rate", "HKQuantityTypeIdentifierWalkingHeartRateAverage"),
        ("heart_rate_variability", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"),
        ("vo2_max", "HKQuantityTypeIdentifierVO2Max"),
        ("body_mass", "HKQuantityTypeIdentifierBodyMass"),
        ("stand_hours", "HKCategoryTypeIdentifierAppleStandHour"),
        ("sleep", "HKCategoryTypeIdentifierSleepAnalysis"),
    ]

    /// `CREATE VIEW steps AS …`: start and end as UTC text, the source, the value in the
    /// canonical unit (or the category value), and the unit.
    static func plainView(_ view: (name: String, type: String)) -> String {
        """
        CREATE VIEW \(view.name) AS
          SELECT datetime(r.start_utc, 'unixepoch') AS start_utc, datetime(r.end_utc, 'unixepoch') AS end_utc,
            s.name AS source, coalesce(r.value, vt.text) AS value, u.canonical_unit AS unit
          FROM records r JOIN sources s ON s.id = r.source_id LEFT JOIN units u ON u.id = r.unit_id
            LEFT JOIN value_texts vt ON vt.id = r.value_text_id
          WHERE r.block_id BETWEEN (SELECT id << 17 FROM types WHERE identifier = '\(view.type)')
            AND (SELECT ((id + 1) << 17) - 1 FROM types WHERE identifier = '\(view.type)')
        """
    }
}
