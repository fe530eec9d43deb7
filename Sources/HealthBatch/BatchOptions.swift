import HealthAnalysis
import HealthExport

/// How a batch runs: the per-person options of `report`, parallelism, histories, sharding.
public struct BatchOptions: Sendable {
    /// The analysis options every person's report is made with (`--tz`, `--source-order`,
    /// `--from/--to`, `--week`, `--week-start`, `--no-dedup`).
    public var analysis: AnalysisOptions
    /// The machine's `TZ` (the third choice for a person's zone, as for `report`).
    public var environmentTimeZone: String?
    /// `--archives <folder>`: import each export into `<folder>/<id>.sqlite` and report from it.
    public var archives: String?
    /// People processed at once (`--jobs`).
    public var jobs: Int
    /// Parser threads of each person's read (`threadsPerJob(jobs:cores:)`).
    public var threadsPerJob: Int
    /// `--force`: redo every person, unchanged or not.
    public var force: Bool
    /// `--shard K/N`: only the people of that shard.
    public var shard: Shard?
    /// `--prune`: remove the people no listing names (`Batch`, docs/batch.md §5).
    public var prune: Bool = false
    /// The tool and its version as `report.json` names it (`health-analyzer 0.1.0`); part of
    /// what makes a person unchanged.
    public var toolVersion: String

    public init(
        analysis: AnalysisOptions = AnalysisOptions(), environmentTimeZone: String? = nil, archives: String? = nil,
        jobs: Int = ExportReader.availableCores, threadsPerJob: Int? = nil, force: Bool = false, shard: Shard? = nil,
        toolVersion: String = "health-analyzer 0.1.0"
    ) {
        self.analysis = analysis
        self.environmentTimeZone = environmentTimeZone
        self.archives = archives
        self.jobs = max(1, jobs)
        self.threadsPerJob = threadsPerJob ?? Self.threadsPerJob(jobs: jobs, cores: ExportReader.availableCores)
        self.force = force
        self.shard = shard
        self.toolVersion = toolVersion
    }

    /// Parser threads per person so that `jobs` × threads does not exceed `cores`: the cores
    /// divided by the jobs, rounded down, at least 1.
    public static func threadsPerJob(jobs: Int, cores: Int) -> Int {
        max(1, cores / max(1, jobs))
    }

    /// The options that change a person's report, as one line for the status records: the
    /// analysis options, the environment's zone (when no `--tz` is given) and whether the report
    /// comes from an archive. Parallelism and sharding are not in it: they never change a byte.
    public var fingerprint: String {
        let a = analysis
        var parts = [
            "tz=" + (a.timeZoneIdentifier ?? ""),
            "source-order=" + (a.sourceOrder ?? []).joined(separator: "\u{1F}"),
            "dedup=\(a.deduplicate)",
            "exact-duplicates=\(a.removeExactDuplicates)",
            "week-start=" + a.weekStart.rawValue,
            "from=" + (a.from?.description ?? ""),
            "to=" + (a.to?.description ?? ""),
            "week=" + (a.lastCompleteWeekOnly ? "last" : ""),
            "archive=\(archives != nil)",
        ]
        if a.timeZoneIdentifier == nil { parts.append("TZ=" + (environmentTimeZone ?? "")) }
        return parts.joined(separator: ";")
    }
}
