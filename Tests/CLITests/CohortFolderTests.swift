import Foundation
import Testing

/// `cohort` owns its folder (docs/batch.md §7): files left in `cohort/` by hand (a DuckDB
/// database, Parquet files) are gone after the next cohort, a folder there is refused with a
/// message that names it and `cohort/` (not `--out`, which `cohort` does not take), and a
/// cohort whose inputs did not change is left as it is.
@Suite("Cohort owns its folder")
struct CohortFolderTests {
    static func modified(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    @Test func strayFilesGoAFolderIsRefusedAndAnUnchangedCohortIsLeftAsItIs() throws {
        let study = try BatchCLITests.Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        let first = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        let cohort = study.out.appendingPathComponent("cohort")
        let daily = cohort.appendingPathComponent("daily.csv")
        let written = try Data(contentsOf: daily)

        // Nothing changed: left as it is, said so.
        let before = Self.modified(daily)
        let again = try run(["cohort", study.out.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "unchanged \(cohort.path)/: no person's result changed since it was written\n")
        #expect(Self.modified(daily) == before)

        // Files that are not the cohort's: removed by the next cohort (the folder changed).
        for name in ["cohort.duckdb", "daily.parquet"] {
            try Data("stale".utf8).write(to: cohort.appendingPathComponent(name))
        }
        let rewrite = try run(["cohort", study.out.path])
        #expect(rewrite.status == 0, "\(rewrite.stderr)")
        #expect(rewrite.stdout.contains("wrote \(cohort.path)/daily.csv\n"))
        #expect(!FileManager.default.fileExists(atPath: cohort.appendingPathComponent("cohort.duckdb").path))
        #expect(!FileManager.default.fileExists(atPath: cohort.appendingPathComponent("daily.parquet").path))
        #expect(try Data(contentsOf: daily) == written)

        // A person's file rewritten in place (same bytes, a new time): the cohort is rebuilt.
        let personDaily = study.person("p-1").appendingPathComponent("daily.csv")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: personDaily.path)
        let touched = try run(["cohort", study.out.path])
        #expect(touched.stdout.contains("wrote \(cohort.path)/daily.csv\n"), "\(touched.stdout)")

        // A folder in cohort/: refused, naming it; the cohort's files as they were.
        let parquet = cohort.appendingPathComponent("parquet")
        try FileManager.default.createDirectory(at: parquet, withIntermediateDirectories: true)
        let refused = try run(["cohort", study.out.path])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "error: \(parquet.path): a folder inside the cohort folder; cohort owns that folder and rewrites it"
                + " as a whole: move it out (keep DuckDB and Parquet files beside cohort/, docs/batch.md)\n")
        #expect(!refused.stderr.contains("--out"))
        #expect(try Data(contentsOf: daily) == written)
    }
}
