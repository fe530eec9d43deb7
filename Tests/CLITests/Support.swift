import Foundation
import TestSupport
import Testing

/// The package root (tests run from anywhere).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The health-analyzer binary built beside this test bundle (`swift build --build-tests` builds it).
let binary: URL = {
    let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var dir = exe.deletingLastPathComponent()
    // The test runner lives in <build>/debug or in <build>/debug/X.xctest/...; walk up to the binary.
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("health-analyzer")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/health-analyzer")
}()

struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs health-analyzer with `arguments`, standard input from `stdin` (or /dev/null).
func run(_ arguments: [String], stdin: URL? = nil, environment: [String: String]? = nil) throws -> Run {
    let p = Process()
    p.executableURL = binary
    p.arguments = arguments
    if let environment { p.environment = environment }
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Run(
        status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
        stderr: String(decoding: e, as: UTF8.self))
}

/// A fresh empty temporary folder.
func temporaryFolder() throws -> URL {
    try TestScratch.folder("ha-cli")
}

func files(in dir: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
}

let sample = packageRoot.appendingPathComponent("samples/export.zip")

/// Runs `executable` (a path, or a name looked up on the PATH) with `arguments`; standard input
/// from /dev/null. For the real clients the tests check our files with (`sqlite3`, `duckdb`).
func runTool(_ executable: String, _ arguments: [String]) throws -> Run {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = [executable] + arguments
    let out = Pipe()
    let err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Run(
        status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
        stderr: String(decoding: e, as: UTF8.self))
}
