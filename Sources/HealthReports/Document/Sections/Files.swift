import HealthAnalysis
import HealthExport

// The report: the list of files written beside it.

extension ReportSections {
    mutating func files() {
        heading("Files")
        func link(_ file: String) -> Inline { .link(file, href: file) }
        func item(_ file: String, _ words: String) -> ListItem {
            ListItem(content: [link(file)] + Inline.words(words))
        }
        var items = [
            item("daily.csv", ": one row per day"),
            item("weekly.csv", ": one row per week"),
            item("monthly.csv", ": one row per calendar month"),
            item("stand_hours.csv", ": one row per local hour with a stand-hour record"),
            item("sources.csv", ": raw and counted totals per type and source"),
            item("sleep.csv", ": one row per night (by wake-up date) and per day with naps"),
            item("workouts.csv", ": one row per workout, duplicates marked"),
            item("schema.sql", ": typed tables for the CSV files (DuckDB, SQLite)"),
            ListItem(
                content: [link("load-sqlite.sql"), .text(", "), link("load-duckdb.sql")]
                    + Inline.words(
                        ": load the CSV files into typed tables, empty cells as NULL "
                            + "(`sqlite3 health.db < load-sqlite.sql`)")),
            item("report.json", ": how the report was made (tool, input, zone, source order, period)"),
        ]
        if !charts.isEmpty {
            let links = charts.map { [link($0.fileName)] }.joined(separator: [.text(", ")])
            items.append(ListItem(content: [.text("charts: ")] + links))
        }
        add(.bullets(items))
        paragraph(
            "The CSV files are UTF-8 with LF line endings, RFC 4180 quoting and a header row; numbers use `.` as the "
                + "decimal point and no thousands separator; an empty cell means no data (never 0); "
                + "booleans are `true` / `false`. A measured value's column name ends with its unit (`_km`, `_kcal`, `_min`, `_bpm`)."
        )
    }
}
