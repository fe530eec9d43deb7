extension Array where Element: Comparable {
    /// The first index whose element is not below `key` (`count` if none), by binary search;
    /// the array must be sorted ascending. O(log n).
    func lowerBound(of key: Element) -> Int {
        var lo = 0
        var hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
