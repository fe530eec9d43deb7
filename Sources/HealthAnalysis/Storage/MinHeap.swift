/// An element of a `MinHeap`: ordered by `heapKey`.
protocol MinHeapElement {
    associatedtype HeapKey: Comparable
    var heapKey: HeapKey { get }
}

/// A binary min-heap by `heapKey`. Elements with equal keys leave in a fixed order for a given
/// sequence of calls (the sweeps' floating-point sums rely on that to be repeatable).
struct MinHeap<Element: MinHeapElement> {
    private(set) var items: [Element] = []

    init() {}

    /// Inserts `elements` one by one, in their order.
    init(_ elements: [Element]) {
        for e in elements { insert(e) }
    }

    /// The element with the smallest key.
    var first: Element? { items.first }

    mutating func insert(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            if items[parent].heapKey <= items[i].heapKey { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    mutating func removeFirst() {
        let last = items.removeLast()
        guard !items.isEmpty else { return }
        items[0] = last
        siftDown()
    }

    /// Replaces the first element (its key may grow) and restores the order.
    mutating func replaceFirst(_ e: Element) {
        items[0] = e
        siftDown()
    }

    private mutating func siftDown() {
        var i = 0
        let n = items.count
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var m = i
            if l < n && items[l].heapKey < items[m].heapKey { m = l }
            if r < n && items[r].heapKey < items[m].heapKey { m = r }
            if m == i { return }
            items.swapAt(i, m)
            i = m
        }
    }
}
