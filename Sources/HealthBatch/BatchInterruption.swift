import Foundation
import HealthTables

/// What a batch does when it is told to stop (SIGTERM from `scancel`, a time limit or a pod's
/// end; SIGINT from ^C), docs/batch.md §3: it finishes nothing new and leaves nothing
/// half-written. `stop()` (called by the CLI's signal thread, never in a signal handler) makes
/// every person that has not reached its folder swap wait for ever, waits for the swaps under
/// way (at most `swapWaitSeconds`), then removes this process's staging folders, temporary
/// status files and its batch lock. The caller then ends the process with the signal.
///
/// People whose line was printed are done (folder and status record); the others keep their
/// earlier folder and record and are redone by the next run.
public final class BatchInterruption: @unchecked Sendable {
    /// The longest wait for swaps under way, seconds.
    static let swapWaitSeconds: TimeInterval = 5

    private let state = NSCondition()
    private var stopping = false
    private var swapping = 0
    private var output: String?
    private var lock: BatchLock?

    public init() {}

    /// Called by the batch when it holds `lock` on `output` (and with nil when it ends: its
    /// cohort may still be written).
    func running(in output: String?, lock: BatchLock?) {
        state.lock()
        self.output = output
        self.lock = lock
        state.unlock()
    }

    /// Called by each person before its work and at each step of its folder write.
    func step(_ step: OutputStep?) {
        state.lock()
        if case .swapped = step {
            swapping -= 1
            state.broadcast()
        }
        if stopping {
            state.unlock()
            parkForever()
        }
        if case .allStaged = step { swapping += 1 }
        state.unlock()
    }

    /// A person's write that reached `allStaged` ended without `swapped` (the swap failed).
    func swapAbandoned() {
        state.lock()
        swapping -= 1
        state.broadcast()
        state.unlock()
    }

    private func parkForever() -> Never {
        while true { Thread.sleep(forTimeInterval: 3600) }
    }

    /// Stops the batch (see the type's description). Returns when the clean-up is done.
    public func stop() {
        state.lock()
        stopping = true
        let deadline = Date().addingTimeInterval(Self.swapWaitSeconds)
        while swapping > 0, state.wait(until: deadline) {}
        let output = self.output
        let lock = self.lock
        state.unlock()
        guard let output else { return }
        Self.removeLeftovers(of: BatchPlatform.processID, in: output)
        lock?.release()
    }

    /// Removes what process `pid` was making in `output`: staging folders beside the person
    /// folders and the cohort (`.<name>.tmp-<pid>-<hex>`) and temporary status records
    /// (`.status/.<id>.json.tmp-<pid>-<n>`).
    static func removeLeftovers(of pid: Int32, in output: String) {
        let mark = ".tmp-\(pid)-"
        for name in BatchPlatform.names(in: output) where name.hasPrefix(".") && name.contains(mark) {
            BatchPlatform.removeFolderOfFiles(BatchPlatform.join(output, name))
        }
        let status = PersonStatus.folder(in: output)
        for name in BatchPlatform.names(in: status) where name.hasPrefix(".") && name.contains(mark) {
            BatchPlatform.removeFile(BatchPlatform.join(status, name))
        }
    }
}
