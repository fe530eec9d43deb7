import Testing

@testable import HealthReports
@testable import HealthTables

/// Each output of the sample result against its golden file in `Golden/`, named after the test.
/// Regenerate with `scripts/update-goldens`, review the diff and commit it.
@Suite("Golden files")
struct GoldenFileTests {
    let writer = ReportWriter()
    let result = makeSampleResult()

    @Test func dailyCSVMatchesGolden() {
        expectMatchesGolden(writer.dailyCSV(result), named: "dailyCSVMatchesGolden.csv")
    }

    @Test func weeklyCSVMatchesGolden() {
        expectMatchesGolden(writer.weeklyCSV(result), named: "weeklyCSVMatchesGolden.csv")
    }

    @Test func standHoursCSVMatchesGolden() {
        expectMatchesGolden(writer.standHoursCSV(result), named: "standHoursCSVMatchesGolden.csv")
    }

    @Test func sourcesCSVMatchesGolden() {
        expectMatchesGolden(writer.sourcesCSV(result), named: "sourcesCSVMatchesGolden.csv")
    }

    @Test func markdownReportMatchesGolden() {
        expectMatchesGolden(
            writer.markdownReport(result, context: makeSampleContext()), named: "markdownReportMatchesGolden.md")
    }

    @Test func markdownReportOfAnEmptyExportMatchesGolden() {
        let context = ReportContext(inputFileName: "empty.xml", generator: "health-analyzer 0.1.0")
        expectMatchesGolden(
            writer.markdownReport(makeEmptyResult(), context: context),
            named: "markdownReportOfAnEmptyExportMatchesGolden.md")
    }

    @Test func htmlReportMatchesGolden() {
        expectMatchesGolden(
            writer.htmlReport(result, context: makeSampleContext()), named: "htmlReportMatchesGolden.html")
    }
}
