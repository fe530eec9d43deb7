import HealthExport
import Testing

@testable import HealthAnalysis
@testable import HealthReports

@Suite("Markdown report")
struct MarkdownReportTests {
    let writer = ReportWriter()

    func report(_ result: AnalysisResult, options: ReportOptions = .init()) -> String {
        ReportWriter(options: options).markdownReport(result, context: makeSampleContext())
    }

    /// The lines of the table that follows the heading `heading`, without header and delimiter.
    func tableRows(after heading: String, in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: heading),
            let tableStart = lines[start...].firstIndex(where: { $0.hasPrefix("|") })
        else { return [] }
        return Array(lines[tableStart...].prefix { $0.hasPrefix("|") }.dropFirst(2))
    }

    @Test func isByteIdenticalWhenRegenerated() {
        let first = report(makeSampleResult())
        let second = ReportWriter().markdownReport(makeSampleResult(), context: makeSampleContext())
        #expect(first == second)
        #expect(!first.isEmpty)
    }

    @Test func namesThePeriodTheInputAndTheZoneWithItsReason() {
        let text = report(makeSampleResult())
        #expect(text.hasPrefix("# Activity report: 2024-12-30 to 2025-01-13\n"))
        #expect(text.contains("from `export.zip` (exported 2025-01-14 08:30:00 +0100, export version 14)"))
        // 15 calendar days; 8 with data: 12-30, 01-04 to 01-08, 01-10 and 01-13 (01-09's row is
        // empty, the Watch was not worn).
        #expect(text.contains("- **Period:** 2024-12-30 to 2025-01-13 (15 days in the period, 8 with data)"))
        #expect(
            text.contains(
                "- **Time zone:** `Europe/Berlin`, the most frequent `HKTimeZone` in the export (on 10,234 samples)"))
        #expect(!text.contains("[!WARNING]"))
    }

    @Test func warnsWhenDaysUseTheFixedExportOffset() {
        var result = makeSampleResult()
        result.timeZone = TimeZoneChoice(identifier: "UTC+01:00", reason: .exportOffset)
        let text = report(result)
        #expect(text.contains("- **Time zone:** `UTC+01:00`, the fixed UTC offset of the export date"))
        #expect(text.contains("> [!WARNING]\n> No IANA time zone was found"))
    }

    @Test func listsTheSourcePriorityInRankOrderWithEscapedNames() {
        var result = makeSampleResult()
        result.sourceOrder = [
            RankedSource(name: "Zepp *Life* | [beta]", sourceClass: .other, rank: 2),
            RankedSource(name: "Alice’s Apple Watch", sourceClass: .watch, rank: 0),
            RankedSource(name: "Alice's iPhone", sourceClass: .phone, rank: 1),
        ]
        let text = report(result)
        #expect(
            text.contains(
                """
                Source priority used, highest first:

                1. Alice’s Apple Watch (Apple Watch)
                2. Alice's iPhone (iPhone)
                3. Zepp \\*Life\\* \\| \\[beta\\] (other app or device)

                """))
    }

    @Test func saysWhenDeduplicationIsOff() {
        var result = makeSampleResult()
        result.deduplicated = false
        let text = report(result)
        #expect(text.contains("- **De-duplication:** off."))
        #expect(text.contains("Source priority (not used, because de-duplication is off)"))
        #expect(text.contains("De-duplication was off: counted totals are plain sums"))
    }

    @Test func showsOnlyTheLastEightWeeksOldestFirst() {
        var result = makeSampleResult()
        result.weeks = (1...10).map { n in
            var week = WeeklyMetrics(week: "2025-W\(n < 10 ? "0" : "")\(n)", weekStart: date("2025-01-06"))
            week.days = 7
            week.stepsPerDay = Double(n * 1000)
            return week
        }
        let text = report(result)
        let rows = tableRows(after: "## Recent weeks", in: text)
        #expect(text.contains("## Recent weeks\n\nThe last 8 of 10 weeks:\n"))
        #expect(rows.count == 8)
        #expect(rows.first?.hasPrefix("| 2025-W03 | 7/7 | 3,000 (n/a) |") == true)
        #expect(rows.last?.hasPrefix("| 2025-W10 | 7/7 | 10,000 (n/a) |") == true)
        #expect(tableRows(after: "## Recent weeks", in: report(result, options: .init(weeksInReport: 3))).count == 3)
    }

    @Test func marksPartialWeeksAndShowsNoChangeForThem() {
        let rows = tableRows(after: "## Recent weeks", in: report(makeSampleResult()))
        #expect(
            rows == [
                // The change in the value's cell (no three columns named "Change"): 7 columns fit
                // GitHub's width.
                "| 2025-W01 | 3/7 | 5,941 (n/a) | 475 (n/a) | 29 (n/a) | 1 / 1 / 1 / 1 | 1 |",
                "| 2025-W02 | 4/7 | 6,938 (+55.7%) | 439 (+84.8%) | 25 (+70.4%) | 2 / 2 / 3 / 2 | 2 |",
                // W03 has no day with ring goals: "—", not 0 / 0 / 0 / 0 (docs/rings.md).
                "| 2025-W03 (partial) | 1/7 | 3,000 | — | — | — | 0 |",
            ])
    }

    @Test func hidesAChangeOfAPartialWeekEvenWhenOneWasComputed() {
        var result = makeSampleResult()
        result.weeks[2].stepsChangePercent = -56.8
        let rows = tableRows(after: "## Recent weeks", in: report(result))
        #expect(rows[2].hasPrefix("| 2025-W03 (partial) | 1/7 | 3,000 | — |"))
    }

    @Test func countsClosedRingsAndTheLongestStreak() {
        let text = report(makeSampleResult())
        #expect(
            tableRows(after: "## Activity rings", in: text) == [
                "| Move | 3 | 50% |",
                "| Exercise | 3 | 50% |",
                "| Stand | 4 | 67% |",
                "| All three | 3 | 50% |",
            ])
        #expect(text.contains("Of 6 days with ring goals:"))
        #expect(text.contains("Longest streak with all three rings closed: **3 days** (2025-01-05 to 2025-01-07)."))
    }

    @Test func saysSoWhenNoDayClosedAllRings() {
        var result = makeSampleResult()
        result.longestAllRingsStreak = RingStreak(days: 0, first: nil, last: nil)
        #expect(report(result).contains("No day had all three rings closed."))
    }

    @Test func drawsTheStandHourProfileAsShareOfDays() {
        let rows = tableRows(after: "## Stand hours by hour of day", in: report(makeSampleResult()))
        // Hours 8 to 23: the first and the last hour with a record.
        #expect(rows.count == 16)
        #expect(rows[0] == "| 08:00 | 2 | 2 | 100% | ████████████████████ |")
        #expect(rows[1] == "| 09:00 | 1 | 2 | 50% | ██████████░░░░░░░░░░ |")
        #expect(rows[3] == "| 11:00 | 0 | 0 | — |   |")
        #expect(rows[15] == "| 23:00 | 0 | 1 | 0% | ░░░░░░░░░░░░░░░░░░░░ |")
    }

    @Test func summarisesDeduplicationPerTypeOverAllSources() {
        let rows = tableRows(after: "## De-duplication", in: report(makeSampleResult()))
        #expect(
            rows == [
                "| ActiveEnergyBurned | kcal | 2 | 9,007 | 3,797 | 2,706 | 29% |",
                "| DistanceWalkingRunning | km | 1 | 1,100 | 33.84 | 33.84 | 0% |",
                "| StepCount | count | 2 | 2,077 | 78,572 | 44,072 | 44% |",
            ])
    }

    @Test func listsDisagreeingDaysOfTheCrossCheckWithBothValues() {
        let text = report(makeSampleResult())
        #expect(text.contains("on 6 days: 5 agree (83%)"))
        #expect(
            tableRows(after: "## ActivitySummary cross-check", in: text) == [
                "| 2025-01-08 | Move (kcal) | 180.0 | 350.0 | -170.0 |",
                "| 2025-01-08 | Exercise (min) | — | 5.0 | — |",
                "| 2025-01-08 | Stand (hours) | 6 | 7 | -1 |",
            ])
    }

    @Test func cutsALongDisagreementTableShort() {
        var result = makeSampleResult()
        result.crossCheck.disagreements = (1...9).map {
            SummaryDisagreement(date: date("2025-01-0\($0)"), metric: .standHours, recordValue: 1, summaryValue: 2)
        }
        let text = report(result, options: ReportOptions(maxDisagreementRows: 4))
        let rows = tableRows(after: "## ActivitySummary cross-check", in: text)
        #expect(rows.count == 4)
        #expect(rows.first?.hasPrefix("| 2025-01-01 |") == true)
        #expect(text.contains("Showing the first 4 of 9 disagreements"))
    }

    @Test func listsNotesAndReaderDiagnosticsAsPlainText() {
        var result = makeSampleResult()
        result.notes = [.info("filler <script> & *stars*")]
        let text = report(result)
        #expect(text.contains("## Notes\n\n- filler \\<script\\> &amp; \\*stars\\*\n"))
        #expect(
            text.contains("## Reader diagnostics\n\n- 3 records skipped: unknown unit 'foo' (first at line 12)\n"))
    }

    @Test func rendersAnExportWithoutDataWithoutInventingNumbers() {
        let text = report(makeEmptyResult())
        #expect(text.hasPrefix("# Activity report\n"))
        #expect(text.contains("- **Period:** no days with data"))
        #expect(text.contains("No weeks with data."))
        #expect(text.contains("No stand-hour records."))
        #expect(text.contains("> [!WARNING]"))
    }
}

@Suite("Markdown escaping")
struct MarkdownEscapingTests {
    @Test(arguments: [
        ("Alice’s Apple Watch 🏃", "Alice’s Apple Watch 🏃"),
        ("a|b", "a\\|b"),
        ("*x* _y_ `z`", "\\*x\\* \\_y\\_ \\`z\\`"),
        ("[link](x) <b>", "\\[link\\](x) \\<b\\>"),
        ("AT&T", "AT&amp;T"),
        ("two\nlines\r\n", "two lines  "),
        ("- item", "\\- item"),
        ("a-b", "a-b"),
        ("# title", "\\# title"),
    ])
    func escapesCharactersThatWouldChangeTheRendering(text: String, expected: String) {
        #expect(Markdown.escape(text) == expected)
    }
}
