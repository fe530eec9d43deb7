/// `health-analyzer report`: wired once the analysis and report modules land.
enum ReportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        throw UsageError(message: "'report' is not available in this build yet", command: "report")
    }
}
