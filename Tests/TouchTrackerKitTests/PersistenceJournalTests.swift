// The journal as the user relies on it: a new line in a big drawing costs a small append instead
// of a rewrite, and whatever happens (a crash mid-append, a damaged or stale journal, a failing
// disk, quitting) the drawing reopens exactly as it was saved.
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Persistence: journal")
struct PersistenceJournalTests {
    /// A drawing saved through an autosaver on a manual clock, saving on the test's thread.
    final class Session {
        let folder = TemporaryFolder()
        let path: String
        let clock = ManualClock()
        let drawing: Drawing
        let saver: Autosaver
        var journal: String { DrawingJournal.path(for: path) }

        /// Starts with `strokes`, written whole at once (the file gets its token).
        init(strokes: [Stroke] = [], policy: Autosaver.Policy = .journalAlways) {
            path = folder.file("drawing.json")
            drawing = Drawing(strokes: strokes)
            saver = Autosaver(drawing: drawing, path: path, clock: clock, delay: 0.2, inBackground: false, policy: policy)
            saver.setNeedsSave()
            clock.advance(by: 0)
        }

        /// Lets the debounce delay pass, so the pending save happens.
        func save() { clock.advance(by: 0.2) }

        func line(_ x: Double) {
            drawing.add(.line(drawing.makeID(), from: Point(x: x, y: 10.5), to: Point(x: x + 50.25, y: 60)))
        }
    }

    /// Reads the file and its journal as opening does, without changing anything.
    func reopened(_ path: String) -> [Stroke]? { try? DrawingFile.load(path) }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    func modified(_ path: String) -> timespec {
        var info = stat()
        stat(path, &info)
        return info.st_mtim
    }

    /// `count` lines with Weston-like coordinates (multiples of 1/256), ids 1...count.
    static func lines(_ count: Int) -> [Stroke] {
        (0..<count).map { n in
            let x = Double(n % 1000) + Double(n % 256) / 256
            return .line(StrokeID(n + 1), from: Point(x: x, y: 10), to: Point(x: x + 40, y: Double(n / 1000) + 0.5))
        }
    }

    /// A three-line drawing with one line drawn and saved since: a journal of one record.
    func sessionWithOneJournalRecord() throws -> (Session, journal: [UInt8]) {
        let session = Session(strokes: Self.lines(3))
        session.line(1)
        session.save()
        return (session, try #require(readFile(session.journal)))
    }

    @Test("A new line in a big drawing costs an append of about one line; the drawing file is not touched")
    func appendsAreSmall() throws {
        let session = Session(strokes: Self.lines(20_000), policy: Autosaver.Policy())
        let fileBytes = try #require(readFile(session.path))
        #expect(fileBytes.count > Autosaver.Policy().wholeFileBelow, "the drawing is above the journal threshold")
        let before = modified(session.path)
        usleep(20_000)
        session.line(100)
        session.save()
        let report = try #require(session.saver.lastReport)
        #expect(report.kind == .append && report.records == 1)
        let oneLine = DrawingFormat.encode([session.drawing.strokes.last!]).bytes.count
        #expect(report.bytes < oneLine + 150, "\(report.bytes) bytes for a line of about \(oneLine)")
        #expect(readFile(session.path) == fileBytes)
        let after = modified(session.path)
        #expect(after.tv_sec == before.tv_sec && after.tv_nsec == before.tv_nsec)
        #expect(identical(reopened(session.path) ?? [], session.drawing.strokes))
    }

    @Test("Draws, deletes, moves, undo and redo reopen exactly from the file and its journal")
    func everyChangeReopens() throws {
        let session = Session(strokes: randomDrawing(seed: 3, maxStrokes: 8))
        let drawing = session.drawing
        for x in [10.0, 20, 30] { session.line(x) }
        session.save()
        let ids = drawing.strokes.map(\.id)
        drawing.remove(ids[1])
        drawing.update(ids.last!) { $0.points = StrokePoints($0.points.map { Point(x: $0.x + 0.1, y: $0.y - 1e-300) }) }
        drawing.update(ids.first!) { $0.color = Color(red: 1, green: 0.5, blue: 0.25, alpha: 0.75) }
        session.save()
        drawing.undoStack.undo()  // the recolour
        drawing.undoStack.undo()  // the move
        drawing.undoStack.undo()  // the delete: the stroke goes back to its place, not on top
        session.save()
        drawing.undoStack.redo()
        drawing.undoStack.redo()
        session.save()
        #expect(session.saver.lastReport?.kind == .append)
        #expect(exists(session.journal))
        #expect(session.saver.status == .saved)
        #expect(identical(reopened(session.path) ?? [], drawing.strokes))
    }

    @Test("A clear and its undo are written whole, and later changes go to a new journal")
    func clearWritesWhole() throws {
        let session = Session(strokes: Self.lines(50))
        session.line(5)
        session.save()
        #expect(exists(session.journal))
        session.drawing.removeAll()
        session.save()
        #expect(session.saver.lastReport?.kind == .wholeFile)
        #expect(!exists(session.journal), "the whole file holds everything")
        #expect(reopened(session.path)?.isEmpty == true)
        session.drawing.undoStack.undo()
        session.save()
        session.line(7)
        session.save()
        #expect(session.saver.lastReport?.kind == .append)
        #expect(identical(reopened(session.path) ?? [], session.drawing.strokes))
        #expect(session.drawing.strokes.count == 52)
    }

    @Test("A drawing survives a crash in the middle of an append: the torn last line is ignored, without a banner")
    func tornLastLine() throws {
        let session = Session(strokes: Self.lines(10))
        session.line(1)
        session.save()
        let expected = session.drawing.strokes
        session.line(2)
        session.save()
        let journal = try #require(readFile(session.journal))
        // The crash cut the last record in the middle.
        #expect(truncate(session.journal, off_t(journal.count - 20)) == 0)
        let clock = ManualClock()
        let document = DrawingDocument(opening: session.path, clock: clock, logger: Logger(label: "test"), saveInBackground: false)
        let controller = DrawViewController(drawing: document.drawing)
        document.noticeDisplay = controller
        #expect(identical(document.drawing.strokes, expected))
        #expect(document.damagedJournal == nil && document.unreadable == nil)
        #expect(!controller.banner.isShowing)
        // Soon after opening the journal is folded into the file.
        clock.advance(by: DrawingDocument.compactionDelay)
        #expect(!exists(session.journal))
        #expect(identical((try? DrawingFormat.decode(readFile(session.path) ?? [])) ?? [], expected))
    }

    @Test("A damaged record stops the replay there: the changes before it are kept and the journal is moved aside")
    func damagedRecord() throws {
        let session = Session(strokes: Self.lines(10))
        for x in [1.0, 2, 3, 4] {
            session.line(x)
            session.save()
        }
        let journal = try #require(readFile(session.journal))
        var lines = journal.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        // Line 3 (the second record) loses a bracket.
        lines[2].removeAll { $0 == UInt8(ascii: "]") }
        let damaged = Array(lines.joined(separator: [0x0A]))
        writeFile(session.journal, damaged)
        let clock = ManualClock()
        let document = DrawingDocument(opening: session.path, clock: clock, logger: Logger(label: "test"), saveInBackground: false)
        let controller = DrawViewController(drawing: document.drawing)
        document.noticeDisplay = controller
        #expect(identical(document.drawing.strokes, Array(session.drawing.strokes.prefix(11))))
        let problem = try #require(document.damagedJournal)
        #expect(problem.records == 1)
        #expect(problem.problem.hasPrefix("line 3, column "), "\(problem.problem)")
        let movedTo = try #require(problem.movedTo)
        #expect(DrawingFile.name(of: movedTo).hasPrefix("drawing.json.unreadable-") && movedTo.hasSuffix(".journal"))
        #expect(readFile(movedTo) == damaged, "kept as it was")
        #expect(problem.message.hasPrefix("cannot replay \(session.journal): line 3, column "))
        #expect(problem.message.contains("restored \(session.path) with the 1 change before it; moved the journal to \(movedTo)"))
        #expect(controller.banner.isShowing && controller.banner.style == .error)
        #expect(controller.banner.message.hasPrefix("The last changes to drawing.json could not all be restored (line 3, column "))
        // What was replayed is saved at once.
        clock.advance(by: 0)
        #expect(!exists(session.journal))
        #expect(identical(reopened(session.path) ?? [], document.drawing.strokes))
    }

    @Test("A journal whose records do not fit its file is damaged too")
    func recordThatDoesNotFit() throws {
        var (session, journal) = try sessionWithOneJournalRecord()
        journal += Array("{\"remove\":999}\n{\"remove\":1}\n".utf8)
        writeFile(session.journal, journal)
        let opened = DrawingFile.open(session.path)
        #expect(identical(opened.strokes, session.drawing.strokes), "the records before the bad one")
        #expect(opened.damagedJournal?.problem == "line 3: stroke #999 is removed but is not in the drawing")
        #expect(opened.needsSave)
        #expect(!exists(session.journal))
    }

    @Test("A journal left from an earlier write of the file (a crash during compaction) is removed, never replayed")
    func staleJournal() throws {
        let (session, journal) = try sessionWithOneJournalRecord()
        // The file was written whole again (a new token) but the crash came before the journal
        // was removed.
        try DrawingFile.writeAtomically(DrawingFormat.encode(session.drawing.strokes, token: "0123456789abcdef").bytes, to: session.path)
        let opened = DrawingFile.open(session.path)
        #expect(identical(opened.strokes, session.drawing.strokes), "the journal's line is not added twice")
        #expect(opened.removedStaleJournal == session.journal && opened.damagedJournal == nil)
        #expect(!exists(session.journal))
        // A file without a token (written by an older TouchTracker) has no journal either.
        writeFile(session.journal, journal)
        try DrawingFile.writeAtomically(DrawingFormat.encode(session.drawing.strokes).bytes, to: session.path)
        #expect(identical(DrawingFile.open(session.path).strokes, session.drawing.strokes))
        #expect(!exists(session.journal))
    }

    @Test("The journal is folded into the file once it passes the threshold; the result reopens the same with no journal")
    func compactionAtThreshold() throws {
        var policy = Autosaver.Policy.journalAlways
        policy.journalMinimum = 2000
        let session = Session(strokes: Self.lines(10), policy: policy)
        var kinds: [Autosaver.SaveKind] = []
        var journalSizes: [Int] = []
        for n in 0..<30 {
            session.line(Double(n))
            session.save()
            kinds.append(session.saver.lastReport!.kind)
            journalSizes.append(session.saver.disk?.journalBytes ?? -1)
        }
        let whole = try #require(kinds.firstIndex(of: .wholeFile), "\(kinds)")
        #expect(whole > 5 && kinds[..<whole].allSatisfy { $0 == .append })
        #expect(journalSizes[whole - 1] <= 2000 && journalSizes[whole] == 0)
        #expect(kinds[whole + 1] == .append, "a new journal for the new file")
        session.drawing.remove(StrokeID(50))
        session.save()
        #expect(session.saver.saveNow() == nil, "quitting folds the journal in")
        #expect(!exists(session.journal))
        #expect(identical((try? DrawingFormat.decode(readFile(session.path) ?? [])) ?? [], session.drawing.strokes))
    }

    @Test("A failing append reports the failure; once writing works again nothing is lost or duplicated")
    func failingAppend() throws {
        let session = Session(strokes: Self.lines(5))
        session.saver.retryDelays = [1]
        session.line(1)
        session.save()
        // Something takes the journal's place (the same failure as a full disk, for the append).
        unlink(session.journal)
        mkdir(session.journal, 0o755)
        session.line(2)
        session.save()
        guard case .failing(let error) = session.saver.status else {
            Issue.record("status \(session.saver.status)")
            return
        }
        #expect(error.path == session.journal)
        session.line(3)  // a change while failing
        rmdir(session.journal)
        session.clock.advance(by: 1)
        #expect(session.saver.status == .saved)
        #expect(session.saver.lastReport?.kind == .wholeFile, "after a failure the whole file is written")
        let saved = try #require(reopened(session.path))
        #expect(identical(saved, session.drawing.strokes))
        #expect(saved.count == 8 && Set(saved.map(\.id)).count == 8)
    }

    @Test("Quitting writes the drawing as one file, which any reader reads in full")
    func quittingWritesOneFile() throws {
        let session = Session(strokes: Self.lines(5))
        session.line(1)
        session.save()
        session.line(2)  // not saved yet
        #expect(session.saver.saveNow() == nil)
        #expect(!exists(session.journal))
        #expect(session.folder.names == ["drawing.json"])
        #expect(identical((try? DrawingFormat.decode(readFile(session.path) ?? [])) ?? [], session.drawing.strokes))
    }

    @Test("Small drawings stay one plain file: no journal below the threshold")
    func smallDrawingsHaveNoJournal() {
        let session = Session(strokes: Self.lines(5), policy: Autosaver.Policy())
        session.line(1)
        session.save()
        #expect(session.saver.lastReport?.kind == .wholeFile)
        #expect(session.folder.names == ["drawing.json"])
    }

    @Test("A file's token reads back, and readers that do not know it get the same strokes")
    func tokenInFile() throws {
        let strokes = randomDrawing(seed: 11)
        let bytes = DrawingFormat.encode(strokes, token: "00112233aabbccdd").bytes
        let decoded = try DrawingFormat.decodeWithToken(bytes)
        #expect(decoded.token == "00112233aabbccdd" && identical(decoded.strokes, strokes))
        #expect(try DrawingFormat.decodeWithToken(DrawingFormat.encode(strokes).bytes).token == nil)
        #expect(decodeError("{\"format\": \"touchtracker-drawing\", \"version\": 1, \"token\": \"a\", \"token\": \"b\", \"strokes\": []}")
            == "line 1, column 64: the key \"token\" appears twice")
    }

    @Test("Whatever a damaged journal holds, replaying it gives a drawing within the limits or stops with a one-line problem")
    func damagedJournalsNeverCrash() throws {
        let base = Self.lines(5)
        let token = "00112233aabbccdd"
        var moved = base[0]
        moved.points[1].x += 3.5
        let records: [DrawingJournal.Record] = [
            .add(.line(StrokeID(6), from: Point(x: 1, y: 2), to: Point(x: 3, y: 4)), at: 5), .remove(StrokeID(2)),
            .update(moved), .add(Stroke(id: StrokeID(7), kind: .freehand, points: [Point(x: 0.1, y: -0.0)]), at: 0),
        ]
        let journal = DrawingJournal.header(token: token) + (try #require(DrawingJournal.encode(records)))
        guard case .replayed(let clean) = DrawingJournal.replay(journal, onto: base, token: token) else {
            Issue.record("the journal was called stale")
            return
        }
        #expect(clean.records == 4 && clean.problem == nil && clean.tornBytes == 0)
        #expect(clean.strokes.map(\.id.rawValue) == [7, 1, 3, 4, 5, 6] && clean.strokes[1] == moved)
        var limits = DrawingFormat.Limits()
        limits.maxStrokes = 7
        limits.maxTotalPoints = 15
        for seed in UInt64(0)..<3000 {
            var random = SplitMix(seed: seed)
            var bytes = journal
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.insert(Array("{}[],:\"0123456789-.e\n ".utf8)[Int(random.next() % 22)], at: at)
                case 2: bytes.remove(at: at)
                default: bytes.removeLast(bytes.count - at)
                }
                if bytes.isEmpty { break }
            }
            guard case .replayed(let replay) = DrawingJournal.replay(bytes, onto: base, token: token, limits: limits) else { continue }
            #expect(replay.records <= 4 + 1, "seed \(seed)")
            #expect(Set(replay.strokes.map(\.id)).count == replay.strokes.count, "seed \(seed): unique ids")
            #expect(replay.strokes.count <= limits.maxStrokes && replay.strokes.reduce(0) { $0 + $1.points.count } <= limits.maxTotalPoints,
                    "seed \(seed)")
            #expect(replay.strokes.allSatisfy { DrawingFormat.problem(with: $0, limits: limits) == nil }, "seed \(seed)")
            if let problem = replay.problem { #expect(!problem.isEmpty && !problem.contains("\n"), "seed \(seed): \(problem)") }
        }
    }

    @Test("Any mix of changes, saves, restarts and compactions reopens as the drawing in memory")
    func randomHistories() throws {
        var appends = 0, wholeFiles = 0
        for seed in UInt64(1)...40 {
            var random = SplitMix(seed: seed)
            let folder = TemporaryFolder()
            let path = folder.file("drawing.json")
            var policy = Autosaver.Policy.journalAlways
            policy.journalMinimum = 300 + Int(random.next() % 3000)
            var clock = ManualClock()
            var document = DrawingDocument(opening: path, clock: clock, logger: Logger(label: "test"), saveInBackground: false)
            document.autosaver.policy = policy
            var pool = randomDrawing(seed: seed &* 7919, maxStrokes: 30)
            for step in 0..<60 {
                let drawing = document.drawing
                switch random.next() % 12 {
                case 0, 1, 2:
                    if var stroke = pool.popLast() {
                        stroke.id = drawing.makeID()
                        drawing.add(stroke)
                    } else {
                        drawing.add(.line(drawing.makeID(), from: Point(x: 1, y: 2), to: Point(x: 3, y: Double(step))))
                    }
                case 3:
                    if !drawing.strokes.isEmpty {
                        drawing.remove(drawing.strokes[Int(random.next() % UInt64(drawing.strokes.count))].id)
                    }
                case 4:
                    if !drawing.strokes.isEmpty {
                        let id = drawing.strokes[Int(random.next() % UInt64(drawing.strokes.count))].id
                        let dx = awkwardDouble(&random, limit: 100)
                        drawing.update(id) { $0.points = StrokePoints($0.points.map { Point(x: max(-1e6, min(1e6, $0.x + dx)), y: $0.y) }) }
                    }
                case 5, 6: drawing.undoStack.undo()
                case 7: drawing.undoStack.redo()
                case 8: if random.next() % 4 == 0 { drawing.removeAll() }
                case 9:
                    // A crash or kill: the next session opens what is on disk.
                    clock.advance(by: 0.2)
                    let expected = drawing.strokes
                    clock = ManualClock()
                    document = DrawingDocument(opening: path, clock: clock, logger: Logger(label: "test"), saveInBackground: false)
                    document.autosaver.policy = policy
                    let same = identical(document.drawing.strokes, expected)
                    #expect(same, "seed \(seed), step \(step): restart")
                    #expect(document.damagedJournal == nil && document.unreadable == nil, "seed \(seed), step \(step)")
                    if random.next() % 2 == 0 { clock.advance(by: DrawingDocument.compactionDelay) }
                case 10:
                    _ = document.autosaver.saveNow()
                default:
                    break
                }
                if random.next() % 3 != 0 {
                    clock.advance(by: 0.2)
                    switch document.autosaver.lastReport?.kind {
                    case .append?: appends += 1
                    case .wholeFile?: wholeFiles += 1
                    case nil: break
                    }
                    let same = identical(reopened(path) ?? [], document.drawing.strokes)
                    #expect(same, "seed \(seed), step \(step)")
                }
            }
            #expect(document.close() == nil)
            let same = identical((try? DrawingFormat.decode(readFile(path) ?? [])) ?? [], document.drawing.strokes)
            #expect(same, "seed \(seed): closed")
            #expect(folder.names == ["drawing.json"], "seed \(seed)")
        }
        #expect(appends > 500 && wholeFiles > 100, "both kinds of save happen: \(appends) appends, \(wholeFiles) whole files")
    }
}

extension Autosaver.Policy {
    /// Journals at any size, so small test drawings exercise it.
    static var journalAlways: Self {
        var policy = Self()
        policy.wholeFileBelow = 0
        return policy
    }
}
