// The background save gives way to the event loop on a busy machine.
import Glibc
import Synchronization
import Testing
@testable import TouchTrackerKit

@Suite("Save worker")
struct SaveWorkerTests {
    @Test("Saves run at a lower priority than the event loop's thread (nice 10), which keeps its own")
    func savesYieldTheCPU() {
        let worker = SaveWorker()
        let niceness = Mutex<Int32?>(nil)
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        worker.start {
            niceness.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            return Autosaver.Report(generation: 0, result: .success(()), kind: .append, bytes: 0, strokes: 0, records: 0,
                                    encodeSeconds: 0, writeSeconds: 0, omitted: [], disk: nil)
        }
        worker.waitUntilIdle()
        // Absolute nice 10; a process already nicer keeps its own (lowering it needs privilege).
        #expect(niceness.withLock { $0 } == max(before, 10))
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before)
    }
}
