import Foundation
import HealthReports
import HealthTables
import SyntheticExport
import Testing

/// `batch` and `cohort` as a study runs them: the built binary, real files, killed runs,
/// shards sharing one folder.
@Suite("Batch and cohort commands")
struct BatchCLITests {
    /// Owner names of the generated exports: their devices are "<name>’s Apple Watch", so a
    /// cohort file that carries a source name shows one of them.
    static let owners = ["Zephyrine", "Quillon", "Maravel"]

    /// Three people (two XML files, one unzipped folder) of 3 to 5 days, each with the extended
    /// data (sleep, workouts, routes), a damaged export and a missing one, listed in a manifest
    /// with paths relative to it.
    struct Study {
        var root: URL
        var manifest: URL
        var out: URL
        var exports: [String: URL]

        init(damaged: Bool = true) throws {
            root = try temporaryFolder()
            let inputs = root.appendingPathComponent("inputs")
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            exports = [:]
            var lines = ["person,export"]
            for (k, owner) in BatchCLITests.owners.enumerated() {
                let config = SyntheticExportConfiguration(
                    firstDay: "2025-06-0\(2 + k)", days: 3 + k, seed: UInt64(20 + k), ownerName: owner,
                    extendedHealthData: true)
                let bytes = Data(SyntheticExport.makeExport(config).bytes)
                let id = "p-\(k)"
                var url = inputs.appendingPathComponent("\(id).xml")
                if k == 2 {
                    // An unzipped export folder.
                    url = inputs.appendingPathComponent(id)
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                    try bytes.write(to: url.appendingPathComponent("export.xml"))
                } else {
                    try bytes.write(to: url)
                }
                exports[id] = url
                lines.append("\(id),inputs/\(url.lastPathComponent)")
                if k == 0 && damaged {
                    let cut = inputs.appendingPathComponent("damaged.xml")
                    try bytes.prefix(bytes.count / 2).write(to: cut)
                    exports["damaged"] = cut
                    lines.append("damaged,inputs/damaged.xml")
                }
            }
            if damaged { lines.append("gone,inputs/nowhere.zip") }
            manifest = root.appendingPathComponent("study.csv")
            try (lines.joined(separator: "\n") + "\n").write(to: manifest, atomically: true, encoding: .utf8)
            out = root.appendingPathComponent("out")
        }

        func person(_ id: String) -> URL { out.appendingPathComponent("person=\(id)") }
    }

    /// Every file of `dir` (recursively) with its bytes, by relative path.
    static func tree(_ dir: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: dir.path)
        while let name = walker?.nextObject() as? String {
            let url = dir.appendingPathComponent(name)
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir), !isDir.boolValue {
                result[name] = try? Data(contentsOf: url)
            }
        }
        return result
    }

    static func status(_ study: Study, _ id: String) throws -> [String: Any] {
        let data = try Data(contentsOf: study.out.appendingPathComponent(".status/\(id).json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    @Test func eachPersonFolderIsByteForByteWhatReportWrites() throws {
        let study = try Study()
        defer { try? FileManager.default.removeItem(at: study.root) }
        let r = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "2", "--tz", "Europe/Berlin"])
        #expect(r.status == 2)  // the damaged and the missing export: done, but some failed
        #expect(r.stdout.split(separator: "\n").last == "3 done, 0 unchanged, 2 failed")
        for id in ["p-0", "p-1", "p-2"] {
            let reference = study.root.appendingPathComponent("ref-\(id)")
            let single = try run(["report", study.exports[id]!.path, "--out", reference.path, "--tz", "Europe/Berlin"])
            #expect(single.status == 0)
            let expected = Self.tree(reference)
            #expect(expected.count >= 10)
            #expect(Self.tree(study.person(id)) == expected, "person=\(id) differs from report's folder")
        }
        // Faults stay with their person: named on standard error, recorded, no folder.
        #expect(r.stderr.contains("failed damaged: "))
        #expect(r.stderr.contains("failed gone: "))
        #expect(r.stderr.contains("inputs/nowhere.zip: no such file or folder"))
        #expect(!FileManager.default.fileExists(atPath: study.person("damaged").path))
        let damaged = try Self.status(study, "damaged")
        #expect(damaged["outcome"] as? String == "failed")
        #expect((damaged["message"] as? String)?.contains("damaged.xml") == true)
        // people.csv: a row per person, by id.
        let people = try String(contentsOf: study.out.appendingPathComponent("cohort/people.csv"), encoding: .utf8)
        let rows = people.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first?.first == "person")
        #expect(rows.dropFirst().map { String($0[0]) } == ["damaged", "gone", "p-0", "p-1", "p-2"])
        #expect(rows.dropFirst().map { String($0[1]) } == ["failed", "failed", "done", "done", "done"])
        // p-1 has 4 days of data from 2025-06-03: first day, last day, days with data.
        let p1 = rows.first { $0.first == "p-1" }!
        #expect(p1[5] == "2025-06-03" && p1[6] == "2025-06-06" && p1[7] == "4")
    }

    @Test func aRerunSkipsTheUnchangedRedoesTheChangedAndForceRedoesAll() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        let first = try run(["batch", study.manifest.path, "--out", study.out.path, "--jobs", "2"])
        #expect(first.status == 0)
        #expect(first.stdout.split(separator: "\n").last == "3 done, 0 unchanged, 0 failed")
        let before = Self.tree(study.out.appendingPathComponent("person=p-0"))
        let inode = { (id: String) in
            (try? FileManager.default.attributesOfItem(atPath: study.person(id).path)[.systemFileNumber] as? Int) ?? -1
        }
        let inodes = ["p-0", "p-1", "p-2"].map(inode)

        let second = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(second.status == 0)
        #expect(second.stdout.split(separator: "\n").last == "0 done, 3 unchanged, 0 failed")
        #expect(["p-0", "p-1", "p-2"].map(inode) == inodes, "an unchanged person's folder was replaced")

        // A new export for p-1 (one more day): only p-1 is redone.
        let config = SyntheticExportConfiguration(
            firstDay: "2025-06-03", days: 5, seed: 21, ownerName: "Quillon", extendedHealthData: true)
        try Data(SyntheticExport.makeExport(config).bytes).write(to: study.exports["p-1"]!)
        let third = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(third.stdout.contains("done p-1"))
        #expect(third.stdout.split(separator: "\n").last == "1 done, 2 unchanged, 0 failed")
        #expect(inode("p-1") != inodes[1] && inode("p-0") == inodes[0])

        // Other options: everyone again.
        let sunday = try run(["batch", study.manifest.path, "--out", study.out.path, "--week-start", "sunday"])
        #expect(sunday.stdout.split(separator: "\n").last == "3 done, 0 unchanged, 0 failed")
        let force = try run([
            "batch", study.manifest.path, "--out", study.out.path, "--week-start", "sunday", "--force",
        ])
        #expect(force.stdout.split(separator: "\n").last == "3 done, 0 unchanged, 0 failed")
        let back = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(back.status == 0)
        #expect(Self.tree(study.person("p-0")) == before)

        // --quiet: nothing when all went well.
        let quiet = try run(["batch", study.manifest.path, "--out", study.out.path, "--quiet"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    @Test func aFailedRerunKeepsTheEarlierReportAndIsRetried() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        #expect(try run(["batch", study.manifest.path, "--out", study.out.path]).status == 0)
        let before = Self.tree(study.person("p-0"))
        let good = try Data(contentsOf: study.exports["p-0"]!)
        try good.prefix(good.count / 3).write(to: study.exports["p-0"]!)
        let broken = try run(["batch", study.manifest.path, "--out", study.out.path, "--quiet"])
        #expect(broken.status == 2)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.hasPrefix("failed p-0: "))
        #expect(broken.stderr.split(separator: "\n").count == 1)
        #expect(Self.tree(study.person("p-0")) == before)
        let status = try Self.status(study, "p-0")
        #expect(status["outcome"] as? String == "failed")
        // The earlier report is still described (it is what the folder holds).
        #expect((status["report"] as? [String: Any])?["firstDay"] as? String == "2025-06-02")
        try good.write(to: study.exports["p-0"]!)
        let fixed = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(fixed.stdout.split(separator: "\n").last == "1 done, 2 unchanged, 0 failed")
    }

    @Test func aBatchKilledAfterAFolderSwapIsFinishedByTheNextRun() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        // Killed with p-1's new folder in place and its status record not yet written.
        let killed = try run(
            ["batch", study.manifest.path, "--out", study.out.path, "--jobs", "1"],
            environment: ProcessInfo.processInfo.environment.merging(
                ["HEALTH_ANALYZER_TEST_KILL_AT": "p-1:swapped"], uniquingKeysWith: { $1 }))
        #expect(killed.status != 0)
        // The folder is the complete new set; the status record comes only after the swap.
        #expect(Self.tree(study.person("p-1")).keys.contains("report.json"))
        #expect(!FileManager.default.fileExists(atPath: study.out.appendingPathComponent(".status/p-1.json").path))
        // Jobs run the largest export first (p-2, p-1, p-0): p-0 was not reached.
        #expect(!FileManager.default.fileExists(atPath: study.person("p-0").path))
        let resumed = try run(["batch", study.manifest.path, "--out", study.out.path])
        #expect(resumed.status == 0)
        #expect(resumed.stdout.split(separator: "\n").last == "2 done, 1 unchanged, 0 failed")
        #expect(resumed.stdout.contains("done p-1") && resumed.stdout.contains("unchanged p-2"))
        // No staging folder or temporary status file is left.
        let leftovers =
            files(in: study.out).filter { $0.contains(".tmp-") }
            + files(in: study.out.appendingPathComponent(".status")).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty)
    }

    @Test func shardsCoverEveryPersonOnceAndTheirCohortIsTheWholeBatchs() throws {
        let study = try Study()
        defer { try? FileManager.default.removeItem(at: study.root) }
        let whole = study.root.appendingPathComponent("whole")
        _ = try run(["batch", study.manifest.path, "--out", whole.path, "--jobs", "2"])
        var seen: [String] = []
        for k in 0..<3 {
            let r = try run(["batch", study.manifest.path, "--out", study.out.path, "--shard", "\(k)/3", "--jobs", "1"])
            seen += r.stdout.split(separator: "\n").compactMap { line in
                line.hasPrefix("done ") ? String(line.split(separator: " ")[1]) : nil
            }
            seen += r.stderr.split(separator: "\n").compactMap { line in
                line.hasPrefix("failed ") ? String(line.split(separator: " ")[1].dropLast()) : nil
            }
            #expect(!FileManager.default.fileExists(atPath: study.out.appendingPathComponent("cohort").path))
        }
        #expect(seen.sorted() == ["damaged", "gone", "p-0", "p-1", "p-2"])
        let cohort = try run(["cohort", study.out.path])
        #expect(cohort.status == 0)
        let sharded = Self.tree(study.out.appendingPathComponent("cohort"))
        let single = Self.tree(whole.appendingPathComponent("cohort"))
        // Equal, people.csv too (it has no wall time; docs/batch.md §4).
        #expect(sharded.count == single.count && sharded.keys.contains("people.csv"))
        for (name, data) in single {
            #expect(sharded[name] == data, "cohort/\(name) differs between the shards and the whole batch")
        }
        #expect(
            CSV.parse(String(decoding: sharded["people.csv"] ?? Data(), as: UTF8.self)).filter { $0 != [""] }.count == 6
        )
    }

    @Test func theCohortIsDeterministicAndNamesNoSourceNorAnythingFromMe() throws {
        let study = try Study()
        defer { try? FileManager.default.removeItem(at: study.root) }
        _ = try run(["batch", study.manifest.path, "--out", study.out.path])
        let cohort = study.out.appendingPathComponent("cohort")
        let first = Self.tree(cohort)
        #expect(Set(first.keys).isSuperset(of: ["daily.csv", "people.csv", "report.md", "schema.sql"]))
        #expect(try run(["cohort", study.out.path]).status == 0)
        #expect(Self.tree(cohort) == first)
        // Each person's folder is a whole report, report.html included.
        #expect(FileManager.default.fileExists(atPath: study.person("p-0").appendingPathComponent("report.html").path))
        // The person tables do name the devices; the cohort must not.
        let personSleep = try String(
            contentsOf: study.person("p-0").appendingPathComponent("sleep.csv"), encoding: .utf8)
        #expect(personSleep.contains("Zephyrine\u{2019}s Apple Watch"))
        for (name, data) in first {
            let text = String(decoding: data, as: UTF8.self)
            for needle in Self.owners + ["Apple Watch", "iPhone", "1990-04-12", "HKBiologicalSex", "HKBloodType"] {
                #expect(!text.contains(needle), "cohort/\(name) contains '\(needle)'")
            }
            if name != "people.csv" {
                #expect(!text.contains(study.root.path) && !text.contains("inputs/"), "cohort/\(name) names an export")
            }
        }
        // Long form: person first, rows by person then date.
        let daily = String(decoding: first["daily.csv"]!, as: UTF8.self).split(separator: "\n")
        #expect(daily.first?.hasPrefix("person,date,steps,") == true)
        let keys = daily.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        #expect(keys == keys.sorted())
        #expect(keys.count == 3 + 4 + 5)
    }

    @Test func archivesKeepEachPersonsHistoryAndReportFromIt() throws {
        let study = try Study(damaged: false)
        defer { try? FileManager.default.removeItem(at: study.root) }
        let archives = study.root.appendingPathComponent("archives")
        let r = try run(["batch", study.manifest.path, "--out", study.out.path, "--archives", archives.path])
        #expect(r.status == 0)
        #expect(files(in: archives).filter { $0.hasSuffix(".sqlite") } == ["p-0.sqlite", "p-1.sqlite", "p-2.sqlite"])
        // What `report --db` writes from that archive.
        let reference = study.root.appendingPathComponent("ref")
        #expect(
            try run(["report", "--db", archives.appendingPathComponent("p-0.sqlite").path, "--out", reference.path])
                .status == 0)
        #expect(Self.tree(study.person("p-0")) == Self.tree(reference))
        // A later export that dropped the first days: the archive keeps them.
        let later = SyntheticExportConfiguration(
            firstDay: "2025-06-04", days: 2, seed: 20, ownerName: "Zephyrine", extendedHealthData: true)
        try Data(SyntheticExport.makeExport(later).bytes).write(to: study.exports["p-0"]!)
        #expect(
            try run(["batch", study.manifest.path, "--out", study.out.path, "--archives", archives.path]).status == 0)
        let daily = try String(contentsOf: study.person("p-0").appendingPathComponent("daily.csv"), encoding: .utf8)
        #expect(daily.contains("\n2025-06-02,"))
    }

    @Test func badInputIsRefusedBeforeAnyWorkNamingTheLine() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let cases: [(String, String)] = [
            ("", "line 1: empty manifest"),
            ("person,file\na,x.xml\n", "line 1: the header has no 'export' column"),
            ("person,export\nok,a.xml\n.hidden,b.xml\n", "line 3: the person id '.hidden' starts with a dot"),
            ("person,export\na,a.xml\nb,b.xml\na,c.xml\n", "line 4: the person id 'a' is repeated (first on line 2)"),
            ("person,export\nwith space,a.xml\n", "line 2: the person id 'with space' has characters other than"),
            ("person,export\n\(String(repeating: "x", count: 65)),a.xml\n", "line 2: the person id 'xxx"),
        ]
        for (text, message) in cases {
            let manifest = dir.appendingPathComponent("m.csv")
            try text.write(to: manifest, atomically: true, encoding: .utf8)
            let r = try run(["batch", manifest.path, "--out", out.path])
            #expect(r.status == 1)
            #expect(r.stderr.hasPrefix("error: \(manifest.path): \(message)"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "work was done for: \(message)")
        }
        // Usage errors: 64.
        for arguments in [
            ["batch", dir.path], ["batch", dir.path, "--out", out.path, "--shard", "3/3"],
            ["batch", dir.path, "--out", out.path, "--shard", "x"],
            ["batch", dir.path, "--out", out.path, "--jobs", "0"],
            ["batch", dir.path, "--out", out.path, "--threads", "2"], ["cohort"],
        ] {
            #expect(try run(arguments).status == 64, "\(arguments)")
        }
    }
}
