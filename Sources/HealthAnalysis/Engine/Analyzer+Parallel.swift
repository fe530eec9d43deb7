extension Analyzer {
    /// `count` analyzers for the parts of one export that parser threads read in parallel (give
    /// each thread one, then `merge` them into the first before `finish`), sharing one memory
    /// budget: each buffers `sampleBufferLimit / count` cumulative samples (at least 1), and half
    /// as many heart-rate points, before it spills a sorted run to `scratch`.
    ///
    /// So the sample buffers of all threads together take what one analyzer's take (by default
    /// 4 MiB of cumulative samples and 2 MiB of heart-rate points), whatever the thread count,
    /// instead of that much per thread. A small export fills no buffer at any thread count, a
    /// long one fills every thread's, so a budget per thread made memory grow with the export's
    /// length by one budget per extra thread. Results do not depend on where runs are cut.
    /// - Parameters:
    ///   - count: parts (parser threads), at least 1.
    ///   - scratch: the spill space, shared by all parts (it is thread-safe).
    ///   - sampleBufferLimit: cumulative samples buffered by all parts together.
    public static func parts(
        _ count: Int, options: AnalysisOptions, scratch: any ScratchSpace,
        sampleBufferLimit: Int = Analyzer.defaultSampleBufferLimit
    ) -> [Analyzer] {
        let count = max(1, count)
        let share = max(1, sampleBufferLimit / count)
        return (0..<count).map { _ in Analyzer(options: options, scratch: scratch, sampleBufferLimit: share) }
    }
}
