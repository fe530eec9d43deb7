import Foundation
import HealthReports
import HealthTables
import TestSupport
import Testing

@testable import HealthBatch

@Suite("Batch input, ids and shards")
struct BatchInputTests {
    func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func idsFollowTheRule() {
        for good in ["a", "A-1", "p_2.x", "0", String(repeating: "z", count: 64), "a.", "x..y"] {
            #expect(PersonID.isValid(good), "\(good)")
        }
        for bad in ["", ".a", "a b", "a/b", "é", String(repeating: "z", count: 65), "a,b", "a=b"] {
            #expect(!PersonID.isValid(bad), "\(bad)")
        }
    }

    @Test func aManifestsPathsAreRelativeToItsFolder() throws {
        let dir = try TestScratch.folder("batch-input")
        let path = try write(
            "export,person,note\nin/a.zip,alice,x\n/abs/b.xml,bob,\n\n\"in/with, comma.xml\",carol,\n", "m.csv", in: dir
        )
        let people = try BatchInput.manifest(path)
        #expect(
            people == [
                BatchPerson(id: "alice", export: dir.path + "/in/a.zip"),
                BatchPerson(id: "bob", export: "/abs/b.xml"),
                BatchPerson(id: "carol", export: dir.path + "/in/with, comma.xml"),
            ])
    }

    @Test func aManifestWithAShortLineOrAnEmptyExportIsRefused() throws {
        let dir = try TestScratch.folder("batch-input")
        let short = try write("person,export\na\n", "short.csv", in: dir)
        #expect(throws: BatchInputError.badLine(path: short, line: 2, reason: "1 field, expected 2")) {
            try BatchInput.manifest(short)
        }
        let empty = try write("person,export\na,a.xml\nb,\n", "empty.csv", in: dir)
        #expect(throws: BatchInputError.badLine(path: empty, line: 3, reason: "the export is empty")) {
            try BatchInput.manifest(empty)
        }
    }

    @Test func aFoldersEntriesAreItsPeople() throws {
        let dir = try TestScratch.folder("batch-folder")
        for name in ["b.zip", "a.xml", "notes.txt", ".hidden.zip"] { _ = try write("x", name, in: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("c"), withIntermediateDirectories: true)
        let people = try BatchInput.people(dir.path)
        #expect(people.map(\.id) == ["a", "b", "c"])
        #expect(people.map(\.export) == ["a.xml", "b.zip", "c"].map { dir.path + "/" + $0 })
        _ = try write("x", "a.zip", in: dir)
        #expect(
            throws: BatchInputError.badEntry(
                path: dir.path, entry: "a.zip", reason: "the person id 'a' is also 'a.xml'")
        ) {
            try BatchInput.people(dir.path)
        }
    }

    /// FNV-1a 64 of "a": (14695981039346656037 XOR 0x61) × 1099511628211 mod 2^64
    /// = 0xcbf29ce484222325 XOR 0x61 = 0xcbf29ce484222344; × 0x100000001b3 mod 2^64 =
    /// 0xaf63dc4c8601ec8c (the published test vector for "a").
    @Test func theShardHashIsFNV1a64() {
        #expect(Shard.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.hash("foobar") == 0x8594_4171_f739_67e8)
        // 0xaf63dc4c8601ec8c mod 3: 12638187200555641996 = 3 × 4212729066851880665 + 1.
        #expect(Shard("1/3")!.contains("a") && !Shard("0/3")!.contains("a"))
    }

    @Test func shardsSplitAnyListExactlyOnce() {
        let ids = (0..<500).map { "person-\($0)" }
        for n in [1, 2, 7, 16] {
            var count: [String: Int] = [:]
            for k in 0..<n {
                for id in ids where Shard(index: k, count: n)!.contains(id) { count[id, default: 0] += 1 }
            }
            #expect(count.count == ids.count && count.values.allSatisfy { $0 == 1 }, "N = \(n)")
        }
        #expect(Shard("0/0") == nil && Shard("2/2") == nil && Shard("-1/2") == nil && Shard("1/") == nil)
        #expect(Shard(" 1/2") == nil && Shard("1/2/3") == nil && Shard("1/2")?.description == "1/2")
    }

    @Test func threadsPerJobKeepJobsTimesThreadsWithinTheCores() {
        #expect(BatchOptions.threadsPerJob(jobs: 2, cores: 8) == 4)
        #expect(BatchOptions.threadsPerJob(jobs: 3, cores: 8) == 2)
        #expect(BatchOptions.threadsPerJob(jobs: 8, cores: 2) == 1)
    }
}

@Suite("Cohort tables")
struct CohortTableTests {
    @Test func cohortTablesArePersonAndThePersonTablesNonIdentifyingColumns() {
        for schema in CohortTables.schemas {
            let person = ReportTableID.schemas.first { $0.name == schema.name }!
            #expect(schema.columns.first == ColumnSchema(name: "person", kind: .text))
            #expect(Array(schema.columns.dropFirst()) == person.columns.filter { !$0.identifying })
            #expect(!schema.columns.contains { $0.identifying })
        }
        #expect(CohortTables.schemas.map(\.name) == ["daily", "weekly", "monthly", "sleep", "workouts"])
        // sleep and workouts lose exactly their source column.
        #expect(!CohortTables.schemas[3].header.contains("source"))
        #expect(!CohortTables.schemas[4].header.contains("source"))
        #expect(CohortSQL.schema().contains("CREATE TABLE people (\n    \"person\" VARCHAR,"))
    }

    /// Values 1, 2, 4, 10: positions p × 3. Q1 at 0.75: 1 + 0.75 × (2 − 1) = 1.75; the median
    /// at 1.5: 2 + 0.5 × (4 − 2) = 3; Q3 at 2.25: 4 + 0.25 × (10 − 4) = 5.5.
    @Test func quartilesInterpolateBetweenTheClosestRanks() {
        let s = Spread([10, 1, 4, 2])!
        #expect(s.minimum == 1 && s.lowerQuartile == 1.75 && s.median == 3 && s.upperQuartile == 5.5 && s.maximum == 10)
        #expect(Spread([]) == nil)
        #expect(Spread([7])?.median == 7)
    }

    /// Two days with `rings_closed` (3 and 1) and one without: all rings on 1 of 2 days; Move
    /// 600 ≥ 500 and 300 < 500: 1 of 2; steps (1000 + 3000 + 2000) / 3 = 2000; sleep: the
    /// nights only, (420 + 480) / 2 min = 7.5 h.
    @Test func aPersonsMeasuresComeFromTheirCSV() throws {
        let days = try ReportTables.daily.values(
            fromCSV:
                """
                date,steps,move_kcal,move_goal_kcal,exercise_min,exercise_goal_min,stand_hours,stand_goal_hours,rings_closed,resting_heart_rate_bpm
                2025-01-01,1000,600,500,30,30,12,12,3,60
                2025-01-02,3000,300,500,10,30,12,12,1,
                2025-01-03,2000,,,,,,,,64
                """ + "\n")
        let nights = try ReportTables.sleep.values(
            fromCSV: "night,kind,asleep_min\n2025-01-01,night,420\n2025-01-01,nap,30\n2025-01-02,night,480\n")
        let m = PersonMeasures(days: days, nights: nights)
        #expect(m.stepsPerDay == 2000 && m.allRingsClosed == 0.5 && m.moveClosed == 0.5)
        #expect(m.exerciseClosed == 0.5 && m.standClosed == 1)
        #expect(m.sleepHoursPerNight == 7.5 && m.restingHeartRateBpm == 62)
    }
}
