import Foundation
import SyntheticExport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `health-analyzer mcp --db`: a whole session through the official MCP Python SDK's stdio
/// client (values against the CSV files of `report --db`, every error case, the archive
/// unchanged), and raw lines the SDK would never send (docs/mcp.md).
@Suite("MCP server")
struct MCPTests {
    /// The result of a process bounded by a timeout: killed (by its pid) when it ran over.
    struct Bounded {
        var status: Int32
        var stdout: Data
        var stderr: String
        var timedOut: Bool
    }

    /// Runs `executable` with `arguments`, `input` on its standard input (then closed), for at
    /// most `seconds`; a process still running then is killed with SIGKILL by its pid.
    static func runBounded(
        _ executable: URL, _ arguments: [String], input: Data = Data(), environment: [String: String]? = nil,
        seconds: Double
    ) throws -> Bounded {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let environment { p.environment = environment }
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = errPipe
        try p.run()
        let pid = p.processIdentifier
        let group = DispatchGroup()
        nonisolated(unsafe) var out = Data()
        nonisolated(unsafe) var err = Data()
        DispatchQueue.global().async(group: group) { out = outPipe.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { err = errPipe.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) {
            // A server that stops reading (it must not) makes this write fail, not hang: it is killed.
            try? inPipe.fileHandleForWriting.write(contentsOf: input)
            try? inPipe.fileHandleForWriting.close()
        }
        var timedOut = false
        if group.wait(timeout: .now() + seconds) == .timedOut {
            timedOut = true
            kill(pid, SIGKILL)
            _ = group.wait(timeout: .now() + 10)
        }
        p.waitUntilExit()
        return Bounded(
            status: p.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self), timedOut: timedOut)
    }

    /// Each line of standard output as a JSON object (a line that is not one fails the test:
    /// nothing but protocol messages goes there).
    static func messages(_ stdout: Data) -> [[String: Any]] {
        String(decoding: stdout, as: UTF8.self).split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "not a JSON-RPC message on standard output: \(line.prefix(200))")
            #expect(object?["jsonrpc"] as? String == "2.0")
            return object
        }
    }

    static func errorCode(_ message: [String: Any]) -> Int? {
        (message["error"] as? [String: Any])?["code"] as? Int
    }

    static func line(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            + "\n"
    }

    static func initialize(id: Int, version: String) -> String {
        line([
            "jsonrpc": "2.0", "id": id, "method": "initialize",
            "params": [
                "protocolVersion": version, "capabilities": [String: Any](),
                "clientInfo": ["name": "tests", "version": "1"],
            ],
        ])
    }

    /// An archive of the sample export, made once per process.
    static let sampleArchive: URL = {
        let db = try! temporaryFolder().appendingPathComponent("sample.sqlite")
        let r = try! run(["import", sample.path, "--db", db.path, "--quiet"])
        precondition(r.status == 0, r.stderr)
        return db
    }()

    /// Raw lines: malformed JSON (-32700), a request before `initialize` (-32600), a batch
    /// (-32600: MCP 2025-06-18 removed batches), an unknown method (-32601), a 10 MB line
    /// (-32600, and the session goes on), and input ending inside a message (dropped, exit 0).
    /// Every answer carries the request's id, or null where none could be read; nothing but
    /// JSON-RPC messages on standard output; no hang (60 s bound, then killed by pid).
    @Test func rawLinesGetTheSpecifiedErrors() throws {
        var input = "this is { not JSON\n"
        input += Self.line(["jsonrpc": "2.0", "id": 1, "method": "tools/list"])
        input += "[" + Self.line(["jsonrpc": "2.0", "id": 2, "method": "ping"]).dropLast() + "]\n"
        input += Self.initialize(id: 3, version: "2025-06-18")
        input += Self.line(["jsonrpc": "2.0", "method": "notifications/initialized"])
        input += Self.line(["jsonrpc": "2.0", "id": 4, "method": "prompts/get"])
        input +=
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{\"pad\":\""
            + String(repeating: "x", count: 10 << 20) + "\"}}\n"
        input += Self.line(["jsonrpc": "2.0", "id": 6, "method": "ping"])
        input += "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"pi"  // the input ends here
        let r = try Self.runBounded(
            binary, ["mcp", "--db", Self.sampleArchive.path], input: Data(input.utf8), seconds: 60)
        #expect(!r.timedOut, "the server hung and was killed")
        #expect(r.status == 0, "\(r.stderr)")
        let m = Self.messages(r.stdout)
        try #require(m.count == 7, "\(m)")
        #expect(Self.errorCode(m[0]) == -32700 && m[0]["id"] is NSNull)
        #expect(Self.errorCode(m[1]) == -32600 && m[1]["id"] as? Int == 1)
        #expect(Self.errorCode(m[2]) == -32600 && m[2]["id"] is NSNull)
        #expect(((m[3]["result"] as? [String: Any])?["protocolVersion"] as? String) == "2025-06-18")
        #expect(Self.errorCode(m[4]) == -32601 && m[4]["id"] as? Int == 4)
        #expect(Self.errorCode(m[5]) == -32600 && m[5]["id"] is NSNull)
        #expect(m[6]["id"] as? Int == 6 && m[6]["result"] != nil)
        #expect(r.stderr.contains("standard input ended inside a message"))
    }

    /// String escapes through the shared decoder (`JSONText.unescape`): an id written as
    /// `"\u00e9\ud83d\ude00"` comes back as "é😀" (a ping is answered before `initialize`);
    /// `{"a":"\x"}` is a parse error that names the escape and the byte after it
    /// (`{"a":"\` is bytes 0-6, `x` 7).
    @Test func stringEscapesAreReadAndAnUnknownOneIsNamed() throws {
        let input = #"{"jsonrpc":"2.0","id":"\u00e9\ud83d\ude00","method":"ping"}"# + "\n" + #"{"a":"\x"}"# + "\n"
        let r = try Self.runBounded(
            binary, ["mcp", "--db", Self.sampleArchive.path], input: Data(input.utf8), seconds: 60)
        #expect(!r.timedOut && r.status == 0, "\(r.stderr)")
        let m = Self.messages(r.stdout)
        try #require(m.count == 2, "\(m)")
        #expect(m[0]["id"] as? String == "é😀", "\(m[0])")
        #expect(Self.errorCode(m[1]) == -32700 && m[1]["id"] is NSNull)
        let message = (m[1]["error"] as? [String: Any])?["message"] as? String
        #expect(message == "Parse error: an unknown escape '\\x' at byte 8", "\(m[1])")
    }

    /// A revision the server does not know gets its newest (the client decides); a revision it
    /// knows gets itself. `initialize` twice is refused.
    @Test func versionNegotiation() throws {
        for (asked, answered) in [("2099-01-01", "2025-11-25"), ("2025-03-26", "2025-03-26")] {
            let input = Self.initialize(id: 1, version: asked) + Self.initialize(id: 2, version: asked)
            let r = try Self.runBounded(
                binary, ["mcp", "--db", Self.sampleArchive.path], input: Data(input.utf8), seconds: 60)
            #expect(r.status == 0 && !r.timedOut)
            let m = Self.messages(r.stdout)
            try #require(m.count == 2)
            #expect(((m[0]["result"] as? [String: Any])?["protocolVersion"] as? String) == answered)
            #expect(Self.errorCode(m[1]) == -32600)
        }
    }

    /// The `_meta` envelope of revision 2026-07-28 (docs/mcp.md, "Protocol revisions"), with
    /// `extra` keys added or (NSNull) removed.
    static func envelope(_ extra: [String: Any] = [:]) -> [String: Any] {
        var meta: [String: Any] = [
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": [String: Any](),
            "io.modelcontextprotocol/clientInfo": ["name": "tests", "version": "1"],
        ]
        for (key, value) in extra { meta[key] = value is NSNull ? nil : value }
        return meta
    }

    static func stateless(id: Int, _ method: String, _ params: [String: Any] = [:], meta: [String: Any] = [:]) -> String
    {
        var p = params
        p["_meta"] = envelope(meta)
        return line(["jsonrpc": "2.0", "id": id, "method": method, "params": p])
    }

    /// A stateless connection (its first request carries the envelope): `server/discover`, the
    /// result fields every result carries (`resultType`) and the cacheable ones' hints, no log
    /// message without the request's own `logLevel`, the removed methods (`ping`,
    /// `logging/setLevel`: -32601), `initialize` refused with -32022 naming the revision it
    /// speaks, and each broken envelope: no `_meta` or a key missing (-32602), an unknown
    /// revision (-32022 with supported and requested), a log level that is none (-32602).
    @Test func aStatelessConnectionAnswersRevision20260728() throws {
        var input = Self.stateless(id: 1, "server/discover")
        input += Self.stateless(id: 2, "tools/list")
        input += Self.stateless(
            id: 3, "tools/call", ["name": "daily", "arguments": ["from": "2025-10-01", "to": "2025-10-03"]])
        input += Self.stateless(id: 4, "resources/read", ["uri": "health-analyzer://archive/schema.sql"])
        input += Self.stateless(id: 5, "resources/read", ["uri": "health-analyzer://docs/outputs.md"])
        input += Self.stateless(id: 6, "ping")
        input += Self.stateless(id: 7, "logging/setLevel", ["level": "info"])
        input += Self.initialize(id: 8, version: "2025-11-25")
        input += Self.line(["jsonrpc": "2.0", "id": 9, "method": "tools/list"])
        input += Self.stateless(id: 10, "tools/list", meta: ["io.modelcontextprotocol/clientCapabilities": NSNull()])
        input += Self.stateless(id: 11, "tools/list", meta: ["io.modelcontextprotocol/protocolVersion": "2099-01-01"])
        input += Self.stateless(id: 12, "tools/list", meta: ["io.modelcontextprotocol/logLevel": "loud"])
        input += Self.line(["jsonrpc": "2.0", "method": "notifications/cancelled", "params": ["requestId": 99]])
        input += Self.stateless(id: 13, "resources/templates/list")
        let r = try Self.runBounded(
            binary, ["mcp", "--db", Self.sampleArchive.path], input: Data(input.utf8), seconds: 60)
        #expect(!r.timedOut && r.status == 0, "\(r.stderr)")
        let m = Self.messages(r.stdout)
        // One answer per request, in order, and no notifications/message: no request asked for logs.
        try #require(m.map { $0["id"] as? Int } == Array(1...13), "\(m)")
        func result(_ k: Int) -> [String: Any] { m[k - 1]["result"] as? [String: Any] ?? [:] }
        func error(_ k: Int) -> [String: Any] { m[k - 1]["error"] as? [String: Any] ?? [:] }

        let discover = result(1)
        #expect(discover["supportedVersions"] as? [String] == ["2026-07-28"])
        let capabilities = discover["capabilities"] as? [String: Any]
        #expect(capabilities?["tools"] != nil && capabilities?["resources"] != nil)
        #expect((discover["instructions"] as? String)?.contains("daily") == true)
        let serverInfo = (discover["_meta"] as? [String: Any])?["io.modelcontextprotocol/serverInfo"] as? [String: Any]
        #expect(serverInfo?["name"] as? String == "health-analyzer")
        // The lists: the same for anyone and for the server's life (an hour is our choice).
        for k in [1, 2, 13] {
            #expect(result(k)["resultType"] as? String == "complete", "\(k)")
            #expect(result(k)["ttlMs"] as? Int == 3_600_000 && result(k)["cacheScope"] as? String == "public", "\(k)")
        }
        #expect((result(2)["tools"] as? [Any])?.count == 8)
        // A tool's result: resultType, and the numbers of the handshake era (docs/mcp.md's example).
        #expect(result(3)["resultType"] as? String == "complete" && result(3)["isError"] as? Bool == false)
        let rows = (result(3)["structuredContent"] as? [String: Any])?["rows"] as? [[Any]]
        #expect(rows?.count == 3 && rows?.first?[0] as? String == "2025-10-01")
        #expect(result(3)["ttlMs"] == nil)
        // The archive's schema is this person's and changes with an upgrade; a docs page is public.
        #expect(result(4)["ttlMs"] as? Int == 0 && result(4)["cacheScope"] as? String == "private")
        #expect(result(5)["ttlMs"] as? Int == 3_600_000 && result(5)["cacheScope"] as? String == "public")
        #expect(error(6)["code"] as? Int == -32601 && error(7)["code"] as? Int == -32601)
        #expect(error(8)["code"] as? Int == -32022)
        let refused = error(8)["data"] as? [String: Any]
        #expect(
            refused?["supported"] as? [String] == ["2026-07-28"] && refused?["requested"] as? String == "2025-11-25")
        #expect(error(9)["code"] as? Int == -32602)
        #expect((error(10)["message"] as? String)?.contains("io.modelcontextprotocol/clientCapabilities") == true)
        #expect(error(10)["code"] as? Int == -32602)
        #expect(error(11)["code"] as? Int == -32022)
        #expect((error(11)["data"] as? [String: Any])?["requested"] as? String == "2099-01-01")
        #expect(error(12)["code"] as? Int == -32602)
    }

    /// The first request decides the era: after `initialize`, a request with the stateless
    /// envelope is refused (-32600) and one without it is answered as before, without
    /// `resultType`; `server/discover` is not a method of the handshake era (-32601, which
    /// tells a client that probes with it to fall back to `initialize`).
    @Test func aHandshakeConnectionStaysInItsEra() throws {
        var input = Self.initialize(id: 1, version: "2025-11-25")
        input += Self.stateless(id: 2, "tools/list")
        input += Self.line(["jsonrpc": "2.0", "id": 3, "method": "tools/list"])
        input += Self.line(["jsonrpc": "2.0", "id": 4, "method": "server/discover"])
        let r = try Self.runBounded(
            binary, ["mcp", "--db", Self.sampleArchive.path], input: Data(input.utf8), seconds: 60)
        let m = Self.messages(r.stdout)
        try #require(m.count == 4, "\(m)")
        #expect(Self.errorCode(m[1]) == -32600 && m[1]["id"] as? Int == 2)
        let listed = try #require(m[2]["result"] as? [String: Any])
        #expect((listed["tools"] as? [Any])?.count == 8 && listed["resultType"] == nil && listed["ttlMs"] == nil)
        #expect(Self.errorCode(m[3]) == -32601)
    }

    /// The docs pages served as resources are the files in docs/ byte for byte (they are
    /// compiled in: run scripts/make-mcp-docs after changing one).
    @Test func resourcesAreTheDocsPages() throws {
        var input = Self.initialize(id: 1, version: "2025-11-25")
        input += Self.line(["jsonrpc": "2.0", "id": 2, "method": "resources/list"])
        let listed = try Self.runBounded(
            binary, ["mcp", "--db", Self.sampleArchive.path], input: Data(input.utf8), seconds: 60)
        let resources = try #require(
            (Self.messages(listed.stdout).last?["result"] as? [String: Any])?["resources"] as? [[String: Any]])
        let uris = resources.compactMap { $0["uri"] as? String }
        let docs = uris.filter { $0.hasPrefix("health-analyzer://docs/") }
        #expect(
            docs.contains("health-analyzer://docs/outputs.md") && docs.contains("health-analyzer://docs/archive.md"))
        input = Self.initialize(id: 1, version: "2025-11-25")
        for (i, uri) in uris.enumerated() {
            input += Self.line(["jsonrpc": "2.0", "id": 10 + i, "method": "resources/read", "params": ["uri": uri]])
        }
        input += Self.line([
            "jsonrpc": "2.0", "id": 99, "method": "resources/read", "params": ["uri": "file:///etc/passwd"],
        ])
        let r = try Self.runBounded(
            binary, ["mcp", "--db", Self.sampleArchive.path], input: Data(input.utf8), seconds: 60)
        let m = Self.messages(r.stdout)
        try #require(m.count == uris.count + 2)
        for (i, uri) in uris.enumerated() {
            let contents = try #require(
                ((m[i + 1]["result"] as? [String: Any])?["contents"] as? [[String: Any]])?.first)
            let text = try #require(contents["text"] as? String)
            if uri.hasPrefix("health-analyzer://docs/") {
                let file = packageRoot.appendingPathComponent("docs/" + uri.dropFirst("health-analyzer://docs/".count))
                #expect(text == (try String(contentsOf: file, encoding: .utf8)), "\(uri): run scripts/make-mcp-docs")
                #expect(contents["mimeType"] as? String == "text/markdown")
            } else {
                #expect(text.contains("CREATE"), "\(uri)")
            }
        }
        #expect(Self.errorCode(m[uris.count + 1]) == -32002)
    }

    /// Source names are left out unless `--show-source-names`: `query` reads `sources.name` as
    /// NULL and sleep.csv's `source` column is not returned; with the option both are there.
    /// The table `me` is never read. (The sample has 6 sources: Apple Watch, iPhone, a sleep app…)
    @Test func sourceNamesOnlyWhenAsked() throws {
        var input = Self.initialize(id: 1, version: "2025-11-25")
        input += Self.line([
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": ["name": "query", "arguments": ["sql": "SELECT name FROM sources ORDER BY id"]],
        ])
        input += Self.line([
            "jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": ["name": "sleep", "arguments": ["from": "2025-10-01", "to": "2025-10-01"]],
        ])
        input += Self.line([
            "jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": ["name": "query", "arguments": ["sql": "SELECT date_of_birth FROM me"]],
        ])
        for shown in [false, true] {
            let r = try Self.runBounded(
                binary, ["mcp", "--db", Self.sampleArchive.path] + (shown ? ["--show-source-names"] : []),
                input: Data(input.utf8), seconds: 120)
            let m = Self.messages(r.stdout)
            try #require(m.count == 4, "\(r.stderr)")
            func structured(_ k: Int) -> [String: Any]? {
                (m[k]["result"] as? [String: Any])?["structuredContent"] as? [String: Any]
            }
            let names = try #require(structured(1)?["rows"] as? [[Any]]).map { $0[0] as? String }
            #expect(names.count == 6)
            #expect(names.allSatisfy { shown ? $0 != nil : $0 == nil }, "\(names)")
            let columns = try #require(structured(2)?["columns"] as? [String])
            #expect(columns.contains("source") == shown, "\(columns)")
            #expect((m[3]["result"] as? [String: Any])?["isError"] as? Bool == true)
        }
    }

    /// A missing archive, a file that is not SQLite and an SQLite database of another program
    /// are refused at start with the one-line message and exit code `report --db` gives.
    @Test func aMissingOrDamagedArchiveIsRefusedAsReportDoes() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("missing.sqlite").path
        let garbage = dir.appendingPathComponent("garbage.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: garbage)
        let foreign = dir.appendingPathComponent("foreign.sqlite")
        #expect(try runTool("sqlite3", [foreign.path, "CREATE TABLE t (x)"]).status == 0)
        for path in [missing, garbage.path, foreign.path] {
            let report = try run(["report", "--db", path, "--out", dir.appendingPathComponent("out").path])
            let r = try Self.runBounded(binary, ["mcp", "--db", path], seconds: 30)
            #expect(r.status == report.status && r.status == 1, "\(path)")
            #expect(r.stderr == report.stderr, "\(path)")
            #expect(r.stderr.split(separator: "\n").count == 1)
            #expect(r.stdout.isEmpty)
        }
    }

    /// The tests' Python with the official MCP SDK (and jsonschema); nil with the reason when it
    /// cannot be had (no `python3 -m venv`, PyPI unreachable): the test fails under CI=true.
    static func sdkPython() -> (python: URL?, problem: String) {
        do {
            _ = try PythonPackages.python(with: "mcp")
            return (try PythonPackages.python(with: "jsonschema"), "")
        } catch {
            return (nil, "\(error)")
        }
    }

    /// Runs the SDK session script on `archive` after `report --db` wrote its CSV files, once
    /// per era (`handshake`: ClientSession and initialize, revision 2025-11-25; `stateless`: the
    /// SDK's Client in its default mode, which probes server/discover, revision 2026-07-28), and
    /// checks the archive's bytes (and its -wal's) are the same after the sessions.
    static func sdkSession(_ archive: URL, mode: String, eras: [String], name: String) throws {
        let (python, problem) = sdkPython()
        guard let python else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("the MCP Python SDK is needed under CI=true: \(problem)")
            } else {
                print("SKIPPED \(name): \(problem)")
            }
            return
        }
        let out = archive.deletingLastPathComponent().appendingPathComponent("report")
        let report = try run(["report", "--db", archive.path, "--out", out.path, "--quiet"])
        try #require(report.status == 0, "\(report.stderr)")
        // The archive and its -wal (none and an empty one are the same: SQLite makes an empty
        // -wal and a -shm beside a WAL archive for every reader).
        func bytes() -> [Data] {
            ["", "-wal"].map { (try? Data(contentsOf: URL(fileURLWithPath: archive.path + $0))) ?? Data() }
        }
        let before = bytes()
        let script = packageRoot.appendingPathComponent("Tests/CLITests/Python/mcp_session.py")
        for era in eras {
            let r = try runBounded(
                python,
                [
                    script.path, binary.path, archive.path, out.path, packageRoot.appendingPathComponent("docs").path,
                    mode, era,
                ],
                seconds: 600)
            #expect(!r.timedOut, "\(era): the session hung and was killed")
            let stdout = String(decoding: r.stdout, as: UTF8.self)
            #expect(r.status == 0, "\(era): \(stdout)\n\(r.stderr.suffix(3000))")
            #expect(stdout.hasSuffix("ok\n"), "\(era): \(stdout)")
        }
        #expect(bytes() == before, "the session changed the archive")
    }

    /// A generated archive of 150 days with sleep, workouts and duplicates, in both protocol
    /// eras: every tool through the SDK, every cell of daily, weekly, monthly, sleep and workouts equal to the CSV files,
    /// summary's counts and compare's means from daily.csv, each bad input a one-line tool
    /// error, the docs resources equal to docs/, and the archive unchanged.
    @Test func anSDKSessionReturnsTheReportsNumbers() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = dir.appendingPathComponent("export.xml")
        let config = SyntheticExportConfiguration(firstDay: "2025-05-05", days: 150, seed: 7, extendedHealthData: true)
        try Data(SyntheticExport.makeExport(config).bytes).write(to: export)
        let db = dir.appendingPathComponent("health.sqlite")
        #expect(try run(["import", export.path, "--db", db.path, "--quiet"]).status == 0)
        try Self.sdkSession(
            db, mode: "full", eras: ["handshake", "stateless"], name: "anSDKSessionReturnsTheReportsNumbers")
    }

    /// Two exports in two zones (the second after a move from Berlin to New York): daily through
    /// the SDK equals daily.csv of `report --db` on the same archive, cell by cell.
    @Test func twoExportsInTwoZones() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.xml")
        try Data(
            SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2025-03-03", days: 40, seed: 5)).bytes
        ).write(to: first)
        let second = dir.appendingPathComponent("second.xml")
        let moved = SyntheticExportConfiguration(
            firstDay: "2025-03-03", days: 80, seed: 5,
            zoneChanges: [SyntheticZoneChange(firstDay: "2025-04-20", timeZoneIdentifier: "America/New_York")])
        try Data(SyntheticExport.makeExport(moved).bytes).write(to: second)
        let db = dir.appendingPathComponent("health.sqlite")
        #expect(try run(["import", first.path, "--db", db.path, "--quiet"]).status == 0)
        #expect(try run(["import", second.path, "--db", db.path, "--quiet"]).status == 0)
        try Self.sdkSession(db, mode: "daily", eras: ["stateless"], name: "twoExportsInTwoZones")
        // The archive's days are in both zones.
        let daily = try String(contentsOf: dir.appendingPathComponent("report/daily.csv"), encoding: .utf8)
        #expect(daily.contains(",Europe/Berlin\n") && daily.contains(",America/New_York\n"))
    }

    /// The 400-row cap of the table tools over a generated archive of 430 days, through the SDK:
    /// daily over all of them returns daily.csv's first 400 rows (2024-09-02 to 2025-10-06),
    /// `truncated` true and `next_from` 2025-10-07 (the 401st day); asked again from there it
    /// returns the other 30 rows (to 2025-11-05), not truncated; the 430 rows together equal
    /// daily.csv cell for cell.
    @Test func theTableCapAndItsContinuation() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = dir.appendingPathComponent("export.xml")
        try Data(
            SyntheticExport.makeExport(SyntheticExportConfiguration(firstDay: "2024-09-02", days: 430, seed: 11)).bytes
        ).write(to: export)
        let db = dir.appendingPathComponent("health.sqlite")
        #expect(try run(["import", export.path, "--db", db.path, "--quiet"]).status == 0)
        try Self.sdkSession(db, mode: "cap", eras: ["stateless"], name: "theTableCapAndItsContinuation")
        // The days the comment names, from daily.csv itself.
        let daily = try String(contentsOf: dir.appendingPathComponent("report/daily.csv"), encoding: .utf8)
        let days = daily.split(separator: "\n").dropFirst().map { $0.prefix(10) }
        #expect(days.count == 430 && days.first == "2024-09-02" && days.last == "2025-11-05")
        #expect(days[399] == "2025-10-06" && days[400] == "2025-10-07")
    }
}
