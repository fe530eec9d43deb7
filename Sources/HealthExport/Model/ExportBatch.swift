/// A batch of parsed elements, handed to the consumer every `ReaderOptions.batchSize` elements
/// (earlier once its records hold 8192 `InstantaneousBeatsPerMinute`, so that a run of HRV
/// records stays small) and once at the end. Order is document order within each array.
public struct ExportBatch: Sendable {
    /// Records, in document order. Records nested in a correlation are included, marked
    /// `isNestedInCorrelation` (and also carried in their `Correlation`).
    public var records: [Record] = []
    public var correlations: [Correlation] = []
    public var workouts: [Workout] = []
    public var activitySummaries: [ActivitySummary] = []
    public var clinicalRecords: [ClinicalRecord] = []
    public var audiograms: [Audiogram] = []
    /// The document segment the batch's elements come from: with `ReaderOptions.marksSegments`,
    /// a parallel read's segments, numbered 0, 1, 2, ... in document order, each read whole by
    /// one thread; 0 otherwise (a one-thread read is one segment).
    public var segment: Int = 0
    /// With `ReaderOptions.marksSegments`, true on the last batch of a parallel read's segment
    /// (possibly empty): every segment ends with exactly one such batch, so that a consumer can
    /// put the batches of all threads back into document order (the archive's import does).
    public var endsSegment: Bool = false

    public init() {}

    /// Number of elements in the batch.
    public var count: Int {
        records.count + correlations.count + workouts.count + activitySummaries.count
            + clinicalRecords.count + audiograms.count
    }

    mutating func removeAll() {
        records.removeAll(keepingCapacity: true)
        correlations.removeAll(keepingCapacity: true)
        workouts.removeAll(keepingCapacity: true)
        activitySummaries.removeAll(keepingCapacity: true)
        clinicalRecords.removeAll(keepingCapacity: true)
        audiograms.removeAll(keepingCapacity: true)
    }
}
