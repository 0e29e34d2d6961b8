// Copy and paste on the canvas (P2-P6): the selected line or the whole drawing goes onto the
// clipboard in TouchTracker's own type, as SVG and as PNG; a paste adds the lines on the clipboard
// as one undoable step, or says in a banner why not, the drawing untouched.
import TouchKit

final class CanvasClipboard {
    private unowned let canvas: DrawView
    /// Told what a copy or paste has to tell the user (the executable shows it in the banner).
    var onNotice: ((String, BannerView.Style) -> Void)?
    /// What a paste may hold: the drawing file's limits (P4).
    var limits = DrawingFormat.Limits.standard
    /// Told of every paste's bytes as they arrive, before they are applied (`--record`).
    var onPasteArrived: ((PasteboardReadResult) -> Void)?
    /// Whether a paste asked for has not arrived yet: until it has, another paste reads nothing,
    /// so Ctrl+V pressed again and again holds one read of up to the paste limit, not one each (P4).
    private var pasteOnItsWay = false

    init(canvas: DrawView) {
        self.canvas = canvas
    }

    private var pasteboard: Pasteboard? { canvas.window?.application?.pasteboard }
    private var drawing: Drawing { canvas.drawing }

    /// The selected line, else every line (P2).
    private var linesToCopy: [Stroke] {
        if let stroke = canvas.selectedStrokeID.flatMap(drawing.stroke) { return [stroke] }
        return drawing.strokes
    }

    var canCopy: Bool { pasteboard != nil && !linesToCopy.isEmpty }
    var canPaste: Bool { pasteboard.map { DrawingClipboard.canPaste($0.types) } ?? false }

    /// Copies the selected line, or the whole drawing when none is selected (P2). Returns whether
    /// something went onto the clipboard.
    func copy() -> Bool {
        let lines = linesToCopy
        guard !lines.isEmpty, let pasteboard else { return false }
        guard pasteboard.setItems(DrawingClipboard.items(for: lines)) else {
            onNotice?(Strings.copyFailed, .error)
            return false
        }
        return true
    }

    /// Asks the clipboard for lines copied in TouchTracker; they are added when they arrive (P3).
    /// Anything else on the clipboard is declined with a banner (P5).
    func paste() {
        guard let pasteboard, !pasteOnItsWay else { return }
        guard DrawingClipboard.canPaste(pasteboard.types) else {
            onNotice?(Strings.nothingToPaste, .info)
            return
        }
        pasteOnItsWay = true
        pasteboard.read(DrawingClipboard.drawingType, maxBytes: limits.maxFileBytes) { [weak self] result in
            self?.pasteOnItsWay = false
            self?.pasteArrived(result)
        }
    }

    /// Applies what a paste read: the lines on top as one undoable step, or a banner saying why
    /// not, the drawing untouched (P3, P4).
    func pasteArrived(_ result: PasteboardReadResult) {
        onPasteArrived?(result)
        switch result {
        case .data(let bytes):
            do throws(DrawingParseError) {
                let strokes = try DrawingClipboard.strokesToPaste(bytes, into: drawing, limits: limits)
                canvas.select(nil)
                drawing.add(contentsOf: strokes, actionName: "Paste")
            } catch {
                onNotice?(Strings.pasteFailed(error.message), .error)
            }
        case .tooLarge(let limit):
            onNotice?(Strings.pasteTooLarge(DrawingFormat.byteCount(limit)), .error)
        case .failed(let reason):
            onNotice?(Strings.pasteFailed(reason), .error)
        }
    }
}
