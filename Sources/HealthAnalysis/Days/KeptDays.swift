import HealthExport

/// Sums per bucket (local day, or local hour in tests) for the buckets that received any
/// amount, ascending by bucket: a column of a report that costs what its data costs, not what
/// the span of its dates costs. A bucket with an entry has data (a zero is data);
/// a bucket without one has none.
///
/// Amounts are added in the order they come, so totals are the same sums, bit for bit, as in
/// a dense array over the span.
struct SparseSums {
    /// Buckets with an entry, ascending.
    private(set) var keys: [Int] = []
    /// The sum of each bucket of `keys`.
    private(set) var sums: [Double] = []

    /// Adds `amount` to `key`'s sum. O(1) for the last bucket or a later one (what a sweep in time
    /// order does); O(log n) for an earlier one, O(n) if that one is new (which a sweep never does).
    @inline(__always)
    mutating func add(_ key: Int, _ amount: Double) {
        let n = keys.count
        if n > 0 && keys[n - 1] == key {
            sums[n - 1] += amount
        } else if n == 0 || keys[n - 1] < key {
            keys.append(key)
            sums.append(0 + amount)
        } else {
            let i = keys.lowerBound(of: key)
            if keys[i] == key {
                sums[i] += amount
            } else {
                keys.insert(key, at: i)
                sums.insert(0 + amount, at: i)
            }
        }
    }

    /// The sum of `key`, nil when nothing was added to it.
    subscript(key: Int) -> Double? {
        let i = keys.lowerBound(of: key)
        return i < keys.count && keys[i] == key ? sums[i] : nil
    }

}

/// The local days a report lists: every day from the first to the last reported day,
/// except runs of more than `maxEmptyRun` consecutive days without any data, which are left out
/// (and named in the report's notes, `gapNotes`). Shorter runs keep their empty rows, so an
/// ordinary export lists every day of its period.
///
/// Built from the days that must be listed (`anchors`: the days with data, and the reported week
/// of `--week last`), so its size is at most `anchors × (maxEmptyRun + 1) + maxEmptyRun`: the
/// report's cost grows with the data, not with the span of its dates.
struct KeptDays {
    /// The longest run of days without data that is still listed, row by row.
    static let maxEmptyRun = 31

    /// The kept days (days since 1970-01-01), ascending.
    private(set) var days: [Int] = []
    /// The runs left out, ascending; each is more than `maxEmptyRun` days long.
    private(set) var gaps: [ClosedRange<Int>] = []

    /// - Parameters:
    ///   - range: the days the rows could cover (first to last row of a dense listing).
    ///   - anchors: days that are listed whatever their neighbours; those outside `range` are ignored.
    init(range: ClosedRange<Int>, anchors: [Int]) {
        var previous = range.lowerBound - 1
        func run(to next: Int) {  // the days strictly between `previous` and `next`
            let count = next - previous - 1
            guard count > 0 else { return }
            if count > Self.maxEmptyRun {
                gaps.append((previous + 1)...(next - 1))
            } else {
                days.append(contentsOf: (previous + 1)..<next)
            }
        }
        for a in Set(anchors).sorted() where range.contains(a) {
            run(to: a)
            days.append(a)
            previous = a
        }
        run(to: range.upperBound + 1)
    }

    /// The position of `day` in `days`, nil when it is not kept.
    func index(_ day: Int) -> Int? {
        let i = days.lowerBound(of: day)
        return i < days.count && days[i] == day ? i : nil
    }

    /// At most this many runs are named one by one in the notes; the others are summed in one.
    static let namedGaps = 20

    /// One note per left-out run inside `report`, with its first and last day and its length (the
    /// first `namedGaps` of them, then one note for the rest).
    func gapNotes(report: ClosedRange<Int>) -> [AnalysisNote] {
        let shown = gaps.filter { $0.overlaps(report) }
        var notes = shown.prefix(Self.namedGaps).map { gap in
            AnalysisNote.info(
                "No data from \(CivilDate(daysSince1970: gap.lowerBound)) to "
                    + "\(CivilDate(daysSince1970: gap.upperBound)) (\(counted(gap.count, "day"))): runs of more than "
                    + "\(Self.maxEmptyRun) days without data are left out of daily.csv, weekly.csv, monthly.csv "
                    + "and the charts.")
        }
        let rest = shown.dropFirst(Self.namedGaps)
        if let first = rest.first, let last = rest.last {
            notes.append(
                .info(
                    "No data in \(grouped(rest.count)) more \(rest.count == 1 ? "run" : "runs") of more than \(Self.maxEmptyRun) days between "
                        + "\(CivilDate(daysSince1970: first.lowerBound)) and \(CivilDate(daysSince1970: last.upperBound)) "
                        + "(\(counted(rest.reduce(0) { $0 + $1.count }, "day")) in all): they are left out too."))
        }
        return notes
    }
}

extension AnalysisResult {
    /// The longest run of days without data that `days` still lists, row by row; longer runs are
    /// left out (`KeptDays`), so consecutive rows more than this many days apart (plus one) have
    /// a left-out run between them.
    public static let longestListedRunWithoutData = KeptDays.maxEmptyRun
}
