import Foundation
import Synchronization

/// Runs independent jobs on a fixed number of threads of their own (not Dispatch's pool, whose
/// width is the core count: `--jobs 4` on two cores runs four people at once, as asked).
enum JobPool {
    /// `body(i)` for every index of `order` (an order of `0 ..< count`), on `jobs` threads,
    /// taken in `order`; the results by index.
    static func map<T: Sendable>(count: Int, order: [Int], jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let state = State<T>(count: count, order: order)
        let threads = min(max(1, jobs), count)
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            let thread = Thread {
                while let i = state.take() { state.store(i, body(i)) }
                finished.signal()
            }
            thread.stackSize = 8 << 20  // as a main thread's
            thread.start()
        }
        for _ in 0..<threads { finished.wait() }
        return state.results()
    }

    private final class State<T: Sendable>: Sendable {
        let order: [Int]
        let next = Atomic<Int>(0)
        let slots: Mutex<[T?]>

        init(count: Int, order: [Int]) {
            self.order = order
            slots = Mutex(Array(repeating: nil, count: count))
        }

        func take() -> Int? {
            let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
            return k < order.count ? order[k] : nil
        }

        func store(_ i: Int, _ value: T) { slots.withLock { $0[i] = value } }

        func results() -> [T] { slots.withLock { $0.map { $0! } } }
    }
}

/// One caller at a time (`Batch.run`'s per-person callback).
final class Serial: Sendable {
    private let mutex = Mutex(())
    func run(_ body: () -> Void) { mutex.withLock { _ in body() } }
}
