import Foundation
import HealthArchive
import HealthMCP

/// `health-analyzer mcp --db <archive>`: a Model Context Protocol server over standard input
/// and output (docs/mcp.md). The server lives in HealthMCP; this parses the arguments and opens
/// the archive, refusing a missing or damaged one as `report --db` does (exit 1).
enum McpCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let args = try ArgumentScanner(arguments, spec: CommandTable.mcp)
        if args.flags.contains("--help") { return printHelp(CommandTable.mcp) }
        if let extra = args.positionals.first {
            throw UsageError(message: "--db names the archive: leave out '\(extra)'", command: "mcp")
        }
        guard let db = args.values["--db"], !db.isEmpty else {
            throw UsageError(message: "missing --db <archive>", command: "mcp")
        }
        let threads = try args.threads()
        let archive = try Archive(path: db, readOnly: true, onLongWait: ArchiveCommands.announceWait, queryOnly: true)
        let options = ArchiveServiceOptions(
            showSourceNames: args.flags.contains("--show-source-names"), threads: threads,
            environmentTimeZone: ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 })
        MCPServer(
            service: ArchiveService(archive: archive, options: options), name: "health-analyzer", version: toolVersion
        )
        .run()
        return ExitCode.success
    }
}
