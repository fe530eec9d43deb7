-- Typed tables for the CSV files beside this file (written by health-analyzer).
-- To load the CSV files with every empty cell NULL, run load-sqlite.sql or load-duckdb.sql
-- in this folder: sqlite3 health.db < load-sqlite.sql, duckdb health.duckdb < load-duckdb.sql.
-- An empty cell is no data (NULL), never 0. Times are local with their UTC offset (ISO 8601).

-- daily.csv
CREATE TABLE daily (
    "date" DATE,
    "steps" DOUBLE,
    "distance_km" DOUBLE,
    "flights_climbed" DOUBLE,
    "active_energy_kcal" DOUBLE,
    "move_kcal" DOUBLE,
    "move_goal_kcal" DOUBLE,
    "exercise_min" DOUBLE,
    "exercise_goal_min" DOUBLE,
    "stand_hours" INTEGER,
    "stand_goal_hours" DOUBLE,
    "rings_closed" INTEGER,
    "resting_heart_rate_bpm" DOUBLE,
    "heart_rate_avg_bpm" DOUBLE,
    "workouts" INTEGER,
    "workout_min" DOUBLE,
    "summary_move_kcal" DOUBLE,
    "summary_exercise_min" DOUBLE,
    "summary_stand_hours" DOUBLE,
    "move_min" DOUBLE,
    "move_goal_min" DOUBLE,
    "heart_rate_min_bpm" DOUBLE,
    "heart_rate_max_bpm" DOUBLE,
    "summary_move_min" DOUBLE,
    "basal_energy_kcal" DOUBLE,
    "walking_heart_rate_avg_bpm" DOUBLE,
    "vo2_max_ml_min_kg" DOUBLE,
    "body_mass_kg" DOUBLE,
    "hrv_sdnn_ms" DOUBLE,
    "respiratory_rate_per_min" DOUBLE,
    "blood_oxygen_pct" DOUBLE,
    "wrist_temperature_c" DOUBLE,
    "blood_pressure_systolic_mmhg" DOUBLE,
    "blood_pressure_diastolic_mmhg" DOUBLE,
    "sleep_min" DOUBLE,
    "time_zone" VARCHAR
);

-- weekly.csv
CREATE TABLE weekly (
    "week" VARCHAR,
    "week_start" DATE,
    "days" INTEGER,
    "partial" BOOLEAN,
    "steps" DOUBLE,
    "distance_km" DOUBLE,
    "active_energy_kcal" DOUBLE,
    "exercise_min" DOUBLE,
    "stand_hours" INTEGER,
    "steps_per_day" DOUBLE,
    "active_energy_kcal_per_day" DOUBLE,
    "exercise_min_per_day" DOUBLE,
    "move_ring_closed_days" INTEGER,
    "exercise_ring_closed_days" INTEGER,
    "stand_ring_closed_days" INTEGER,
    "all_rings_closed_days" INTEGER,
    "workouts" INTEGER,
    "workout_min" DOUBLE,
    "resting_heart_rate_avg_bpm" DOUBLE,
    "steps_change_pct" DOUBLE,
    "active_energy_change_pct" DOUBLE,
    "exercise_change_pct" DOUBLE,
    "steps_per_day_rolling_4w" DOUBLE,
    "move_kcal" DOUBLE,
    "move_kcal_per_day" DOUBLE,
    "sleep_min_per_night" DOUBLE,
    "body_mass_kg" DOUBLE,
    "workouts_by_activity" VARCHAR
);

-- monthly.csv
CREATE TABLE monthly (
    "month" VARCHAR,
    "days" INTEGER,
    "partial" BOOLEAN,
    "steps" DOUBLE,
    "steps_per_day" DOUBLE,
    "distance_km" DOUBLE,
    "active_energy_kcal_per_day" DOUBLE,
    "move_kcal_per_day" DOUBLE,
    "exercise_min_per_day" DOUBLE,
    "stand_hours_per_day" DOUBLE,
    "move_ring_closed_days" INTEGER,
    "exercise_ring_closed_days" INTEGER,
    "stand_ring_closed_days" INTEGER,
    "all_rings_closed_days" INTEGER,
    "workouts" INTEGER,
    "workout_min" DOUBLE,
    "resting_heart_rate_avg_bpm" DOUBLE,
    "hrv_sdnn_avg_ms" DOUBLE,
    "sleep_min_per_night" DOUBLE,
    "body_mass_kg" DOUBLE,
    "workouts_by_activity" VARCHAR,
    "vo2_max_ml_min_kg" DOUBLE,
    "blood_oxygen_pct" DOUBLE,
    "respiratory_rate_per_min" DOUBLE,
    "wrist_temperature_c" DOUBLE,
    "blood_pressure_systolic_mmhg" DOUBLE,
    "blood_pressure_diastolic_mmhg" DOUBLE
);

-- stand_hours.csv
CREATE TABLE stand_hours (
    "date" DATE,
    "hour" INTEGER,
    "stood" BOOLEAN,
    "utc_offset" VARCHAR
);

-- sources.csv
CREATE TABLE sources (
    "type" VARCHAR,
    "source" VARCHAR,
    "source_class" VARCHAR,
    "samples" INTEGER,
    "raw_total" DOUBLE,
    "counted_total" DOUBLE,
    "unit" VARCHAR
);

-- sleep.csv
CREATE TABLE sleep (
    "night" DATE,
    "kind" VARCHAR,
    "source" VARCHAR,
    "bedtime" TIMESTAMP WITH TIME ZONE,
    "wake_time" TIMESTAMP WITH TIME ZONE,
    "asleep_min" DOUBLE,
    "core_min" DOUBLE,
    "deep_min" DOUBLE,
    "rem_min" DOUBLE,
    "unspecified_min" DOUBLE,
    "awake_min" DOUBLE,
    "in_bed_min" DOUBLE,
    "sources" INTEGER
);

-- workouts.csv
CREATE TABLE workouts (
    "start" TIMESTAMP WITH TIME ZONE,
    "end" TIMESTAMP WITH TIME ZONE,
    "activity" VARCHAR,
    "source" VARCHAR,
    "duration_min" DOUBLE,
    "elapsed_min" DOUBLE,
    "distance_km" DOUBLE,
    "active_energy_kcal" DOUBLE,
    "heart_rate_avg_bpm" DOUBLE,
    "heart_rate_max_bpm" DOUBLE,
    "route" VARCHAR,
    "route_in_export" BOOLEAN,
    "route_points" INTEGER,
    "route_distance_km" DOUBLE,
    "route_elevation_gain_m" DOUBLE,
    "legs" INTEGER,
    "counted" BOOLEAN,
    "duplicate_of" TIMESTAMP WITH TIME ZONE,
    "activity_type" VARCHAR
);

-- trends.csv
CREATE TABLE trends (
    "metric" VARCHAR,
    "unit" VARCHAR,
    "end" DATE,
    "recent_days" INTEGER,
    "recent_mean" DOUBLE,
    "year_days" INTEGER,
    "year_mean" DOUBLE,
    "direction" VARCHAR,
    "why_none" VARCHAR
);
