import HealthAnalysis
import HealthExport
import Testing

@testable import HealthTables

@Suite("Tables read back typed")
struct TableReaderTests {
    /// Each of the seven tables of two sample results (one with days, weeks and stand hours, one
    /// with sleep and workouts with routes), written as CSV and read back as its declared table,
    /// gives every cell of its column's kind, and the cells written again give the same bytes.
    @Test(arguments: ReportTableID.allCases)
    func everyTableReadsBackToTheSameText(table: ReportTableID) throws {
        var context = makeSampleContext()
        context.routes = makeSampleRoutes()
        for result in [makeSampleResult(), makeSleepAndWorkoutResult()] {
            let text = table.csv(for: result, context: context)
            let rows = try table.schema.rows(fromCSV: text)
            #expect(rows.count == text.split(separator: "\n").count - 1)
            let columns = table.schema.columns
            let again =
                CSV.line(table.schema.header)
                + rows.map { row in CSV.line(zip(row, columns).map { $0.csvText($1.kind) }) }.joined()
            #expect(again == text)
        }
    }

    /// `daily.csv` read back into `DailyMetrics`: the values as the file rounds them (steps 0
    /// decimals, km 3, kcal 1), so writing the rows read back gives the same text.
    @Test func dailyRowsReadBackIntoTheirProperties() throws {
        let result = makeSampleResult()
        let text = ReportTables.daily.csv(result.days)
        let days = try ReportTables.daily.values(fromCSV: text)
        #expect(days.map(\.date) == result.days.map(\.date))
        #expect(ReportTables.daily.csv(days) == text)
        #expect(days.map(\.ringsClosed) == result.days.map(\.ringsClosed))
    }

    /// The `kind` column is computed (`isNap`), and is read back all the same.
    @Test func sleepKindReadsBackAsNap() throws {
        let nights = try ReportTables.sleep.values(
            fromCSV: "night,kind,asleep_min\n2025-01-01,nap,30.5\n2025-01-02,night,480\n")
        #expect(nights.map(\.isNap) == [true, false])
        #expect(nights.map(\.asleepMinutes) == [30.5, 480])
        #expect(nights[0].night == CivilDate(year: 2025, month: 1, day: 1))
    }

    /// A header of the table's own columns in a subset (a report of an earlier version without
    /// the appended extras) reads; the missing columns are empty.
    @Test func aHeaderWithoutTheExtrasReadsWithEmptyCells() throws {
        let rows = try ReportTableID.daily.schema.rows(fromCSV: "date,steps\n2025-01-01,1200\n")
        #expect(rows.count == 1)
        #expect(rows[0][0] == .date(CivilDate(year: 2025, month: 1, day: 1)))
        #expect(rows[0][1] == .number(1200))
        #expect(rows[0].dropFirst(2).allSatisfy { $0 == .null })
    }

    /// What a damaged or foreign file gives: one line naming the file, the line (1 = header)
    /// and, for a cell, the column.
    @Test(arguments: [
        ("", "daily.csv line 1: the file is empty (expected a header)"),
        ("\u{1}\u{2}garbage\n", "daily.csv line 1: '\\u{1}\\u{2}garbage' is not a column of daily"),
        ("steps,date\n1,2025-01-01\n", "daily.csv line 1: the first column must be 'date'"),
        ("date,steps,steps\n", "daily.csv line 1: column 'steps' appears twice"),
        ("date,steps\n2025-01-01,NaN\n", "daily.csv line 2 (column steps): 'NaN' is not a number"),
        ("date,steps\n2025-01-01,1e5\n", "daily.csv line 2 (column steps): '1e5' is not a number"),
        ("date,steps\n2025-01-01,inf\n", "daily.csv line 2 (column steps): 'inf' is not a number"),
        ("date,steps\n2025-02-30,1\n", "daily.csv line 2 (column date): '2025-02-30' is not a date (yyyy-MM-dd)"),
        ("date,steps\n2025-01-01,1\n2025-01-02\n", "daily.csv line 3: 1 fields where the header has 2"),
        ("date,stand_hours\n2025-01-01,1.5\n", "daily.csv line 2 (column stand_hours): '1.5' is not a whole number"),
    ])
    func aFileThatIsNotTheTableIsAnError(text: String, message: String) {
        #expect(throws: TableReadError.self) { try ReportTableID.daily.schema.rows(fromCSV: text) }
        do {
            _ = try ReportTableID.daily.schema.rows(fromCSV: text)
        } catch {
            #expect(error.description == message)
        }
    }

    /// Local times read back exactly as written, offsets west and east, half hours included.
    @Test(arguments: ["2025-10-02T06:31:00+02:00", "1999-12-31T23:59:59-09:30", "2025-03-30T00:00:00+05:45"])
    func localTimesReadBackExactly(text: String) throws {
        let time = try #require(LocalTime(text))
        #expect(time.description == text)
    }

    @Test(arguments: ["2025-10-02 06:31:00+02:00", "2025-10-02T24:00:00+02:00", "2025-10-02T06:31:00+19:00", "x"])
    func otherShapesAreNotLocalTimes(text: String) {
        #expect(LocalTime(text) == nil)
    }
}
