import Dispatch
import Synchronization

/// Independent pieces of work (the passes of `finish`, the report's files) spread over a few
/// threads, with results in input order, so that the outcome never depends on which thread did
/// what.
package enum ParallelWork {
    /// `body(i)` for every `i` in `order` (an order of `0 ..< count`, e.g. largest first), on
    /// up to `threads` threads (1: on this thread, in `order`). Returns the results by index.
    /// - Throws: the error of the first item (in index order) whose `body` threw, after every
    ///   item has run.
    package static func map<T>(count: Int, order: [Int], threads: Int, _ body: (Int) throws -> T) throws -> [T] {
        precondition(order.count == count, "ParallelWork.map: the order must list every index once")
        if threads <= 1 || count <= 1 {
            var results: [Result<T, any Error>?] = Array(repeating: nil, count: count)
            for i in order { results[i] = Result { try body(i) } }
            return try results.map { try $0!.get() }
        }
        let results = UnsafeMutableBufferPointer<Result<T, any Error>?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        let next = Atomic<Int>(0)
        // Each index is written by exactly one thread; all are read after concurrentPerform returns.
        // `body` is called from several threads: callers pass work that only reads shared state.
        nonisolated(unsafe) let slots = results
        nonisolated(unsafe) let work = body
        DispatchQueue.concurrentPerform(iterations: min(threads, count)) { _ in
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                let i = order[k]
                slots[i] = Result { try work(i) }
            }
        }
        return try results.map { try $0!.get() }
    }
}
