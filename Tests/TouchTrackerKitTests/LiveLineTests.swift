// Live lines handed to the window (TouchKit's LiveLines, Graphics' LiveLineLayer):
// drawn into the window's buffers as rows of pixels and erased along those rows from the line
// cache, each buffer remembering what it holds. Whatever happens between frames, every buffer
// must show what a full repaint shows, and the damage must cover every pixel that changed.
import Graphics
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Live lines drawn by the window")
struct LiveLineTests {
    /// Lines from the top of the canvas to its bottom: ten cost well over the smoothing budget,
    /// so while they move they are drafted.
    static func landTen(_ canvas: Canvas) {
        for i in 0..<10 { canvas.down(Int32(i), 20 + Double(i) * 36, 12) }
        canvas.frame()
    }

    @Test("A1: drafted live lines go to the window over the line cache, and moving them marks nothing of the canvas dirty; resting, they are smoothed there")
    func movingLinesGoToTheWindow() throws {
        let canvas = Canvas()
        _ = canvas.laidOutRender()
        Self.landTen(canvas)
        _ = canvas.window.takeDirtyRegion()
        // The first motion is marked as before: the lines were the canvas's own until then.
        for i in 0..<10 { canvas.move(Int32(i), 370 - Double(i) * 36, 230) }
        canvas.frame()
        _ = canvas.window.takeDirtyRegion()
        for i in 0..<10 { canvas.move(Int32(i), 380 - Double(i) * 36, 220) }
        canvas.frame()
        let dirty = canvas.window.takeDirtyRegion()
        let placed = try #require(canvas.window.liveLines.first)
        #expect(canvas.window.liveLines.count == 1)
        #expect(placed.lines.count == 10)
        #expect(placed.lines.allSatisfy { $0.color == DrawView.inProgressColor })
        #expect(placed.lines.contains { $0.points == [Point(x: 20, y: 12), Point(x: 380, y: 220)] })
        // Clipped to the canvas, above the toolbar.
        #expect(placed.clip == [Rect(x: 0, y: 0, width: 400, height: canvas.controller.toolbar.frame.minY)])
        #expect(dirty.isEmpty, "the canvas marked \(dirty.rects.count) rectangles for moving lines")
        #expect(canvas.window.liveLinesChanged)

        #expect(!placed.smooth, "ten lines this long are drafted while they move")

        // Once the fingers rest, the window smooths them: still live lines, nothing marked dirty.
        canvas.clock.advance(by: 0.1)
        let rested = canvas.window.takeDirtyRegion()
        #expect(rested.isEmpty)
        #expect(canvas.window.liveLinesChanged)
        #expect(canvas.window.liveLines.first?.smooth == true)
    }

    @Test("A1, A2: a line lifted while other fingers draw goes into the line cache at once and is settled from it by the window, black; nothing of the canvas is marked dirty, and once every finger has lifted the live lines go on, none")
    func liftedLinesAreRestoredFromTheCache() throws {
        let canvas = Canvas()
        _ = canvas.laidOutRender()
        Self.landTen(canvas)
        for i in 0..<10 { canvas.move(Int32(i), 370 - Double(i) * 36, 230) }
        canvas.frame()
        _ = canvas.window.takeDirtyRegion()
        canvas.up(3)
        canvas.frame()
        // (The toolbar's Undo is enabled.)
        let canvasFrame = canvas.drawView.convert(canvas.drawView.bounds, to: nil)
        let dirty = canvas.window.takeDirtyRegion().rects.filter { $0.intersects(canvasFrame) }
        let placed = try #require(canvas.window.liveLines.first)
        #expect(dirty.isEmpty, "the canvas marked \(dirty.count) rectangles for a lifted line")
        #expect(placed.lines.count == 9)
        #expect(placed.settled == [Polyline(points: [Point(x: 128, y: 12), Point(x: 262, y: 230)], width: DrawView.lineWidth, color: .black)])
        #expect(canvas.drawView.linesAwaitingCache == 0, "the line went into the cache in the turn it was lifted")
        #expect(canvas.window.liveLinesChanged)
        // Given once.
        canvas.move(0, 300, 200)
        canvas.frame()
        _ = canvas.window.takeDirtyRegion()
        #expect(canvas.window.liveLines.first?.settled == [])

        for i in 0..<10 where i != 3 { canvas.up(Int32(i)) }
        canvas.frame()
        #expect(!canvas.window.takeDirtyRegion().rects.contains { $0.intersects(canvasFrame) })
        #expect(canvas.window.liveLines.first?.lines == [])
        #expect(canvas.window.liveLines.first?.settled.count == 9)
    }

    @Test("A1: a few short live lines, under the drafting budget, go to the window with smoothed edges")
    func shortLinesGoSmooth() throws {
        let canvas = Canvas()
        _ = canvas.laidOutRender()
        canvas.down(0, 50, 50)
        canvas.down(1, 150, 50)
        canvas.frame()
        canvas.move(0, 80, 90)
        canvas.move(1, 170, 100)
        canvas.frame()
        _ = canvas.window.takeDirtyRegion()
        canvas.move(0, 90, 100)
        canvas.move(1, 180, 110)
        canvas.frame()
        let dirty = canvas.window.takeDirtyRegion()
        let placed = try #require(canvas.window.liveLines.first)
        #expect(placed.lines.count == 2)
        #expect(placed.smooth)
        #expect(dirty.isEmpty, "the canvas marked \(dirty.rects.count) rectangles for moving lines")
    }

    /// The frames a buffer is painted in: as the host does, each buffer copies from the one
    /// shown last what it lacks and paints the frame's change; a third buffer joins midway as a
    /// copy of the newest (a spare made while the compositor holds the others). In turn, or
    /// picked as the host picks them from those a compositor gives back (``hostFrame(_:using:)``).
    final class Buffers {
        let canvas: Canvas
        let scale: Double
        var images: [ImageSurface]
        var stale: [DirtyRegion]
        var shown: Int?
        var next = 0
        /// Per buffer: the frame it was last committed in (0: never), and whether the compositor holds it.
        var committed: [Int]
        var busy: [Bool]
        var frames = 0
        /// The pixels the compositor shows: the last committed buffer's.
        var onScreen: [UInt32]

        init(_ canvas: Canvas, scale: Double) {
            self.canvas = canvas
            self.scale = scale
            let (w, h) = (Int(400 * scale), Int(300 * scale))
            images = [ImageSurface(width: w, height: h), ImageSurface(width: w, height: h)]
            stale = [DirtyRegion([canvas.window.bounds]), DirtyRegion([canvas.window.bounds])]
            committed = [0, 0]
            busy = [false, false]
            onScreen = images[0].pixelWords()
        }

        func addSpare() {
            let newest = images[shown ?? 0]
            let spare = ImageSurface(width: newest.width, height: newest.height)
            spare.copyPixels(from: newest, in: PixelRegion(pixels: [Rect(x: 0, y: 0, width: Double(newest.width), height: Double(newest.height))]))
            spare.pixelsCopied(from: newest)
            images.append(spare)
            stale.append(stale[shown ?? 0])
            committed.append(0)
            busy.append(false)
        }

        /// A frame as the host paints it under a compositor that gives buffers back in its own
        /// time (KWin keeps a replaced one until its next repaint, mutter lets go of the one shown
        /// once it has copied it): into the free buffer shown most recently, copying from the
        /// newest other that lacks nothing; with none free, into a spare while there are fewer
        /// than four, else the frame waits.
        func hostFrame(_ label: String, using random: inout SplitMix) -> String? {
            for i in images.indices where busy[i] && Int.random(in: 0..<(i == shown ? 4 : 2), using: &random) == 0 {
                busy[i] = false
            }
            var chosen = images.indices.filter { !busy[$0] }.max { committed[$0] < committed[$1] }
            if chosen == nil, images.count < 4, Bool.random(using: &random) {
                addSpare()
                chosen = images.count - 1
            }
            guard let chosen else {
                skipFrame()
                return nil
            }
            let source = images.indices.filter { $0 != chosen && committed[$0] > 0 && stale[$0].isEmpty }
                .max { committed[$0] < committed[$1] }
            return frame(label, into: chosen, copyingFrom: source)
        }

        /// Takes a frame and leaves it unpainted, as the host does when the compositor holds every
        /// buffer: its damage is marked again, and its live lines taken again next time.
        func skipFrame() {
            canvas.window.frameNotPainted(canvas.window.takeDirtyRegion())
        }

        /// Paints a frame into the next buffer; returns an error message or nil.
        func frame(_ label: String) -> String? {
            let index = next
            next = (next + 1) % images.count
            return frame(label, into: index, copyingFrom: shown)
        }

        private func frame(_ label: String, into index: Int, copyingFrom source: Int?) -> String? {
            let dirty = canvas.window.takeDirtyRegion()
            guard !dirty.isEmpty || canvas.window.liveLinesChanged else { return nil }
            let image = images[index]
            let damage = canvas.window.update(image, stale: stale[index], dirty: dirty,
                                              copyingFrom: source.map { images[$0] }, others: images, scale: scale)
            stale[index] = DirtyRegion()
            for other in images.indices where other != index { stale[other].add(dirty) }
            shown = index
            frames += 1
            committed[index] = frames
            busy[index] = true
            let full = ImageSurface(width: image.width, height: image.height)
            canvas.window.paint(DirtyRegion([canvas.window.bounds]), into: full, scale: scale)
            let pixels = image.pixelWords(), expected = full.pixelWords()
            defer { onScreen = pixels }
            // A smoothed edge may differ by part of a pixel's coverage: Cairo's fast smoothing
            // (lines a full repaint draws) is off by up to about half a pixel on sloped edges,
            // the live lines' within a tenth of Cairo's best. A line left behind or missing differs
            // by all of it (red on white or black).
            func far(_ a: UInt32, _ b: UInt32) -> Bool {
                a != b && (0..<4).contains { abs(Int((a >> UInt32($0 * 8)) & 0xFF) - Int((b >> UInt32($0 * 8)) & 0xFF)) > 140 }
            }
            if let i = pixels.indices.first(where: { far(pixels[$0], expected[$0]) }) {
                let count = pixels.indices.count { far(pixels[$0], expected[$0]) }
                return "\(label): \(count) pixels differ from a full repaint, first (\(i % image.width), \(i / image.width)): \(String(pixels[i], radix: 16)) instead of \(String(expected[i], radix: 16))"
            }
            // The same holds for a smoothed edge a frame repaints beyond what changed (its boxes
            // are coarser), which the other buffers keep as they had it.
            var damaged = [Bool](repeating: false, count: pixels.count)
            for box in damage {
                for y in max(0, Int(box.minY))..<min(image.height, Int(box.maxY)) {
                    for x in max(0, Int(box.minX))..<min(image.width, Int(box.maxX)) { damaged[y * image.width + x] = true }
                }
            }
            let undamaged = pixels.indices.filter { !damaged[$0] && far(pixels[$0], onScreen[$0]) }
            if let i = undamaged.first {
                return "\(label): \(undamaged.count) changed pixels outside the damage, first (\(i % image.width), \(i / image.width))"
            }
            return nil
        }
    }

    @Test("A1: buffers, in turn or picked as the host picks them from those the compositor gave back, at whole and fractional scales, show what a full repaint shows, and damage every pixel that changed, while live lines move, land, lift (settled from the line cache), rest, pass under the palette, a frame finds no buffer free, a line is selected and a spare buffer joins; zoomed to 400 % too, where the lines are 40 pt wide and the damage follows what changed",
          arguments: [(1.0, false, 1.0), (2.0, false, 1.0), (1.0, true, 1.0), (1.75, true, 1.0), (1.0, false, 4.0), (2.0, true, 4.0)])
    func buffersMatchAFullRepaint(scale: Double, pickedAsTheHostDoes: Bool, zoom: Double) {
        for seed in UInt64(1)...3 {
            var random = SplitMix(seed: seed)
            let finished: [Stroke] = (0..<20).map { i in
                .line(StrokeID(i + 1), from: Point(x: Double(i) * 19, y: 5), to: Point(x: 390 - Double(i) * 17, y: 230), color: .black, width: 6)
            }
            let canvas = Canvas(drawing: Drawing(strokes: finished))
            canvas.controller.scrollView.viewport = CanvasViewport(origin: .zero, zoom: zoom)
            canvas.window.layoutIfNeeded()
            let buffers = Buffers(canvas, scale: scale)
            if let error = buffers.frame("the first frame") { Issue.record("\(error)"); return }
            // Its own stream: the same fingers as in turn.
            var picks = SplitMix(seed: seed + 1000)
            func paint(_ what: String) -> String? {
                pickedAsTheHostDoes ? buffers.hostFrame(what + ", buffers picked as the host does", using: &picks) : buffers.frame(what)
            }
            Self.landTen(canvas)
            var down = Set(0..<10)
            for n in 0..<30 {
                for i in down.sorted() where Bool.random(using: &random) || n % 7 == 0 {
                    canvas.move(Int32(i), Double.random(in: 2...398, using: &random), Double.random(in: 2...240, using: &random))
                }
                var what = "frame \(n) (seed \(seed), scale \(scale), zoom \(zoom))"
                switch Int.random(in: 0..<12, using: &random) {
                case 0 where down.count > 6:
                    let i = down.sorted().randomElement(using: &random)!
                    canvas.up(Int32(i))
                    down.remove(i)
                    what += ", a finger lifted"
                case 1:
                    let i = (0..<10).first { !down.contains($0) }
                    if let i {
                        canvas.down(Int32(i), Double.random(in: 2...398, using: &random), 20)
                        down.insert(i)
                        what += ", a finger landed"
                    }
                case 2:
                    canvas.controller.isPaletteVisible.toggle()
                    what += ", the palette \(canvas.controller.isPaletteVisible ? "shown" : "hidden")"
                case 3:
                    // The fingers rest: the lines are drawn smooth by the canvas.
                    canvas.clock.advance(by: 0.1)
                    what += ", the fingers rested"
                case 4, 5:
                    // A finger lifts in a frame no buffer was free for: its line is restored by the next.
                    let i = down.sorted().randomElement(using: &random)!
                    if down.count > 6 {
                        canvas.up(Int32(i))
                        down.remove(i)
                        what += ", a finger lifted"
                    }
                    canvas.frame()
                    buffers.skipFrame()
                    what += ", a frame not painted"
                default:
                    break
                }
                canvas.frame()
                if n == 25 || n == 27 {
                    // A line lifted in a frame no buffer was free for; then the canvas stops
                    // handing over live lines (a line selected: it draws the others over it again),
                    // which repaints the line instead; two frames on it hands them over again.
                    let i = down.sorted().last!
                    canvas.move(Int32(i), 395 - Double(n), 235)
                    canvas.up(Int32(i))
                    down.remove(i)
                    canvas.frame()
                    buffers.skipFrame()
                    canvas.drawView.select(n == 25 ? canvas.drawView.drawing.strokes.first?.id : nil)
                    what += ", a finger lifted in a frame not painted, then a line \(n == 25 ? "selected" : "deselected")"
                }
                if n == 20, !pickedAsTheHostDoes { buffers.addSpare() }
                if let error = paint(what) {
                    Issue.record("\(error)")
                    return
                }
                // Finished lines go into the line cache on the next turn.
                canvas.clock.advance(by: 0.001)
                if let error = paint(what + ", the turn after") {
                    Issue.record("\(error)")
                    return
                }
            }
        }
    }
}

