/// A sample kept by a domain that names its source by an index into its analyzer's
/// `SourceTable` (so a merge of two analyzers must remap it).
protocol SourceIndexed {
    /// The index of the sample's source in its analyzer's source table.
    var source: Int32 { get set }
}

extension Array where Element: SourceIndexed {
    /// Moves the samples of `other` (another analyzer's, about to be discarded) to the end of
    /// this array, each source index remapped through `sourceMap` (see `StreamContext.merge`).
    /// A sample whose source has no index in the merged table (past the 65,536 sources a table
    /// holds) is dropped and counted in `context.counters.tooManySources`. `other` is left empty
    /// so that its memory is freed now.
    mutating func appendRemapped(_ other: inout [Element], sourceMap: [Int], context: StreamContext) {
        reserveCapacity(count + other.count)
        for var s in other {
            s.source = Int32(sourceMap[Int(s.source)])
            guard s.source >= 0 else {
                context.counters.tooManySources += 1
                continue
            }
            append(s)
        }
        other = []
    }
}

extension OncePerDaySample: SourceIndexed {}
extension StandRecord: SourceIndexed {}
extension WorkoutSpan: SourceIndexed {}
