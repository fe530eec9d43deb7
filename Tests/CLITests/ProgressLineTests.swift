import Testing

@testable import health_analyzer

/// The progress line's fields and its time-left estimate, as pure functions of the numbers.
@Suite("Progress line")
struct ProgressLineTests {
    func line(_ width: Int, left: Double? = 3, total: Int64? = 1_024_000_000) -> String {
        ProgressLine.text(
            label: "Reading export.zip", unit: .bytes, done: 312_000_000, total: total, elapsed: 1, rate: 210_000_000,
            secondsLeft: left, width: width)
    }

    /// Fields in order of use, whole fields dropped from the end to fit width − 1 columns; the
    /// label is shortened with … when 8 or more columns are left for it.
    @Test func fieldsAreDroppedFromTheEnd() {
        #expect(line(120) == "30%, 0:03 left, Reading export.zip, 312 of 1,024 MB, 210 MB/s, 0:01 elapsed")
        // 60 columns: 59 fit; "30%, 0:03 left, Reading export.zip, 312 of 1,024 MB" is 51.
        #expect(line(60) == "30%, 0:03 left, Reading export.zip, 312 of 1,024 MB")
        // 30 columns: 29 fit; "30%, 0:03 left, " is 16, 13 are left: 12 of the label and "…".
        #expect(line(30) == "30%, 0:03 left, Reading expo…")
        #expect(line(20) == "30%, 0:03 left")
        // Before the rate is steady there is no time left; without a total, no percentage.
        #expect(line(120, left: nil) == "30%, Reading export.zip, 312 of 1,024 MB, 210 MB/s, 0:01 elapsed")
        #expect(line(120, total: nil) == "Reading export.zip, 312 MB, 210 MB/s, 0:01 elapsed")
        for width in [30, 60, 120] { #expect(line(width).count <= width - 1) }
    }

    /// A run that starts slowly (0.5 MB/s for 1 s, the zip being opened) and then reads 10 MB/s:
    /// no estimate before 2 s, none while the rate still changes, then one from the recent rate.
    @Test func timeLeftWaitsForASteadyRate() throws {
        var e = ProgressEstimator()
        let total: Int64 = 100_000_000
        var done: Int64 = 0
        var firstEstimate: (at: Double, left: Double)?
        for tick in 1...48 {
            let t = Double(tick) / 8  // eighths of a second: exact in binary, so are t − 2 and t − 4
            done += t <= 1 ? 62_500 : 1_250_000  // per 0.125 s: 0.5 MB/s, then 10 MB/s
            e.add(elapsed: t, done: done, total: total)
            if firstEstimate == nil, let left = e.secondsLeft { firstEstimate = (t, left) }
        }
        let first = try #require(firstEstimate)
        // Worked by hand: the estimate needs the rate over [t − 2, t] (10 MB/s from t = 3) within
        // 25 % of the one over [t − 4, t − 2], i.e. that one at least 8 MB/s. It holds s = 5 − t
        // seconds of the slow start: ((2 − s) × 10 + s × 0.5) / 2 ≥ 8 for s ≤ 0.421, t ≥ 4.579,
        // so at the tick t = 4.625 (s = 0.375: 8.22 MB/s; at 4.5 it is 7.625). Then done =
        // 0.5 + 3.625 × 10 = 36.75 MB, left = 63.25 MB / 10 MB/s = 6.325 s. (The mean rate since
        // the start would have said at t = 2: 89.5 MB / 5.25 MB/s = 17 s, for 9 s still to go.)
        #expect(first.at == 4.625)
        #expect(abs(first.left - 6.325) < 1e-6)
        #expect(e.rate.map { abs($0 - 10_000_000) < 1 } == true)
    }
}
