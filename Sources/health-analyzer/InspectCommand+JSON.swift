import Foundation
import HealthExport

// `inspect --json`: what `inspect` prints, as one JSON object for scripts. The keys are listed in
// docs/commands.md's inspect section; a key is never left out (null or empty instead), so that a script
// can read every key of every export.

extension InspectTally {
    /// The JSON object: keys sorted, two-space indented, one trailing newline. Dates are printed
    /// as the export prints them (`2025-10-05 08:00:00 +0200`, with the export's offset for the
    /// date range); counts are numbers.
    func json(_ s: ExportSummary) -> String {
        let offset = s.exportDate?.printedOffsetSeconds ?? 0
        func printed(_ t: Timestamp?) -> Any {
            guard let t else { return NSNull() }
            return Timestamp(secondsSince1970: t.secondsSince1970, printedOffsetSeconds: offset).description
        }
        let object: [String: Any] = [
            "input": ["name": s.inputName, "xml_bytes": s.bytesRead],
            "export_date": s.exportDate.map { $0.description as Any } ?? NSNull(),
            "export_version": s.exportVersion.map { $0 as Any } ?? NSNull(),
            "locale": s.locale.map { $0 as Any } ?? NSNull(),
            "date_range": ["first": printed(first), "last": printed(last)],
            "records": topLevelRecords,
            "records_in_correlations": nestedRecords,
            "types": types.sorted { ($1.value.records, $0.key) < ($0.value.records, $1.key) }.map {
                ["type": $0.key, "records": $0.value.records, "units": $0.value.units] as [String: Any]
            },
            "sources": sources.sorted { ($1.value.records, $0.key) < ($0.value.records, $1.key) }.map {
                ["source": $0.key, "records": $0.value.records, "devices": $0.value.devices] as [String: Any]
            },
            "workouts": ["total": workoutCount, "per_activity": workouts],
            "correlations": correlations,
            "activity_summary_days": summaryDays.count,
            "time_zones": [
                "most_frequent": s.mostFrequentTimeZone.map { $0 as Any } ?? NSNull(), "samples": s.timeZoneCounts,
            ],
            "elements_not_modelled": s.unmodeledElementCounts,
            "diagnostics": s.diagnostics.map {
                [
                    "kind": $0.kind.rawValue, "detail": $0.detail, "count": $0.count,
                    "first_line": $0.firstLine == 0 ? NSNull() : $0.firstLine as Any,
                ] as [String: Any]
            },
            "removed_control_characters": s.removedControlCharacters,
        ]
        // Every value above is a string, number, null, array or dictionary: serialisation cannot fail.
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
