import Foundation
import Testing

/// The default of `--threads` follows the cores the process may use, not the cores online.
@Suite("--threads default")
struct ThreadDefaultTests {
    static let taskset = ["/usr/bin/taskset", "/bin/taskset"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `taskset -c <one CPU>` (util-linux) pins the process to one core: the help then gives 1.
    @Test func pinnedToOneCoreTheDefaultIsOne() throws {
        guard let taskset = Self.taskset else {
            // scripts/setup installs util-linux, which has it: a missing taskset is a broken
            // set-up, so the test fails rather than skipping.
            Issue.record("no taskset on this machine: run scripts/setup (it installs util-linux)")
            return
        }
        // The lowest CPU this process may use (a container may not offer CPU 0).
        let mask = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            .split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        let cpu =
            mask.flatMap { $0.split(separator: ":").last }.flatMap {
                $0.trimmingCharacters(in: .whitespaces).split(whereSeparator: { $0 == "," || $0 == "-" }).first
            }.map(String.init) ?? "0"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: taskset)
        p.arguments = ["-c", cpu, binary.path, "report", "--help"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let help = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        // The help is wrapped to 88 columns: compare with the line breaks and indents as spaces.
        let flowing = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(
            flowing.contains(
                "(default: the cores available, here 1; with --db, threads reading the archive). Every output"),
            "\(help)")
    }
}
