import Foundation
import Testing

/// README.md is the page a person reads first: short, with the picture of the report and the two
/// commands; everything else is in docs/, and every relative link there leads to a file.
@Suite("README and docs")
struct ReadmeTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theReadmeIsShortAndHasThePictureAndTheTwoCommands() throws {
        let readme = try Self.text("README.md")
        // 16 KiB: about five minutes of reading.
        #expect(readme.utf8.count <= 16_384, "README.md is \(readme.utf8.count) bytes")
        #expect(readme.contains("](docs/report.png)"))
        #expect(readme.contains("./scripts/sample-report"))
        #expect(readme.contains("./scripts/test"))
        #expect(readme.contains("[LICENSE](LICENSE)"))
    }

    /// Every `](target)` in README.md and docs/*.md that is not a web address or an anchor names
    /// a file or folder of the repository (relative to the page), so that moving a section to a
    /// page of its own cannot leave a dead link behind. LICENSE is written by the packaging work
    /// and may be missing from a branch without it.
    @Test func everyRelativeLinkLeadsToAFile() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("docs").path)
        let pages = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var checked = 0
        for page in pages {
            let text = try Self.text(page)
            let folder = packageRoot.appendingPathComponent(page).deletingLastPathComponent()
            for part in text.components(separatedBy: "](").dropFirst() {
                guard let end = part.firstIndex(of: ")") else { continue }
                var target = String(part[..<end])
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("#")
                    || target.contains(" ") || target.isEmpty
                {
                    continue
                }
                if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
                if target == "LICENSE" { continue }
                checked += 1
                let path = folder.appendingPathComponent(target).standardized.path
                #expect(FileManager.default.fileExists(atPath: path), "\(page): dead link to \(target)")
            }
        }
        #expect(checked > 100)
    }

    /// The README shows how to register the MCP server: a JSON block a client reads as it is
    /// (`mcpServers.health` with the command and `mcp --db <archive>`), and the warning that what
    /// the tools return goes to the client's model (docs/mcp.md §1).
    @Test func theReadmeShowsHowToRegisterTheMCPServer() throws {
        let readme = try Self.text("README.md")
        let parts = readme.components(separatedBy: "```json\n")
        try #require(parts.count == 2, "one JSON block in README.md")
        let block = try #require(parts[1].components(separatedBy: "```").first)
        let json = try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any]
        let servers = try #require(json?["mcpServers"] as? [String: Any])
        let health = try #require(servers["health"] as? [String: Any])
        #expect((health["command"] as? String)?.hasSuffix("/health-analyzer") == true)
        let args = try #require(health["args"] as? [String])
        #expect(args.count == 3 && args[0] == "mcp" && args[1] == "--db" && args[2].hasPrefix("/"))
        #expect(readme.contains("sent to the model the client uses"))
        #expect(readme.contains("](docs/mcp.md)"))
    }
}
