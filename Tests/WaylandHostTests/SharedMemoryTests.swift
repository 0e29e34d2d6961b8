// A spare window buffer's memory made ahead on another thread: the frame that takes it must not
// pay the page faults the thread was there to take.
import Dispatch
import Glibc
import Testing
import Wayland

@Suite("Window buffers' shared memory")
struct SharedMemoryTests {
    /// Minor page faults this thread takes while `body` runs.
    static func pageFaults(_ body: () -> Void) -> Int {
        // RUSAGE_THREAD (1), which Glibc's module leaves out (it is a GNU extension).
        let thisThread = __rusage_who_t(1)
        var before = rusage(), after = rusage()
        getrusage(thisThread, &before)
        body()
        getrusage(thisThread, &after)
        return after.ru_minflt - before.ru_minflt
    }

    static func writeEveryByte(_ memory: SharedMemory) {
        memory.base.initializeMemory(as: UInt8.self, repeating: 0xA5, count: memory.size)
    }

    @Test("Memory faulted in on another thread takes no page fault when a frame writes all of it, and reads zero")
    func faultedInAhead() throws {
        let bytes = 1280 * 4 * 960 // a 1024x768 pt window at 125 %
        let pages = bytes / Int(sysconf(Int32(_SC_PAGESIZE)))

        let fresh = try SharedMemory(size: bytes, name: "test-fresh")
        let freshFaults = Self.pageFaults { Self.writeEveryByte(fresh) }
        #expect(freshFaults >= pages / 2, "new shared memory faults as it is first written: \(freshFaults) of \(pages) pages")

        let ahead = try SharedMemory(size: bytes, name: "test-ahead")
        DispatchQueue.global().sync { ahead.faultIn() }
        let aheadFaults = Self.pageFaults { Self.writeEveryByte(ahead) }
        #expect(aheadFaults < 16, "\(aheadFaults) page faults writing memory faulted in ahead (\(pages) pages)")

        // Apart: reading the pages would fault them in as well as the thread does.
        let read = try SharedMemory(size: bytes, name: "test-read")
        read.faultIn()
        #expect(!UnsafeRawBufferPointer(start: read.base, count: read.size).contains { $0 != 0 }, "faulting in changes no byte")
    }
}
