import Foundation
import Testing

// `report --out` writes one set: after a kill at any step of the write, the folder holds exactly
// the earlier set or exactly the new one; the next run removes what the killed one left; two runs
// on one folder never mix. The kills come from the CLI's test hook
// (HEALTH_ANALYZER_TEST_KILL_AT=<step>, see ReportCommand.testStepHook).

/// Every file of a folder, by name, with its bytes (hidden entries included).
private func contents(of dir: URL) throws -> [String: Data] {
    var result: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
        result[name] = try Data(contentsOf: dir.appendingPathComponent(name))
    }
    return result
}

/// A small export whose every day has `steps` steps (so two values give two different sets).
private func smallExport(steps value: Int, in dir: URL, name: String) throws -> URL {
    var xml = xmlHead + exportDateLine
    for day in 1...3 { xml += steps(String(value), "2025-06-0\(day) 10:00:00") }
    xml += "</HealthData>\n"
    let url = dir.appendingPathComponent(name)
    try Data(xml.utf8).write(to: url)
    return url
}

@Suite("report --out writes one atomic set")
struct AtomicOutputTests {
    static let steps = [
        "staged:daily.csv", "staged:sources.csv", "staged:report.md", "all-staged", "swapped", "cleaned",
    ]

    @Test func aKillAtAnyStepLeavesExactlyTheEarlierOrTheNewSet() throws {
        let dir = try temporaryFolder()
        let a = try smallExport(steps: 100, in: dir, name: "a.xml")
        let b = try smallExport(steps: 200, in: dir, name: "b.xml")
        let out = dir.appendingPathComponent("out")
        let env = ["TZ": "UTC"]

        #expect(try run(["report", b.path, "--out", out.path], environment: env).status == 0)
        try Data("mine\n".utf8).write(to: out.appendingPathComponent("notes.txt"))  // carried over
        let setB = try contents(of: out)
        #expect(try run(["report", a.path, "--out", out.path], environment: env).status == 0)
        let setA = try contents(of: out)
        #expect(setA != setB)
        #expect(setA.keys.contains("daily.csv") && setA.keys.contains("report.md"))
        #expect(setA["notes.txt"] == Data("mine\n".utf8))

        var earlier = setA
        var earlierInput = a
        for step in Self.steps {
            let next = earlierInput == a ? b : a
            let expectedNew = next == a ? setA : setB
            var killEnv = env
            killEnv["HEALTH_ANALYZER_TEST_KILL_AT"] = step
            let killed = try run(["report", next.path, "--out", out.path], limit: 120, environment: killEnv)
            #expect(killed.signaled, "\(step): \(killed.stderr)")
            let now = try contents(of: out)
            // Before the swap the earlier set is whole; from the swap on, the new one.
            let swapped = step == "swapped" || step == "cleaned"
            #expect(now == (swapped ? expectedNew : earlier), "killed at \(step)")
            if swapped {
                earlier = expectedNew
                earlierInput = next
            }
            // The next complete run removes the staging folder the killed one left.
            let again = try run(["report", earlierInput.path, "--out", out.path], environment: env)
            #expect(again.status == 0, "\(again.stderr)")
            #expect(try contents(of: out) == earlier)
            #expect(files(in: dir).filter { $0.contains(".tmp-") } == [], "after a kill at \(step)")
        }
        #expect(files(in: dir) == [".out.lock", "a.xml", "b.xml", "out"])
    }

    /// A second run while the first holds the lock fails at once, clearly; the first completes.
    @Test func twoRunsOnOneFolderDoNotMix() throws {
        let dir = try temporaryFolder()
        let a = try smallExport(steps: 100, in: dir, name: "a.xml")
        let b = try smallExport(steps: 200, in: dir, name: "b.xml")
        let out = dir.appendingPathComponent("out")
        let reference = dir.appendingPathComponent("reference")
        #expect(try run(["report", a.path, "--out", reference.path], environment: ["TZ": "UTC"]).status == 0)

        let first = Process()
        first.executableURL = binary
        first.arguments = ["report", a.path, "--out", out.path]
        first.environment = ["TZ": "UTC", "HEALTH_ANALYZER_TEST_PAUSE_AT": "all-staged"]
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        // Wait until the first run has staged its files (it then sleeps 3 s holding the lock).
        let deadline = Date().addingTimeInterval(60)
        while !files(in: dir).contains(where: { $0.hasPrefix(".out.tmp-") }), Date() < deadline { usleep(20_000) }
        let second = try run(["report", b.path, "--out", out.path], environment: ["TZ": "UTC"])
        first.waitUntilExit()
        #expect(second.status == 1)
        #expect(
            second.stderr.contains("another health-analyzer report is writing into it right now"), "\(second.stderr)")
        #expect(first.terminationStatus == 0)
        #expect(try contents(of: out) == (try contents(of: reference)))
    }
}
