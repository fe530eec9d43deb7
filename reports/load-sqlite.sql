-- Loads the CSV files beside this file into typed SQLite tables (written by health-analyzer).
-- Run in this folder: sqlite3 health.db < load-sqlite.sql
-- An empty cell is NULL, never 0 or ''. Booleans are 1 and 0; times are local with their UTC offset.
.bail on
BEGIN;

-- daily.csv
DROP TABLE IF EXISTS "daily";
CREATE TABLE "daily" (
    "date" TEXT,
    "steps" REAL,
    "distance_km" REAL,
    "flights_climbed" REAL,
    "active_energy_kcal" REAL,
    "move_kcal" REAL,
    "move_goal_kcal" REAL,
    "exercise_min" REAL,
    "exercise_goal_min" REAL,
    "stand_hours" INTEGER,
    "stand_goal_hours" REAL,
    "rings_closed" INTEGER,
    "resting_heart_rate_bpm" REAL,
    "heart_rate_avg_bpm" REAL,
    "workouts" INTEGER,
    "workout_min" REAL,
    "summary_move_kcal" REAL,
    "summary_exercise_min" REAL,
    "summary_stand_hours" REAL,
    "move_min" REAL,
    "move_goal_min" REAL,
    "heart_rate_min_bpm" REAL,
    "heart_rate_max_bpm" REAL,
    "summary_move_min" REAL,
    "basal_energy_kcal" REAL,
    "walking_heart_rate_avg_bpm" REAL,
    "vo2_max_ml_min_kg" REAL,
    "body_mass_kg" REAL,
    "hrv_sdnn_ms" REAL,
    "respiratory_rate_per_min" REAL,
    "blood_oxygen_pct" REAL,
    "wrist_temperature_c" REAL,
    "blood_pressure_systolic_mmhg" REAL,
    "blood_pressure_diastolic_mmhg" REAL,
    "sleep_min" REAL,
    "time_zone" TEXT
);
DROP TABLE IF EXISTS "_csv_daily";
.import --csv daily.csv "_csv_daily"
INSERT INTO "daily" SELECT
    NULLIF("date", ''),
    CAST(NULLIF("steps", '') AS REAL),
    CAST(NULLIF("distance_km", '') AS REAL),
    CAST(NULLIF("flights_climbed", '') AS REAL),
    CAST(NULLIF("active_energy_kcal", '') AS REAL),
    CAST(NULLIF("move_kcal", '') AS REAL),
    CAST(NULLIF("move_goal_kcal", '') AS REAL),
    CAST(NULLIF("exercise_min", '') AS REAL),
    CAST(NULLIF("exercise_goal_min", '') AS REAL),
    CAST(NULLIF("stand_hours", '') AS INTEGER),
    CAST(NULLIF("stand_goal_hours", '') AS REAL),
    CAST(NULLIF("rings_closed", '') AS INTEGER),
    CAST(NULLIF("resting_heart_rate_bpm", '') AS REAL),
    CAST(NULLIF("heart_rate_avg_bpm", '') AS REAL),
    CAST(NULLIF("workouts", '') AS INTEGER),
    CAST(NULLIF("workout_min", '') AS REAL),
    CAST(NULLIF("summary_move_kcal", '') AS REAL),
    CAST(NULLIF("summary_exercise_min", '') AS REAL),
    CAST(NULLIF("summary_stand_hours", '') AS REAL),
    CAST(NULLIF("move_min", '') AS REAL),
    CAST(NULLIF("move_goal_min", '') AS REAL),
    CAST(NULLIF("heart_rate_min_bpm", '') AS REAL),
    CAST(NULLIF("heart_rate_max_bpm", '') AS REAL),
    CAST(NULLIF("summary_move_min", '') AS REAL),
    CAST(NULLIF("basal_energy_kcal", '') AS REAL),
    CAST(NULLIF("walking_heart_rate_avg_bpm", '') AS REAL),
    CAST(NULLIF("vo2_max_ml_min_kg", '') AS REAL),
    CAST(NULLIF("body_mass_kg", '') AS REAL),
    CAST(NULLIF("hrv_sdnn_ms", '') AS REAL),
    CAST(NULLIF("respiratory_rate_per_min", '') AS REAL),
    CAST(NULLIF("blood_oxygen_pct", '') AS REAL),
    CAST(NULLIF("wrist_temperature_c", '') AS REAL),
    CAST(NULLIF("blood_pressure_systolic_mmhg", '') AS REAL),
    CAST(NULLIF("blood_pressure_diastolic_mmhg", '') AS REAL),
    CAST(NULLIF("sleep_min", '') AS REAL),
    NULLIF("time_zone", '')
FROM "_csv_daily";
DROP TABLE "_csv_daily";

-- weekly.csv
DROP TABLE IF EXISTS "weekly";
CREATE TABLE "weekly" (
    "week" TEXT,
    "week_start" TEXT,
    "days" INTEGER,
    "partial" INTEGER,
    "steps" REAL,
    "distance_km" REAL,
    "active_energy_kcal" REAL,
    "exercise_min" REAL,
    "stand_hours" INTEGER,
    "steps_per_day" REAL,
    "active_energy_kcal_per_day" REAL,
    "exercise_min_per_day" REAL,
    "move_ring_closed_days" INTEGER,
    "exercise_ring_closed_days" INTEGER,
    "stand_ring_closed_days" INTEGER,
    "all_rings_closed_days" INTEGER,
    "workouts" INTEGER,
    "workout_min" REAL,
    "resting_heart_rate_avg_bpm" REAL,
    "steps_change_pct" REAL,
    "active_energy_change_pct" REAL,
    "exercise_change_pct" REAL,
    "steps_per_day_rolling_4w" REAL,
    "move_kcal" REAL,
    "move_kcal_per_day" REAL,
    "sleep_min_per_night" REAL,
    "body_mass_kg" REAL,
    "workouts_by_activity" TEXT
);
DROP TABLE IF EXISTS "_csv_weekly";
.import --csv weekly.csv "_csv_weekly"
INSERT INTO "weekly" SELECT
    NULLIF("week", ''),
    NULLIF("week_start", ''),
    CAST(NULLIF("days", '') AS INTEGER),
    CASE "partial" WHEN 'true' THEN 1 WHEN 'false' THEN 0 END,
    CAST(NULLIF("steps", '') AS REAL),
    CAST(NULLIF("distance_km", '') AS REAL),
    CAST(NULLIF("active_energy_kcal", '') AS REAL),
    CAST(NULLIF("exercise_min", '') AS REAL),
    CAST(NULLIF("stand_hours", '') AS INTEGER),
    CAST(NULLIF("steps_per_day", '') AS REAL),
    CAST(NULLIF("active_energy_kcal_per_day", '') AS REAL),
    CAST(NULLIF("exercise_min_per_day", '') AS REAL),
    CAST(NULLIF("move_ring_closed_days", '') AS INTEGER),
    CAST(NULLIF("exercise_ring_closed_days", '') AS INTEGER),
    CAST(NULLIF("stand_ring_closed_days", '') AS INTEGER),
    CAST(NULLIF("all_rings_closed_days", '') AS INTEGER),
    CAST(NULLIF("workouts", '') AS INTEGER),
    CAST(NULLIF("workout_min", '') AS REAL),
    CAST(NULLIF("resting_heart_rate_avg_bpm", '') AS REAL),
    CAST(NULLIF("steps_change_pct", '') AS REAL),
    CAST(NULLIF("active_energy_change_pct", '') AS REAL),
    CAST(NULLIF("exercise_change_pct", '') AS REAL),
    CAST(NULLIF("steps_per_day_rolling_4w", '') AS REAL),
    CAST(NULLIF("move_kcal", '') AS REAL),
    CAST(NULLIF("move_kcal_per_day", '') AS REAL),
    CAST(NULLIF("sleep_min_per_night", '') AS REAL),
    CAST(NULLIF("body_mass_kg", '') AS REAL),
    NULLIF("workouts_by_activity", '')
FROM "_csv_weekly";
DROP TABLE "_csv_weekly";

-- monthly.csv
DROP TABLE IF EXISTS "monthly";
CREATE TABLE "monthly" (
    "month" TEXT,
    "days" INTEGER,
    "partial" INTEGER,
    "steps" REAL,
    "steps_per_day" REAL,
    "distance_km" REAL,
    "active_energy_kcal_per_day" REAL,
    "move_kcal_per_day" REAL,
    "exercise_min_per_day" REAL,
    "stand_hours_per_day" REAL,
    "move_ring_closed_days" INTEGER,
    "exercise_ring_closed_days" INTEGER,
    "stand_ring_closed_days" INTEGER,
    "all_rings_closed_days" INTEGER,
    "workouts" INTEGER,
    "workout_min" REAL,
    "resting_heart_rate_avg_bpm" REAL,
    "hrv_sdnn_avg_ms" REAL,
    "sleep_min_per_night" REAL,
    "body_mass_kg" REAL,
    "workouts_by_activity" TEXT,
    "vo2_max_ml_min_kg" REAL,
    "blood_oxygen_pct" REAL,
    "respiratory_rate_per_min" REAL,
    "wrist_temperature_c" REAL,
    "blood_pressure_systolic_mmhg" REAL,
    "blood_pressure_diastolic_mmhg" REAL
);
DROP TABLE IF EXISTS "_csv_monthly";
.import --csv monthly.csv "_csv_monthly"
INSERT INTO "monthly" SELECT
    NULLIF("month", ''),
    CAST(NULLIF("days", '') AS INTEGER),
    CASE "partial" WHEN 'true' THEN 1 WHEN 'false' THEN 0 END,
    CAST(NULLIF("steps", '') AS REAL),
    CAST(NULLIF("steps_per_day", '') AS REAL),
    CAST(NULLIF("distance_km", '') AS REAL),
    CAST(NULLIF("active_energy_kcal_per_day", '') AS REAL),
    CAST(NULLIF("move_kcal_per_day", '') AS REAL),
    CAST(NULLIF("exercise_min_per_day", '') AS REAL),
    CAST(NULLIF("stand_hours_per_day", '') AS REAL),
    CAST(NULLIF("move_ring_closed_days", '') AS INTEGER),
    CAST(NULLIF("exercise_ring_closed_days", '') AS INTEGER),
    CAST(NULLIF("stand_ring_closed_days", '') AS INTEGER),
    CAST(NULLIF("all_rings_closed_days", '') AS INTEGER),
    CAST(NULLIF("workouts", '') AS INTEGER),
    CAST(NULLIF("workout_min", '') AS REAL),
    CAST(NULLIF("resting_heart_rate_avg_bpm", '') AS REAL),
    CAST(NULLIF("hrv_sdnn_avg_ms", '') AS REAL),
    CAST(NULLIF("sleep_min_per_night", '') AS REAL),
    CAST(NULLIF("body_mass_kg", '') AS REAL),
    NULLIF("workouts_by_activity", ''),
    CAST(NULLIF("vo2_max_ml_min_kg", '') AS REAL),
    CAST(NULLIF("blood_oxygen_pct", '') AS REAL),
    CAST(NULLIF("respiratory_rate_per_min", '') AS REAL),
    CAST(NULLIF("wrist_temperature_c", '') AS REAL),
    CAST(NULLIF("blood_pressure_systolic_mmhg", '') AS REAL),
    CAST(NULLIF("blood_pressure_diastolic_mmhg", '') AS REAL)
FROM "_csv_monthly";
DROP TABLE "_csv_monthly";

-- stand_hours.csv
DROP TABLE IF EXISTS "stand_hours";
CREATE TABLE "stand_hours" (
    "date" TEXT,
    "hour" INTEGER,
    "stood" INTEGER,
    "utc_offset" TEXT
);
DROP TABLE IF EXISTS "_csv_stand_hours";
.import --csv stand_hours.csv "_csv_stand_hours"
INSERT INTO "stand_hours" SELECT
    NULLIF("date", ''),
    CAST(NULLIF("hour", '') AS INTEGER),
    CASE "stood" WHEN 'true' THEN 1 WHEN 'false' THEN 0 END,
    NULLIF("utc_offset", '')
FROM "_csv_stand_hours";
DROP TABLE "_csv_stand_hours";

-- sources.csv
DROP TABLE IF EXISTS "sources";
CREATE TABLE "sources" (
    "type" TEXT,
    "source" TEXT,
    "source_class" TEXT,
    "samples" INTEGER,
    "raw_total" REAL,
    "counted_total" REAL,
    "unit" TEXT
);
DROP TABLE IF EXISTS "_csv_sources";
.import --csv sources.csv "_csv_sources"
INSERT INTO "sources" SELECT
    NULLIF("type", ''),
    NULLIF("source", ''),
    NULLIF("source_class", ''),
    CAST(NULLIF("samples", '') AS INTEGER),
    CAST(NULLIF("raw_total", '') AS REAL),
    CAST(NULLIF("counted_total", '') AS REAL),
    NULLIF("unit", '')
FROM "_csv_sources";
DROP TABLE "_csv_sources";

-- sleep.csv
DROP TABLE IF EXISTS "sleep";
CREATE TABLE "sleep" (
    "night" TEXT,
    "kind" TEXT,
    "source" TEXT,
    "bedtime" TEXT,
    "wake_time" TEXT,
    "asleep_min" REAL,
    "core_min" REAL,
    "deep_min" REAL,
    "rem_min" REAL,
    "unspecified_min" REAL,
    "awake_min" REAL,
    "in_bed_min" REAL,
    "sources" INTEGER
);
DROP TABLE IF EXISTS "_csv_sleep";
.import --csv sleep.csv "_csv_sleep"
INSERT INTO "sleep" SELECT
    NULLIF("night", ''),
    NULLIF("kind", ''),
    NULLIF("source", ''),
    NULLIF("bedtime", ''),
    NULLIF("wake_time", ''),
    CAST(NULLIF("asleep_min", '') AS REAL),
    CAST(NULLIF("core_min", '') AS REAL),
    CAST(NULLIF("deep_min", '') AS REAL),
    CAST(NULLIF("rem_min", '') AS REAL),
    CAST(NULLIF("unspecified_min", '') AS REAL),
    CAST(NULLIF("awake_min", '') AS REAL),
    CAST(NULLIF("in_bed_min", '') AS REAL),
    CAST(NULLIF("sources", '') AS INTEGER)
FROM "_csv_sleep";
DROP TABLE "_csv_sleep";

-- workouts.csv
DROP TABLE IF EXISTS "workouts";
CREATE TABLE "workouts" (
    "start" TEXT,
    "end" TEXT,
    "activity" TEXT,
    "source" TEXT,
    "duration_min" REAL,
    "elapsed_min" REAL,
    "distance_km" REAL,
    "active_energy_kcal" REAL,
    "heart_rate_avg_bpm" REAL,
    "heart_rate_max_bpm" REAL,
    "route" TEXT,
    "route_in_export" INTEGER,
    "route_points" INTEGER,
    "route_distance_km" REAL,
    "route_elevation_gain_m" REAL,
    "legs" INTEGER,
    "counted" INTEGER,
    "duplicate_of" TEXT,
    "activity_type" TEXT
);
DROP TABLE IF EXISTS "_csv_workouts";
.import --csv workouts.csv "_csv_workouts"
INSERT INTO "workouts" SELECT
    NULLIF("start", ''),
    NULLIF("end", ''),
    NULLIF("activity", ''),
    NULLIF("source", ''),
    CAST(NULLIF("duration_min", '') AS REAL),
    CAST(NULLIF("elapsed_min", '') AS REAL),
    CAST(NULLIF("distance_km", '') AS REAL),
    CAST(NULLIF("active_energy_kcal", '') AS REAL),
    CAST(NULLIF("heart_rate_avg_bpm", '') AS REAL),
    CAST(NULLIF("heart_rate_max_bpm", '') AS REAL),
    NULLIF("route", ''),
    CASE "route_in_export" WHEN 'true' THEN 1 WHEN 'false' THEN 0 END,
    CAST(NULLIF("route_points", '') AS INTEGER),
    CAST(NULLIF("route_distance_km", '') AS REAL),
    CAST(NULLIF("route_elevation_gain_m", '') AS REAL),
    CAST(NULLIF("legs", '') AS INTEGER),
    CASE "counted" WHEN 'true' THEN 1 WHEN 'false' THEN 0 END,
    NULLIF("duplicate_of", ''),
    NULLIF("activity_type", '')
FROM "_csv_workouts";
DROP TABLE "_csv_workouts";

-- trends.csv
DROP TABLE IF EXISTS "trends";
CREATE TABLE "trends" (
    "metric" TEXT,
    "unit" TEXT,
    "end" TEXT,
    "recent_days" INTEGER,
    "recent_mean" REAL,
    "year_days" INTEGER,
    "year_mean" REAL,
    "direction" TEXT,
    "why_none" TEXT
);
DROP TABLE IF EXISTS "_csv_trends";
.import --csv trends.csv "_csv_trends"
INSERT INTO "trends" SELECT
    NULLIF("metric", ''),
    NULLIF("unit", ''),
    NULLIF("end", ''),
    CAST(NULLIF("recent_days", '') AS INTEGER),
    CAST(NULLIF("recent_mean", '') AS REAL),
    CAST(NULLIF("year_days", '') AS INTEGER),
    CAST(NULLIF("year_mean", '') AS REAL),
    NULLIF("direction", ''),
    NULLIF("why_none", '')
FROM "_csv_trends";
DROP TABLE "_csv_trends";
COMMIT;
