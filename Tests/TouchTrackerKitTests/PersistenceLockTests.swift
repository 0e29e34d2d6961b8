// One app per drawing: the lock beside the drawing file.
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Persistence: one app per drawing")
struct PersistenceLockTests {
    @Test("A second app on the same drawing finds it held and learns which process holds it")
    func secondOpenIsRefused() throws {
        let folder = TemporaryFolder()
        let drawing = folder.file("drawing.json")
        guard case .acquired(let first) = DrawingLock.acquire(for: drawing) else {
            Issue.record("the first open did not get the lock")
            return
        }
        guard case .held(let pid) = DrawingLock.acquire(for: drawing) else {
            Issue.record("a second open of the same drawing got the lock too")
            return
        }
        #expect(pid == getpid())
        // Another drawing in the same folder is free.
        guard case .acquired = DrawingLock.acquire(for: folder.file("other.json")) else {
            Issue.record("another drawing in the folder was refused")
            return
        }
        // The lock is a hidden file beside the drawing; the drawing itself is not created by it.
        #expect(first.path == folder.file(".drawing.json.lock"))
        #expect(!folder.names.contains("drawing.json"))
        withExtendedLifetime(first) {}
    }

    @Test("The lock goes with its holder: once released (as at exit or a crash) the drawing opens again")
    func releasedWithItsHolder() {
        let folder = TemporaryFolder()
        let drawing = folder.file("drawing.json")
        var first: DrawingLock?
        if case .acquired(let lock) = DrawingLock.acquire(for: drawing) { first = lock }
        #expect(first != nil)
        #expect(folder.names == [".drawing.json.lock"])
        first = nil
        #expect(folder.names.isEmpty, "the lock file goes with a clean exit")
        guard case .acquired = DrawingLock.acquire(for: drawing) else {
            Issue.record("the drawing stayed locked after its holder let go")
            return
        }
    }

    @Test("A lock file left by a crash (nobody holds it) is taken over")
    func leftByACrash() {
        let folder = TemporaryFolder()
        writeFile(folder.file(".drawing.json.lock"), Array("99999999\n".utf8))
        guard case .acquired = DrawingLock.acquire(for: folder.file("drawing.json")) else {
            Issue.record("a lock file nobody holds kept the drawing closed")
            return
        }
    }

    @Test("A drawing in a missing folder gets the folder and the lock; one where no folder can be made opens unlocked, with the reason")
    func foldersAndFailures() {
        let folder = TemporaryFolder()
        guard case .acquired = DrawingLock.acquire(for: folder.file("new/deeper/drawing.json")) else {
            Issue.record("a missing folder was not created for the lock")
            return
        }
        writeFile(folder.file("plain"), Array("not a folder".utf8))
        guard case .unavailable(let error) = DrawingLock.acquire(for: folder.file("plain/drawing.json")) else {
            Issue.record("a lock under a regular file was expected to be unavailable")
            return
        }
        #expect(error.message.contains(folder.file("plain")))
    }

    @Test("Closing the drawing at the app's end lets go of its lock and removes the lock file, whatever still holds the document")
    func closeReleasesTheLock() throws {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        let document = DrawingDocument(opening: path, clock: ManualClock(), logger: Logger(label: "test"), saveInBackground: false)
        if case .acquired(let lock) = DrawingLock.acquire(for: path) { document.lock = lock }
        #expect(document.lock != nil && folder.names.contains(".drawing.json.lock"))
        #expect(document.close() == nil)
        #expect(!folder.names.contains(".drawing.json.lock"), "\(folder.names)")
        guard case .acquired = DrawingLock.acquire(for: path) else {
            Issue.record("the drawing was still held after closing")
            return
        }
        withExtendedLifetime(document) {}
    }
}
