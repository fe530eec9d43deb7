import Foundation
import SyntheticExport
import Testing

/// The Kubernetes recipes of docs/batch.md, taken from the page as they stand: the batch Job
/// script prints YAML whose shard count is written once (`completions`, `parallelism` and the
/// pods' `SHARDS` from one line), its pods' command shards a real batch, the cohort Job asks
/// for the resources the page gives, and the nightly script replaces both Jobs in order.
/// YAML is parsed with PyYAML (Debian's python3-yaml, scripts/setup --test).
@Suite("Kubernetes recipes in docs/batch.md")
struct KubernetesRecipeTests {
    static func page() throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("docs/batch.md"), encoding: .utf8)
    }

    /// The YAML `text` as JSON objects, through PyYAML.
    static func parse(_ text: String, in folder: URL) throws -> [String: Any] {
        let file = folder.appendingPathComponent("job.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let r = try runTool(
            "python3",
            ["-c", "import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))", file.path])
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    static func container(_ job: [String: Any]) -> [String: Any] {
        let spec = job["spec"] as? [String: Any]
        let template = (spec?["template"] as? [String: Any])?["spec"] as? [String: Any]
        return (template?["containers"] as? [[String: Any]])?.first ?? [:]
    }

    @Test func theShardCountIsWrittenOnceAndItsPodsShardARealBatch() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = root.appendingPathComponent("health-batch-job.sh")
        try SlurmTests.block(after: "<!-- kubernetes: health-batch-job.sh -->", in: try Self.page()).write(
            to: script, atomically: true, encoding: .utf8)
        // The one line that holds the count; "16" nowhere else.
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.components(separatedBy: "16").count == 2, "the shard count appears more than once")
        for (environment, n) in [([String: String](), 16), (["SHARDS": "5"], 5)] {
            let printed = try SlurmCluster.execute("/bin/sh", [script.path], environment: environment)
            #expect(printed.status == 0, "\(printed.stderr)")
            let job = try Self.parse(printed.stdout, in: root)
            let spec = try #require(job["spec"] as? [String: Any])
            #expect(spec["completionMode"] as? String == "Indexed")
            #expect(spec["completions"] as? Int == n && spec["parallelism"] as? Int == n)
            let container = Self.container(job)
            let env = container["env"] as? [[String: Any]] ?? []
            #expect(env.first { $0["name"] as? String == "SHARDS" }?["value"] as? String == "\(n)")
        }
        // The pods' command, run here with /data standing for a folder of three exports and a
        // damaged one: shards 0 to 4 of 5 each exit 0 (2 is tolerated) and do every person once.
        let job = try Self.parse(
            try SlurmCluster.execute("/bin/sh", [script.path], environment: ["SHARDS": "5"]).stdout, in: root)
        let container = Self.container(job)
        #expect(container["command"] as? [String] == ["/bin/sh", "-c"])
        let command = try #require((container["args"] as? [String])?.first)
        #expect(command.contains("--shard \"$JOB_COMPLETION_INDEX/$SHARDS\""))
        let data = root.appendingPathComponent("data")
        let exports = data.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let ids = ["k1", "k2", "k3"]
        for (i, id) in ids.enumerated() {
            let config = SyntheticExportConfiguration(firstDay: "2025-06-02", days: 2, seed: UInt64(70 + i))
            try Data(SyntheticExport.makeExport(config).bytes).write(to: exports.appendingPathComponent("\(id).xml"))
        }
        try Data("<HealthData>".utf8).write(to: exports.appendingPathComponent("zz.xml"))
        let local = command.replacingOccurrences(of: "/data/", with: data.path + "/")
        let path = binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        var done: [String] = []
        for k in 0..<5 {
            let r = try SlurmCluster.execute(
                "/bin/sh", ["-c", local], environment: ["JOB_COMPLETION_INDEX": "\(k)", "SHARDS": "5", "PATH": path])
            #expect(r.status == 0, "shard \(k): \(r.stderr)")
            done += r.stdout.split(separator: "\n").filter { $0.hasPrefix("done ") }.map {
                String($0.split(separator: " ")[1])
            }
        }
        #expect(done.sorted() == ids)
    }

    @Test func theCohortJobAsksForTheBenchmarkedResources() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let yaml = try SlurmTests.block(after: "<!-- kubernetes: health-cohort.yaml -->", in: try Self.page())
        let container = Self.container(try Self.parse(yaml, in: root))
        #expect(container["command"] as? [String] == ["health-analyzer", "cohort", "/data/results"])
        let resources = try #require(container["resources"] as? [String: Any])
        let requests = resources["requests"] as? [String: Any]
        let limits = resources["limits"] as? [String: Any]
        // docs/benchmarks.md: the cohort's peak RSS stays under 256 MB at 10,000 people; the
        // request leaves room above it, the limit twice that.
        #expect(requests?["memory"] as? String == "384Mi" && limits?["memory"] as? String == "768Mi")
        #expect(requests?["cpu"] as? String == "2")
    }

    /// The nightly script with a stand-in `kubectl` that logs its arguments and what it is fed:
    /// the old Jobs deleted, the batch Job applied from the script's output, waited for, then the
    /// cohort Job applied and waited for.
    @Test func theNightlyScriptReplacesTheBatchJobThenTheCohortJob() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let page = try Self.page()
        for name in ["health-nightly.sh", "health-batch-job.sh"] {
            let file = root.appendingPathComponent(name)
            try SlurmTests.block(after: "<!-- kubernetes: \(name) -->", in: page).write(
                to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        try SlurmTests.block(after: "<!-- kubernetes: health-cohort.yaml -->", in: page).write(
            to: root.appendingPathComponent("health-cohort.yaml"), atomically: true, encoding: .utf8)
        let bin = root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = root.appendingPathComponent("kubectl.log")
        let fake = """
            #!/bin/sh
            echo "kubectl $*" >> \(log.path)
            if [ "$1 $2 $3" = "apply -f -" ]; then grep -E '^  (completions|name):' >> \(log.path); fi
            exit 0

            """
        try fake.write(to: bin.appendingPathComponent("kubectl"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("kubectl").path)
        let r = try SlurmCluster.execute(
            "/bin/sh", [root.appendingPathComponent("health-nightly.sh").path],
            environment: ["PATH": bin.path + ":/usr/bin:/bin"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "kubectl delete job health-batch health-cohort --ignore-not-found --wait=true",
                "kubectl apply -f -", "  name: health-batch", "  completions: 16",
                "kubectl wait --for=condition=complete --timeout=24h job/health-batch",
                "kubectl apply -f health-cohort.yaml",
                "kubectl wait --for=condition=complete --timeout=2h job/health-cohort",
            ], "\(lines)")
    }
}
