// The clipboard's transfers (P7) on real pipes, without a compositor: the event loop's poll is
// played here over the same FDWatches, on a manual clock, so a slow, silent or endless peer can be
// staged exactly.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Limits
import Testing
import TouchKit
@testable import WaylandHost

/// One turn of the loop over the watches only: poll without waiting, then dispatch.
private func turn(_ watches: FDWatches) {
    let watched = watches.pollFDs()
    var fds = watched.map(\.fd)
    guard !fds.isEmpty, poll(&fds, nfds_t(fds.count), 0) > 0 else { return }
    watches.dispatch(zip(watched, fds).map { ($0.token, $1) })
}

/// Whether `fd` is still this pipe's end (`inode`). Tests run in parallel in this process, and
/// another may be given the number as soon as it is closed, so the number alone cannot tell.
private func isOpen(_ fd: Int32, inode: ino_t) -> Bool {
    var status = stat()
    return fstat(fd, &status) == 0 && status.st_ino == inode
}

private func inode(_ fd: Int32) -> ino_t {
    var status = stat()
    #expect(fstat(fd, &status) == 0)
    return status.st_ino
}

/// A plain blocking pipe: [read end, write end].
private func makePipe() -> [Int32] {
    var fds: [Int32] = [-1, -1]
    #expect(pipe(&fds) == 0)
    return fds
}

@Suite("Clipboard transfers through the event loop")
struct PipeTransferTests {
    @Test("P7: a writer sends more than a pipe holds as the reader takes it, never blocking, then closes its end")
    func writerFollowsTheReader() {
        let watches = FDWatches(), clock = ManualClock(now: 0)
        let fds = makePipe()
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        var outcome: String?? = nil
        let writer = PipeWriter(fd: fds[1], bytes: bytes, watches: watches, clock: clock) { outcome = .some($0) }
        #expect(!writer.isFinished, "a pipe holds 64 KiB: the rest waits for the reader")
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while received.count < bytes.count {
            turn(watches)
            let n = read(fds[0], &chunk, chunk.count)
            guard n > 0 else { break }
            received += chunk[0..<n]
        }
        turn(watches)
        #expect(received == bytes)
        #expect(outcome == .some(nil) && writer.isFinished && watches.isEmpty)
        #expect(read(fds[0], &chunk, 1) == 0, "the writer closed its end")
        close(fds[0])
    }

    @Test("P7: a reader that takes nothing is dropped after 10 s; one that hangs up is an error, not SIGPIPE")
    func writerGivesUp() {
        signal(SIGPIPE, SIG_IGN)  // as the host does
        let watches = FDWatches(), clock = ManualClock(now: 0)
        var fds = makePipe()
        var outcome: String?
        let stalledPipe = inode(fds[1])
        let stalled = PipeWriter(fd: fds[1], bytes: [UInt8](repeating: 1, count: 1 << 20), watches: watches, clock: clock) { outcome = $0 }
        turn(watches)
        clock.advance(by: 9.9)
        #expect(!stalled.isFinished)
        clock.advance(by: 0.2)
        #expect(stalled.isFinished && outcome == "the reader took nothing for 10 s" && watches.isEmpty)
        #expect(!isOpen(fds[1], inode: stalledPipe))
        close(fds[0])

        fds = makePipe()
        close(fds[0])
        let hungUp = PipeWriter(fd: fds[1], bytes: [1, 2, 3], watches: watches, clock: clock) { outcome = $0 }
        #expect(hungUp.isFinished && outcome?.contains("Broken pipe") == true)
    }

    @Test("P4 P7: a reader collects to the end; stops at its limit; fails after 5 s of silence; closes its fd every time")
    func reader() {
        let watches = FDWatches(), clock = ManualClock(now: 0)
        var readers: [PipeReader] = []  // the clipboard keeps its readers alive so
        func start(_ maxBytes: Int) -> (write: Int32, readIsOpen: () -> Bool, result: () -> PasteboardReadResult?) {
            var fds: [Int32] = [-1, -1]
            #expect(tt_pipe_for_reading(&fds) == 0)
            let pipe = inode(fds[0])
            var result: PasteboardReadResult?
            readers.append(PipeReader(fd: fds[0], maxBytes: maxBytes, watches: watches, clock: clock) { result = $0 })
            return (fds[1], { isOpen(fds[0], inode: pipe) }, { result })
        }
        // To the end.
        let whole = start(1000)
        #expect(write(whole.write, "hello", 5) == 5)
        turn(watches)
        #expect(whole.result() == nil, "not finished until the writer closes")
        close(whole.write)
        turn(watches)
        #expect(whole.result() == .data(Array("hello".utf8)) && !whole.readIsOpen())

        // Past the limit: cut off, however much more would come.
        let endless = start(100_000)
        let block = [UInt8](repeating: 32, count: 65536)
        for _ in 0..<4 where endless.result() == nil {
            _ = write(endless.write, block, block.count)
            turn(watches)
        }
        #expect(endless.result() == .tooLarge(maxBytes: 100_000) && !endless.readIsOpen())
        close(endless.write)

        // Silence.
        let silent = start(1000)
        clock.advance(by: 5.1)
        #expect(silent.result() == .failed("the program holding the clipboard sent nothing for 5 s") && !silent.readIsOpen())
        close(silent.write)
        #expect(watches.isEmpty)
    }

    @Test("P4 P7: a paste has Limit.pasteSeconds in all: a sender trickling a byte at a time is cut off then, not kept open by each byte")
    func readerDeadlineIsTotal() {
        let watches = FDWatches(), clock = ManualClock(now: 0)
        var fds: [Int32] = [-1, -1]
        #expect(tt_pipe_for_reading(&fds) == 0)
        let pipe = inode(fds[0])
        var result: PasteboardReadResult?
        let reader = PipeReader(fd: fds[0], maxBytes: 1000, watches: watches, clock: clock) { result = $0 }
        // A byte every second, for longer than the deadline.
        for _ in 0..<Int(Limit.pasteSeconds) + 3 where result == nil {
            #expect(write(fds[1], "x", 1) == 1)
            turn(watches)
            clock.advance(by: 1)
        }
        #expect(result == .failed("the program holding the clipboard did not send it all within \(Int(Limit.pasteSeconds)) s"))
        #expect(!isOpen(fds[0], inode: pipe) && watches.isEmpty)
        close(fds[1])
        withExtendedLifetime(reader) {}
    }

    @Test("P7: a reader cancelled (a newer paste replaced it) ends at once with a reason and closes its fd")
    func readerCancelled() {
        let watches = FDWatches(), clock = ManualClock(now: 0)
        var fds: [Int32] = [-1, -1]
        #expect(tt_pipe_for_reading(&fds) == 0)
        let pipe = inode(fds[0])
        var results: [PasteboardReadResult] = []
        let reader = PipeReader(fd: fds[0], maxBytes: 1000, watches: watches, clock: clock) { results.append($0) }
        reader.cancel("a newer paste replaced it")
        #expect(results == [.failed("a newer paste replaced it")])
        #expect(!isOpen(fds[0], inode: pipe) && watches.isEmpty)
        clock.advance(by: 10)
        #expect(results.count == 1, "told once")
        close(fds[1])
    }

    @Test("P7: a reader that takes a page at a time is dropped Limit.clipboardSendSeconds after the send began")
    func writerDeadlineIsTotal() {
        signal(SIGPIPE, SIG_IGN)
        let watches = FDWatches(), clock = ManualClock(now: 0)
        let fds = makePipe()
        let writerPipe = inode(fds[1])
        var outcome: String??
        let writer = PipeWriter(fd: fds[1], bytes: [UInt8](repeating: 1, count: 1 << 20), watches: watches, clock: clock) { outcome = .some($0) }
        // A page a second: room for the writer to go on (a pipe takes writes a page at a time).
        var page = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<Int(Limit.clipboardSendSeconds) + 3 where outcome == nil {
            _ = read(fds[0], &page, page.count)
            turn(watches)
            clock.advance(by: 1)
        }
        #expect(outcome == .some("the reader did not take it all within \(Int(Limit.clipboardSendSeconds)) s"))
        #expect(writer.isFinished && !isOpen(fds[1], inode: writerPipe) && watches.isEmpty)
        close(fds[0])
    }

    @Test("P7: an offer lists at most Limit.offerTypes MIME types; those past it are ignored")
    func offerTypesBounded() {
        var types = OfferedTypes()
        for i in 0..<(Limit.offerTypes + 50) { types.add("text/x-\(i)") }
        #expect(types.list.count == Limit.offerTypes)
        #expect(types.list.first == "text/x-0" && types.dropped == 50)
    }
}
