import Foundation
import HealthExport
import TestSupport
import Testing

/// Everything one read delivered, gathered for assertions.
struct ReadResult {
    var records: [Record] = []
    var correlations: [Correlation] = []
    var workouts: [Workout] = []
    var activitySummaries: [ActivitySummary] = []
    var clinicalRecords: [ClinicalRecord] = []
    var audiograms: [Audiogram] = []
    var batches = 0
    var summary: ExportSummary!

    var topLevelRecords: [Record] { records.filter { !$0.isNestedInCorrelation } }

    /// A line per element with every decoded field, to compare reads with each other.
    var dump: [String] {
        records.map {
            "\($0.type)|\($0.value)|\($0.sourceName)|\($0.sourceVersion ?? "")|\($0.device?.description ?? "")|\($0.creationDate.map { "\($0)" } ?? "")|\($0.startDate)|\($0.endDate)|\($0.metadata)|\($0.heartbeats)|\($0.isNestedInCorrelation)|\($0.line)"
        }
            + correlations.map { "\($0.type)|\($0.records.count)|\($0.metadata)" }
            + workouts.map {
                "\($0.activityType)|\(String(describing: $0.durationMinutes))|\(String(describing: $0.totalEnergyBurnedKcal))|\(String(describing: $0.totalDistanceKm))|\($0.events.map(\.type))|\($0.statistics.map(\.type))|\($0.activities.count)|\($0.routes.map(\.filePaths))|\($0.metadata)"
            }
            + activitySummaries.map { "\($0)" } + clinicalRecords.map { "\($0)" }
            + audiograms.map { "\($0.sensitivityPoints)" }
    }
}

/// Reads `input` with the given chunk and batch sizes.
func readAll(_ input: ExportInput, chunkSize: Int = 512 * 1024, batchSize: Int = 4096) throws -> ReadResult {
    var r = ReadResult()
    let reader = ExportReader(options: ReaderOptions(batchSize: batchSize, chunkSize: chunkSize))
    r.summary = try reader.read(input) { b in
        r.batches += 1
        r.records += b.records
        r.correlations += b.correlations
        r.workouts += b.workouts
        r.activitySummaries += b.activitySummaries
        r.clinicalRecords += b.clinicalRecords
        r.audiograms += b.audiograms
    }
    return r
}

/// Writes `bytes` to a fresh temporary file and returns its path.
func temporaryFile(_ bytes: [UInt8], name: String = "export.xml") throws -> String {
    let dir = try TestScratch.folder("ha-tests")
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
}

func temporaryFile(_ text: String, name: String = "export.xml") throws -> String {
    try temporaryFile(Array(text.utf8), name: name)
}

/// The package's root folder (tests run from anywhere).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func fixture(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/HealthExportTests/Fixtures/\(name)").path
}

/// `../shared/corpus` beside the clone: present in CI, absent on a user's clone.
let corpusRoot = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
let corpusAvailable = FileManager.default.fileExists(atPath: corpusRoot.path)
func corpus(_ path: String) -> String { corpusRoot.appendingPathComponent(path).path }

/// A minimal export around `body`.
func export(_ body: String, prolog: String = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n") -> String {
    prolog + "<HealthData locale=\"en_US\">\n <ExportDate value=\"2025-01-20 22:00:00 +0100\"/>\n" + body
        + "</HealthData>\n"
}

func ts(_ s: String) -> Timestamp {
    var bytes = Array(s.utf8)
    return bytes.withUnsafeMutableBufferPointer { decodeTimestamp(UnsafeBufferPointer($0))! }
}
