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
}
