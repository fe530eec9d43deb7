/// The process's allocator settings for a long streaming run (memory).
///
/// glibc's malloc maps a large block on its own and unmaps it when freed, but after each such
/// free it raises that threshold to the freed size (up to 32 MiB), so that later blocks of up to
/// that size come from its heaps, which keep freed space. Arrays that grow by doubling while an
/// export streams (per-record domain state, zone evidence) then leave freed copies behind in
/// every thread's heap, and peak RSS grows with the export's length and with the thread count
/// (measured: 67.8 MB instead of 54.3 MB for `report --threads 2` on a 1,800-day export).
/// Fixing the threshold keeps blocks of 256 KiB or more out of the heaps.
public enum ProcessMemory {
    /// Blocks from this size on are mapped on their own and given back when freed.
    public static let largeBlockBytes = 256 * 1024

    private static let applied: Bool = Platform.mapLargeBlocks(from: largeBlockBytes)

    /// Applies the setting once per process (later calls do nothing). Returns whether the C
    /// library has the setting (glibc); elsewhere nothing changes.
    @discardableResult
    public static func returnLargeBlocksToTheSystem() -> Bool { applied }
}
