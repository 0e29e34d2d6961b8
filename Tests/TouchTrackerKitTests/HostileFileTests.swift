// Files and folders as an attacker, or an archive, might leave them beside a drawing: links where
// the app writes, pipes where it reads, tokens that break JSON, journals built to be slow. Each
// test names what a user would lose or suffer if it failed.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Limits
import Logging
import Testing
import TouchKit
@testable import TouchTrackerKit

@Suite("Persistence: hostile files and folders")
struct HostileFileTests {
    static let victimText = "export PATH=$HOME/bin:$PATH\n"

    @Test("A lock file planted as a link or a hard link to another file leaves that file untouched")
    func lockNeverWritesThroughLinks() throws {
        let folder = TemporaryFolder()
        let victim = folder.file("victim.txt")
        writeFile(victim, Self.victimText)
        symlink(victim, folder.file(".linked.json.lock"))
        guard case .unavailable(let error) = DrawingLock.acquire(for: folder.file("linked.json")) else {
            Issue.record("a lock through a symbolic link was taken")
            return
        }
        #expect(error.message.contains("symbolic link"), "\(error.message)")
        link(victim, folder.file(".hard.json.lock"))
        guard case .unavailable(let hard) = DrawingLock.acquire(for: folder.file("hard.json")) else {
            Issue.record("a lock on a file with another name was taken")
            return
        }
        #expect(hard.message.contains("other names"), "\(hard.message)")
        #expect(readFile(victim) == Array(Self.victimText.utf8))
    }

    @Test("Two names of one drawing (a linked folder, a relative path) resolve to one path, so one lock")
    func oneDrawingOneLock() throws {
        let folder = TemporaryFolder()
        mkdir(folder.file("real"), 0o700)
        symlink(folder.file("real"), folder.file("alias"))
        // Not there yet, and there.
        for create in [false, true] {
            if create { writeFile(folder.file("real/d.json"), "{}") }
            let direct = DrawingFile.absolute(folder.file("real/d.json"))
            let linked = DrawingFile.absolute(folder.file("alias/d.json"))
            #expect(direct == linked, "created: \(create)")
            guard case .acquired(let held) = DrawingLock.acquire(for: direct) else {
                Issue.record("the first name was not locked")
                continue
            }
            guard case .held = DrawingLock.acquire(for: linked) else {
                Issue.record("the second name of the same drawing got its own lock (created: \(create))")
                continue
            }
            _ = held
        }
    }

    @Test("A drawing opened through a link to a file that is not a drawing leaves that file where it is")
    func linkToAnotherFileIsNotMovedAside() throws {
        let folder = TemporaryFolder(), rescue = TemporaryFolder()
        let victim = folder.file("bashrc")
        writeFile(victim, Self.victimText)
        symlink(victim, folder.file("x.touchtracker"))
        let opened = DrawingFile.open(folder.file("x.touchtracker"), rescueFolders: [rescue.path])
        let unreadable = try #require(opened.unreadable)
        #expect(unreadable.movedTo == nil)
        #expect(unreadable.message.contains("symbolic link"), "\(unreadable.message)")
        #expect(readFile(victim) == Array(Self.victimText.utf8))
        #expect(opened.savePath.hasPrefix(rescue.path + "/"))
        #expect(folder.names.sorted() == ["bashrc", "x.touchtracker"])
    }

    @Test("A save token with a quote: the journal is readable, and such a token is not carried on")
    func tokenWithQuote() throws {
        let token = "a\"b\\c"
        let header = DrawingJournal.header(token: token)
        let stroke = Stroke(id: StrokeID(7), points: [Point(x: 1, y: 2), Point(x: 30, y: 40)], width: 4)
        let records = try #require(DrawingJournal.encode([.add(stroke, at: 0)]))
        guard case .replayed(let replay) = DrawingJournal.replay(header + records, onto: [], token: token) else {
            Issue.record("the journal of a quoted token was taken for another file's")
            return
        }
        #expect(replay.problem == nil && replay.strokes.map(\.id) == [StrokeID(7)], "\(replay.problem ?? "")")
        // A file that carries such a token gets a token of the app's own at its first save.
        let folder = TemporaryFolder()
        let encoded = DrawingFormat.encode([stroke], token: token).bytes
        #expect(try DrawingFormat.decodeWithToken(encoded).token == token)
        writeFile(folder.file("d.json"), encoded)
        let opened = DrawingFile.open(folder.file("d.json"))
        #expect(opened.unreadable == nil && opened.strokes.count == 1)
        #expect(opened.disk == nil)
        #expect(DrawingJournal.isPlainToken(DrawingJournal.newToken()))
    }

    @Test("A string that is not UTF-8 is refused, not decoded into a longer one the writer cannot write back (found by fuzzing)")
    func stringsAreUTF8() throws {
        let token = Array("{\"format\":\"touchtracker-drawing\",\"version\":1,\"token\":\"3f".utf8)
            + [UInt8](repeating: 0xE4, count: 40) + Array("\",\"strokes\":[]}".utf8)
        #expect(throws: DrawingParseError.self) { try DrawingFormat.decodeWithToken(token) }
        do {
            _ = try DrawingFormat.decodeWithToken(token)
        } catch {
            #expect(error.message.contains("the save token is not valid UTF-8"), "\(error.message)")
        }
    }

    @Test("A journal planted as a link is replaced, never written through")
    func journalNeverWritesThroughLinks() throws {
        let folder = TemporaryFolder()
        let victim = folder.file("victim.txt")
        writeFile(victim, Self.victimText)
        let journal = folder.file("d.json.journal")
        symlink(victim, journal)
        try DrawingJournal.append(DrawingJournal.header(token: "0123"), to: journal, expectedSize: 0)
        #expect(readFile(victim) == Array(Self.victimText.utf8))
        var info = stat()
        #expect(lstat(journal, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(fileMode(journal) == 0o600)
        // Appending to an existing journal does not follow a link either.
        unlink(journal)
        symlink(victim, journal)
        #expect(throws: FileIOError.self) {
            try DrawingJournal.append(Array("{\"remove\":1}\n".utf8), to: journal, expectedSize: Self.victimText.utf8.count)
        }
        #expect(readFile(victim) == Array(Self.victimText.utf8))
    }

    @Test("Export writes through a new temporary file: links planted under its names are not followed")
    func exportNeverWritesThroughLinks() throws {
        let folder = TemporaryFolder()
        let victim = folder.file("victim.txt")
        writeFile(victim, Self.victimText)
        // The names a temporary file could take, all taken by links to the victim.
        for counter in 0...64 { symlink(victim, folder.file(".out.png.tmp-\(getpid())-\(counter)")) }
        symlink(victim, folder.file(".out.png.tmp-\(getpid())"))
        let strokes = [Stroke(id: StrokeID(1), points: [Point(x: 1, y: 2), Point(x: 30, y: 40)], width: 4)]
        do {
            try DrawingExporter.writePNG(strokes, to: folder.file("out.png"))
        } catch {
            // Refusing is fine; writing through is not.
        }
        #expect(readFile(victim) == Array(Self.victimText.utf8))
        try DrawingExporter.writePNG(strokes, to: folder.file("clean.png"))
        #expect(readFile(folder.file("clean.png"))?.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test("A name the Save dialog did not ask about is never replaced: the picture takes a numbered name")
    func exportAsExtensionKeepsExistingFile() throws {
        let folder = TemporaryFolder()
        #expect(DrawingFile.freePath(folder.file("report.png")) == folder.file("report.png"))
        writeFile(folder.file("report.png"), "mine")
        #expect(DrawingFile.freePath(folder.file("report.png")) == folder.file("report 2.png"))
        writeFile(folder.file("report 2.png"), "mine too")
        #expect(DrawingFile.freePath(folder.file("report.png")) == folder.file("report 3.png"))
    }

    @Test("Named pipes where the drawing, its journal, the preferences or the last-drawing memory should be do not block opening")
    func pipesDoNotBlock() throws {
        let folder = TemporaryFolder()
        mkfifo(folder.file("pipe.json"), 0o600)
        writeFile(folder.file("good.json"), Array(DrawingFormat.encode([], token: "00ff").bytes))
        mkfifo(folder.file("good.json.journal"), 0o600)
        mkfifo(folder.file("prefs"), 0o600)
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var results: [String?] = []
        let root = folder.path
        DispatchQueue.global().async {
            let pipe = DrawingFile.open(root + "/pipe.json", rescueFolders: [root])
            let journal = DrawingFile.open(root + "/good.json")
            let prefs = Result { try DrawingFile.read(root + "/prefs", maxBytes: Limit.settingsFileBytes) }
            results = [pipe.unreadable?.problem, journal.damagedJournal?.problem,
                       { if case .failure(let error) = prefs { return "\(error)" } else { return nil } }()]
            finished.signal()
        }
        let answered = finished.wait(timeout: .now() + 10) == .success
        #expect(answered, "opening a named pipe blocked")
        guard answered else { return }
        #expect(results[0] == "it is not a regular file")
        #expect(results[1] == "it is not a regular file")
        #expect(results[2]?.contains("it is not a regular file") == true, "\(results[2] ?? "nil")")
    }

    @Test("A journal of adds at the bottom replays in the right order, in time linear in its records")
    func journalReplayIsNotQuadratic() throws {
        /// The journal of `count` adds at place 0, every third followed by a remove from the middle.
        func journal(_ count: Int) -> [UInt8] {
            var bytes = DrawingJournal.header(token: "00ff")
            for n in 1...count {
                let stroke = Stroke(id: StrokeID(n), points: [Point(x: Double(n % 500), y: 1), Point(x: 2, y: 3)], width: 2)
                bytes += DrawingJournal.encode([.add(stroke, at: 0)])!
                if n % 3 == 0 { bytes += DrawingJournal.encode([.remove(StrokeID(n / 2))])! }
            }
            return bytes
        }
        /// Replays, returning the strokes' ids and this thread's CPU seconds (not the wall clock:
        /// other tests share the machine).
        func replay(_ bytes: [UInt8]) -> (ids: [Int], seconds: Double) {
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
            let reading = DrawingJournal.replay(bytes, onto: [], token: "00ff")
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
            guard case .replayed(let replay) = reading, replay.problem == nil else { return ([], 0) }
            let seconds = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
            return (replay.strokes.map(\.id.rawValue), seconds)
        }
        let count = 40_000
        let small = replay(journal(count / 4)), large = replay(journal(count))
        // Each add goes under all before it, and a remove keeps the others' order: newest first,
        // less the removed.
        let removed = Set((1...count).filter { $0 % 3 == 0 }.map { $0 / 2 })
        #expect(large.ids == (1...count).reversed().filter { !removed.contains($0) })
        // Four times the records: about four times the work. Quadratic work (an array re-indexed
        // from each record's place, 40 s for this journal) makes it sixteen.
        #expect(large.seconds < 8 * small.seconds, "\(small.seconds) s for \(count / 4) records, \(large.seconds) s for \(count)")
    }

    @Test("A journal larger than any the app writes is set aside, the drawing kept")
    func oversizedJournal() throws {
        let folder = TemporaryFolder()
        let path = folder.file("d.json")
        writeFile(path, Array(DrawingFormat.encode([], token: "00ff").bytes))
        writeFile(path + ".journal", DrawingJournal.header(token: "00ff"))
        truncate(path + ".journal", off_t(Limit.journalBytes + 1))  // sparse
        let opened = DrawingFile.open(path)
        #expect(opened.damagedJournal?.problem.contains("more than the 32 MiB limit") == true,
                "\(opened.damagedJournal?.problem ?? "nil")")
    }

    @Test("A picture of a drawing that reaches a million points out is scaled to at most the pixel limit")
    func exportAreaIsBounded() throws {
        let far = Stroke(id: StrokeID(1), points: [Point(x: 0, y: 0), Point(x: 1e6, y: 1e6)], width: 4)
        let (size, scale, _) = DrawingExporter.page(for: [far])
        #expect(size.width * size.height <= Double(Limit.rasterPixels))
        #expect(scale < 0.01)
        let tall = Stroke(id: StrokeID(2), points: [Point(x: 0, y: 0), Point(x: 10, y: 1e6)], width: 4)
        #expect(DrawingExporter.page(for: [tall]).size.height <= Double(Limit.rasterSide))
        // A zigzag across the plane: its line length, not its page, bounds the picture's work.
        let zigzag = Stroke(id: StrokeID(3), kind: .freehand,
                            points: (0..<10_000).map { Point(x: $0 % 2 == 0 ? 0 : 1e6, y: Double($0 % 7) * 1e5) })
        let bounded = DrawingExporter.page(for: [zigzag])
        #expect(DrawingExporter.lineLength(of: zigzag) * bounded.scale <= Double(Limit.pictureLinePixels))
        // An ordinary drawing keeps its size.
        let ordinary = (1...1000).map { Stroke(id: StrokeID($0), points: [Point(x: 0, y: Double($0)), Point(x: 1000, y: 700)]) }
        #expect(DrawingExporter.page(for: ordinary).scale == 1)
    }

    @Test("New drawings, journals and rescue files are private (0600) whatever the umask")
    func newFilesArePrivate() throws {
        let folder = TemporaryFolder()
        let old = umask(0o022)
        defer { umask(old) }
        let path = folder.file("new.json")
        try DrawingFile.writeAtomically(DrawingFormat.encode([]).bytes, to: path)
        #expect(fileMode(path) == 0o600)
        try DrawingJournal.append(DrawingJournal.header(token: "00ff"), to: path + ".journal", expectedSize: 0,
                                  mode: DrawingFile.mode(of: folder.file("missing.json")))
        #expect(fileMode(path + ".journal") == 0o600)
        // An existing file keeps its mode.
        chmod(path, 0o644)
        try DrawingFile.writeAtomically(DrawingFormat.encode([]).bytes, to: path)
        #expect(fileMode(path) == 0o644)
    }
}
