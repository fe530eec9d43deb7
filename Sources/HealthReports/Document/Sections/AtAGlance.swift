import HealthAnalysis
import HealthExport

// The report: per-day means over the reported days.

extension ReportSections {
    mutating func atAGlance() {
        guard heading("At a glance", emptyWhen: result.days.isEmpty, "No days with data.") else { return }
        // Decimals of the mean and of the lowest and highest day.
        let metrics: [(name: String, mean: Int, extremes: Int, value: (DailyMetrics) -> Double?)] = [
            ("Steps", 0, 0, { $0.steps }),
            ("Distance (km)", 2, 2, { $0.distanceKm }),
            ("Flights climbed", 0, 0, { $0.flightsClimbed }),
            ("Active energy (kcal)", 0, 0, { $0.activeEnergyKcal }),
            ("Move, Apple Watch (kcal)", 0, 0, { $0.moveKcal }),
            ("Exercise (min)", 0, 0, { $0.exerciseMinutes }),
            ("Stand hours", 1, 0, { $0.standHours.map(Double.init) }),
            ("Resting heart rate (bpm)", 1, 1, { $0.restingHeartRateBpm }),
            ("Heart rate, time-weighted mean (bpm)", 1, 1, { $0.heartRateAvgBpm }),
            // The body and vital measures, listed only when the export has them.
            ("HRV, SDNN (ms)", 1, 1, { $0.hrvSdnnMs }),
            ("Body mass (kg)", 2, 2, { $0.bodyMassKg }),
            ("Blood pressure, systolic (mmHg)", 0, 0, { $0.bloodPressureSystolicMmHg }),
            ("Blood pressure, diastolic (mmHg)", 0, 0, { $0.bloodPressureDiastolicMmHg }),
            ("VO2 max (mL/min·kg)", 1, 1, { $0.vo2MaxMlPerMinKg }),
            ("Blood oxygen (%)", 1, 1, { $0.oxygenSaturationPercent }),
            ("Respiratory rate (breaths/min)", 1, 1, { $0.respiratoryRateBreathsPerMin }),
            ("Wrist temperature (°C)", 2, 2, { $0.wristTemperatureC }),
        ]
        // A measure without any day of data gets no row of zeros: it is named below the table.
        var rows: [[String]] = []
        var missing: [String] = []
        for (k, metric) in metrics.enumerated() {
            let values = result.days.compactMap(metric.value).filter(\.isFinite)
            if values.isEmpty {
                // The activity measures (the first eight) are named when missing; the body and
                // vital measures are simply not listed.
                if k < 8 { missing.append(metric.name) }
            } else {
                let mean = values.reduce(0, +) / Double(values.count)
                rows.append([
                    metric.name, grouped(values.count), number(mean, metric.mean),
                    number(values.min()!, metric.extremes), number(values.max()!, metric.extremes),
                ])
            }
        }
        // The ActivitySummary's own ring values, on the days without ring records whose rings
        // the "Activity rings" section counts from them (RingsClosed), so that the two sections
        // agree on which days have ring data and say which source each row is.
        let summaryDays = result.days.filter(RingsClosed.usesSummaryValues)
        let summaryMetrics: [(name: String, ring: String, mean: Int, value: (DailyMetrics) -> Double?)] = [
            ("Move, ActivitySummary (kcal)", "Move, Apple Watch (kcal)", 0, { $0.summaryMoveKcal }),
            ("Move, ActivitySummary (min)", "Move, Apple Watch (kcal)", 0, { $0.summaryMoveMinutes }),
            ("Exercise, ActivitySummary (min)", "Exercise (min)", 0, { $0.summaryExerciseMinutes }),
            ("Stand hours, ActivitySummary", "Stand hours", 1, { $0.summaryStandHours }),
        ]
        var summaryRows = 0
        for metric in summaryMetrics {
            let values = summaryDays.compactMap(metric.value).filter(\.isFinite)
            guard !values.isEmpty else { continue }
            let mean = values.reduce(0, +) / Double(values.count)
            rows.append([
                metric.name, grouped(values.count), number(mean, metric.mean),
                number(values.min()!, metric.mean), number(values.max()!, metric.mean),
            ])
            summaryRows += 1
            missing.removeAll { $0 == metric.ring }
        }
        if rows.isEmpty {
            paragraph("No measure has a day with data in this period.")
            return
        }
        add(
            .table(
                DocumentTable(
                    ["Metric", "Days with data", "Mean per day", "Lowest day", "Highest day"],
                    [.left, .right, .right, .right, .right], text: rows)))
        var note: [Inline] = [
            .text("Means are over the days with data for each metric; days without data are not zeros.")
        ]
        if summaryRows > 0 {
            note += [
                .lineBreak,
                .text(
                    "Rows marked ActivitySummary are the summary's own values on the "
                        + "\(counted(summaryDays.count, "day")) without ring records (move energy, exercise minutes, "
                        + "stand hours); the Activity rings section counts those days' rings from them."),
            ]
        }
        if !missing.isEmpty {
            note += [.lineBreak, .text("No day has data for: " + missing.joined(separator: ", ") + ".")]
        }
        add(.paragraph(note))
    }
}
