import Foundation

/// The record a batch keeps of each person's last run, `<out>/.status/<id>.json`: what was
/// read (the export's fingerprint, the options and the tool version), how it went, and what
/// the report now in `person=<id>/` was made from (for `people.csv`).
///
/// One file per person, so shards that share `<out>` never write the same file; written
/// atomically (a temporary file renamed over it) and only after the person's folder was
/// swapped, so after a kill at any instant a record never claims a report that is not there.
public struct PersonStatus: Codable, Equatable, Sendable {
    /// `done` or `failed`.
    public enum Outcome: String, Codable, Sendable {
        case done, failed
    }

    /// What the report in the person's folder was made from.
    public struct Report: Codable, Equatable, Sendable {
        /// The export path (absolute) the report was made from.
        public var export: String
        /// The export's `ExportDate`, as printed in it (`2025-12-15 12:00:00 +0100`).
        public var exportDate: String?
        /// First and last local day of `daily.csv` (`yyyy-MM-dd`).
        public var firstDay: String?
        public var lastDay: String?
        /// Rows of `daily.csv` with any measured value.
        public var daysWithData: Int
        /// `Record` elements read (the archive's records with `--archives`).
        public var records: Int
        /// Wall time of the person's run (read, analyse, write), seconds.
        public var seconds: Double
    }

    public var id: String
    /// The export as listed (a manifest's path resolved against its folder).
    public var export: String?
    public var outcome: Outcome
    /// The reason of a failure (one line); empty when done.
    public var message: String
    /// The export's fingerprint at this run (nil when it could not be read).
    public var fingerprint: ExportFingerprint?
    /// `BatchOptions.fingerprint`: the per-person options, the zone from the environment and
    /// whether the report came from an archive.
    public var options: String
    /// The tool that ran (`health-analyzer 0.1.0`).
    public var toolVersion: String
    /// The report in the person's folder: this run's when done, the earlier one's (or nil)
    /// when failed.
    public var report: Report?

    /// The status folder of `output`.
    public static func folder(in output: String) -> String { BatchPlatform.join(output, ".status") }

    /// The record's path for `id`.
    public static func path(of id: String, in output: String) -> String {
        BatchPlatform.join(folder(in: output), id + ".json")
    }

    /// The record of `id`, or nil when there is none or it cannot be read (a link there is
    /// not followed: docs/batch.md §6).
    public static func read(_ id: String, in output: String) -> PersonStatus? {
        guard let text = try? BatchPlatform.readOwnedText([".status", id + ".json"], in: output) else { return nil }
        return try? JSONDecoder().decode(PersonStatus.self, from: Data(text.utf8))
    }

    /// Every readable record in `output`, by id (UTF-8 byte order).
    public static func all(in output: String) -> [PersonStatus] {
        let names = (try? BatchPlatform.ownedNames([".status"], in: output)) ?? []
        let ids = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map {
            String($0.dropLast(5))
        }
        return ids.filter(PersonID.isValid).sorted(by: utf8Order).compactMap { read($0, in: output) }
    }

    /// Writes the record atomically (temporary file, flush, rename).
    func write(in output: String) throws(BatchPlatform.Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data()
        try BatchPlatform.writeOwnedAtomically(
            String(decoding: data, as: UTF8.self) + "\n", [".status", id + ".json"], in: output)
    }

    /// True when a run with `fingerprint`, `options` and `toolVersion` would redo what this
    /// record says is done.
    func isUnchanged(_ fingerprint: ExportFingerprint, options: String, toolVersion: String) -> Bool {
        outcome == .done && self.fingerprint == fingerprint && self.options == options
            && self.toolVersion == toolVersion && report != nil
    }
}

/// Byte order of the UTF-8 text: the order of person ids everywhere (folders, tables).
func utf8Order(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
