// The drawing file format's readers: a drawing file, its journal and the app's own clipboard type
// (a paste is a drawing file's bytes; the app takes no other type, P5).
import TouchKit
import TouchTrackerKit

/// Throws unless `strokes` are a drawing the reader may return within `limits`: each stroke valid,
/// the counts within the limits, no id twice.
private func requireWithinLimits(_ strokes: [Stroke], _ what: String,
                                 limits: DrawingFormat.Limits = .standard) throws(FuzzFailure) {
    try require(strokes.count <= limits.maxStrokes, "\(what): \(strokes.count) strokes, past the limit")
    let points = strokes.reduce(0) { $0 + $1.points.count }
    try require(points <= limits.maxTotalPoints, "\(what): \(points) points, past the limit")
    var ids = Set<StrokeID>()
    for stroke in strokes {
        try require(ids.insert(stroke.id).inserted, "\(what): stroke \(stroke.id) twice")
        if let problem = DrawingFormat.problem(with: stroke, limits: limits) {
            throw FuzzFailure("\(what): stroke \(stroke.id) the writer would leave out: \(problem)")
        }
    }
}

/// Throws unless `strokes` written with `token` read back the same, bit for bit, and write the
/// same bytes again.
private func requireRoundTrip(_ strokes: [Stroke], token: String?, _ what: String) throws(FuzzFailure) {
    let encoded = DrawingFormat.encode(strokes, token: token)
    try require(encoded.omitted.isEmpty, "\(what): the writer left out \(encoded.omitted.map(\.reason))")
    let again: (strokes: [Stroke], token: String?)
    do throws(DrawingParseError) {
        again = try DrawingFormat.decodeWithToken(encoded.bytes)
    } catch {
        throw FuzzFailure("\(what): the reader refuses what the writer wrote: \(error.message)")
    }
    try require(again.token == token, "\(what): token \(String(describing: token)) read back as \(String(describing: again.token))")
    try require(DrawingFormat.encode(again.strokes, token: again.token).bytes == encoded.bytes,
                "\(what): the strokes written read back different")
}

extension FuzzTarget {
    static let drawing = FuzzTarget("drawing", maxLength: 64 << 10, """
        drawing files: a drawing read is within the limits, writes back and reads back bit for bit, \
        then loads into the canvas, which paints it, deletes its top line and undoes that
        """) { bytes throws(FuzzFailure) in
        let read: (strokes: [Stroke], token: String?)
        do throws(DrawingParseError) {
            read = try DrawingFormat.decodeWithToken(bytes)
        } catch {
            try require(!error.message.isEmpty && !error.message.contains("\n"), "error not one line: \(error.message)")
            return .rejected(error.message)
        }
        try requireWithinLimits(read.strokes, "the drawing")
        try requireRoundTrip(read.strokes, token: read.token, "the drawing")

        // As a user would meet it: opened, painted, its top line deleted and restored.
        let stage = Stage(strokes: read.strokes)
        stage.paint()
        if let top = read.strokes.last {
            stage.drawing.remove(top.id)
            stage.paint()
            stage.drawing.undoStack.undo()
            stage.paint()
            try require(canonical(stage.drawing.strokes) == canonical(read.strokes), "deleting a line and undoing it changed the drawing")
            _ = stage.drawing.stroke(near: top.points[0], within: 20)
        }
        return .accepted
    }

    /// The file a journal continues in the `journal` target: three lines, written with this token.
    static let journalBase: [Stroke] = [
        .line(StrokeID(1), from: Point(x: 10, y: 10), to: Point(x: 100, y: 40)),
        Stroke(id: StrokeID(2), kind: .freehand, points: [Point(x: 5, y: 5), Point(x: 6, y: 9), Point(x: 30, y: 12)],
               color: Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 1), width: 4),
        Stroke(id: StrokeID(7), kind: .circle, points: [Point(x: 50, y: 50), Point(x: 90, y: 80)]),
    ]
    static let journalToken = "00c0ffee00c0ffee"

    static let journal = FuzzTarget("journal", maxLength: 256 << 10, """
        drawing journals, replayed onto a three-line drawing: applied only to the file whose token \
        its header names, every record counted, the result within the limits and a file that \
        reads back bit for bit
        """) { bytes throws(FuzzFailure) in
        let end = (bytes.lastIndex(of: 0x0A) ?? -1) + 1
        let header = DrawingJournal.header(token: journalToken)
        switch DrawingJournal.replay(bytes, onto: journalBase, token: journalToken) {
        case .stale:
            try require(!bytes.starts(with: header), "a journal with the file's own header was taken as stale")
            return .rejected("stale: its header does not name the file's token")
        case .replayed(let replay):
            if case .replayed(let other) = DrawingJournal.replay(bytes, onto: journalBase, token: "another-token") {
                try require(other.records == 0, "a journal was applied to a file with another token")
            }
            try require(replay.tornBytes == bytes.count - end, "\(replay.tornBytes) torn bytes, not \(bytes.count - end)")
            // Every whole line after the header is one record.
            let records = max(bytes[..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1, 0)
            try require(replay.records <= records, "\(replay.records) records from \(records) lines")
            try require(replay.problem != nil || replay.records == records,
                        "\(replay.records) of \(records) records applied, and no problem named")
            if let problem = replay.problem {
                try require(!problem.isEmpty && !problem.contains("\n"), "problem not one line: \(problem)")
            }
            try requireWithinLimits(replay.strokes, "the replayed drawing")
            try requireRoundTrip(replay.strokes, token: nil, "the replayed drawing")
            return replay.problem.map(FuzzOutcome.rejected) ?? .accepted
        }
    }

    /// The drawing a paste lands in, in the `clipboard` target: two lines, one of them where the
    /// seeds' first line lies, so that placement shifts it.
    static let pasteBase: [Stroke] = [
        .line(StrokeID(1), from: Point(x: 10, y: 10), to: Point(x: 100, y: 40)),
        .line(StrokeID(2), from: Point(x: 50, y: 50), to: Point(x: 150, y: 150)),
    ]

    static let clipboard = FuzzTarget("clipboard", maxLength: 64 << 10, """
        pastes of the app's clipboard type into a two-line canvas: taken whole as one undoable step \
        within the limits, or refused with one banner line and the drawing untouched; then painted
        """) { bytes throws(FuzzFailure) in
        let stage = Stage(strokes: pasteBase)
        stage.paint()
        let before = canonical(stage.drawing.strokes)
        stage.drawView.pasteArrived(.data(bytes))
        let after = stage.drawing.strokes
        stage.paint()
        if let notice = stage.notices.first {
            try require(stage.notices.count == 1, "a paste gave \(stage.notices.count) banners")
            try require(notice.style == .error && !notice.text.contains("\n"), "a refused paste's banner: \(notice.text)")
            try require(canonical(after) == before && !stage.drawing.undoStack.canUndo, "a refused paste changed the drawing")
            return .rejected(notice.text)
        }
        try require(after.count > pasteBase.count, "a paste that added nothing gave no banner")
        try requireWithinLimits(after, "the drawing after the paste")
        let pasted = canonical(after)
        stage.drawing.undoStack.undo()
        stage.paint()
        try require(canonical(stage.drawing.strokes) == before, "undoing a paste did not restore the drawing")
        stage.drawing.undoStack.redo()
        stage.paint()
        try require(canonical(stage.drawing.strokes) == pasted, "redoing a paste did not bring back the same lines")
        return .accepted
    }
}
