// swift-tools-version: 6.0
// health-analyzer: streams an Apple Health export into typed samples and writes
// Activity-ring, de-duplicated daily and weekly reports. No package dependencies:
// C libraries come from Debian's -dev packages as system-library targets.
import PackageDescription

let package = Package(
    name: "health-analyzer",
    products: [
        .executable(name: "health-analyzer", targets: ["health-analyzer"]),
        .library(
            name: "HealthAnalyzer",
            targets: [
                "HealthExport", "HealthAnalysis", "HealthTables", "HealthReports", "HealthArchive", "HealthBatch",
            ]),
    ],
    targets: [
        // C libraries. Only CHealthSAX's .c file includes libxml2; no Swift module imports it,
        // because libxml2 (built with ICU) and Foundation cannot meet in one Swift module.
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CLibArchive", pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CHealthSAX", dependencies: ["CLibXML2"]),
        // The C calls of HealthExport's platform file that Swift cannot make (CPU affinity, malloc).
        .target(name: "CHealthSystem"),
        // Errno and the interrupt-retry loop that every module's platform file uses.
        .target(name: "SystemCalls"),

        // The library.
        .target(name: "HealthExport", dependencies: ["CHealthSAX", "CHealthSystem", "CLibArchive", "SystemCalls"]),
        .target(name: "HealthAnalysis", dependencies: ["HealthExport"]),
        // The report's model below its renderers: the typed tables (each column declared once, read
        // back typed), the report context, the pipeline that makes them, and the all-or-nothing
        // output folder. Storage and batch import this, never HealthReports.
        .target(name: "HealthTables", dependencies: ["HealthExport", "HealthAnalysis", "SystemCalls"]),
        // Rendering only: report.md, its charts, schema.sql and the loaders, report.json.
        .target(name: "HealthReports", dependencies: ["HealthExport", "HealthAnalysis", "HealthTables"]),
        // The SQLite archive of a person's history across exports (import, read back, results).
        .target(
            name: "HealthArchive",
            dependencies: ["CSQLite", "HealthExport", "HealthAnalysis", "HealthTables", "SystemCalls"]),
        // Many people's exports: batch runs (status records, shards) and the cohort tables.
        .target(
            name: "HealthBatch",
            dependencies: ["HealthExport", "HealthAnalysis", "HealthTables", "HealthArchive", "SystemCalls"]),
        // `health-analyzer mcp`: a Model Context Protocol server over an archive (docs/mcp.md).
        .target(
            name: "HealthMCP",
            dependencies: [
                "HealthExport", "HealthAnalysis", "HealthTables", "HealthReports", "HealthArchive", "SystemCalls",
            ]),
        .executableTarget(
            name: "health-analyzer",
            dependencies: [
                "HealthExport", "HealthAnalysis", "HealthTables", "HealthReports", "HealthArchive", "HealthBatch",
                "HealthMCP",
            ]),

        // Synthetic exports with known true values, for tests, samples and benchmarks (not a product).
        .target(name: "SyntheticExport"),
        .executableTarget(name: "generate-export", dependencies: ["SyntheticExport", "SystemCalls"]),

        // Benchmarks (not a product): run with `swift run -c release health-benchmarks`.
        .target(name: "CBareSAX", dependencies: ["CLibXML2"], path: "Benchmarks/CBareSAX"),
        .executableTarget(
            name: "health-benchmarks",
            dependencies: [
                "CBareSAX", "CLibArchive", "HealthExport", "HealthAnalysis", "HealthTables", "HealthReports",
                "HealthArchive",
                "HealthBatch", "SyntheticExport",
            ],
            path: "Benchmarks/health-benchmarks"),

        // The tests' scratch folder (not a product).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "HealthExportTests", dependencies: ["HealthExport", "SyntheticExport", "CLibArchive", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "HealthAnalysisTests",
            dependencies: ["HealthAnalysis", "HealthExport", "HealthReports", "SyntheticExport", "TestSupport"]),
        .testTarget(
            name: "HealthReportsTests",
            dependencies: [
                "HealthReports", "HealthTables", "HealthAnalysis", "HealthExport", "SyntheticExport", "TestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(name: "SyntheticExportTests", dependencies: ["SyntheticExport"]),
        .testTarget(
            name: "HealthArchiveTests",
            dependencies: [
                "HealthArchive", "HealthTables", "HealthReports", "HealthAnalysis", "HealthExport", "SyntheticExport",
                "CSQLite",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "HealthBatchTests",
            dependencies: [
                "HealthBatch", "HealthTables", "HealthReports", "HealthAnalysis", "HealthExport", "SyntheticExport",
                "TestSupport",
            ]),
        // Runs the built health-analyzer binary: exit codes, messages, files written, and the
        // committed reports/ being current.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "health-analyzer", "SyntheticExport", "HealthExport", "HealthArchive", "HealthTables", "HealthReports",
                "TestSupport",
            ],
            // The MCP session script that MCPTests runs with the official MCP Python SDK.
            exclude: ["Python"]),
    ]
)
