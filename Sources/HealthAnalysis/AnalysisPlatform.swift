import Foundation

/// HealthAnalysis's calls outside the process, in one file (docs/architecture.md): the analysis
/// is pure but for the system's tz database, which it reads here (`ZoneDatabase`).
enum AnalysisPlatform {
    /// The text of a small UTF-8 file, or nil when it cannot be read.
    static func readTextFile(_ path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }
}
