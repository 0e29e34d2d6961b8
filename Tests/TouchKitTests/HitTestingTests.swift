import Testing
@testable import TouchKit

/// A view whose touch area is its bounds grown by 20 pt on every side (the enlarged hit area of Apple's event handling guide).
final class GenerousView: View {
    override func point(inside point: Point, with event: Event?) -> Bool {
        bounds.insetBy(dx: -20, dy: -20).contains(point)
    }
}

@Suite("Hit-testing and delivery (H)")
struct HitTestingTests {
    @Test("H1: the deepest, front-most view containing the point is hit")
    func deepestFrontMost() {
        let h = Harness()
        let back = h.addView("back", Rect(x: 0, y: 0, width: 300, height: 300))
        let child = h.addView("child", Rect(x: 50, y: 50, width: 100, height: 100), to: back)
        let front = h.addView("front", Rect(x: 100, y: 100, width: 100, height: 100))
        #expect(h.window.hitTest(Point(x: 60, y: 60), with: nil) === child)
        #expect(h.window.hitTest(Point(x: 120, y: 120), with: nil) === front, "later subviews are in front")
        #expect(h.window.hitTest(Point(x: 250, y: 20), with: nil) === back)
        #expect(h.window.hitTest(Point(x: 350, y: 20), with: nil) === h.window)
        #expect(h.window.hitTest(Point(x: 500, y: 20), with: nil) == nil)
        h.tapDown(1, 120, 120, at: 1)
        #expect(h.log.summary == ["front.began(1)"])
    }

    @Test("H1: hidden, transparent and non-interactive views are skipped with their subviews")
    func skippedViews() {
        let h = Harness()
        let back = h.addView("back", Rect(x: 0, y: 0, width: 400, height: 300))
        let hidden = h.addView("hidden", Rect(x: 0, y: 0, width: 100, height: 100), to: back)
        h.addView("hiddenChild", Rect(x: 0, y: 0, width: 50, height: 50), to: hidden)
        hidden.isHidden = true
        let faint = h.addView("faint", Rect(x: 100, y: 0, width: 100, height: 100), to: back)
        faint.alpha = 0.009
        let barely = h.addView("barely", Rect(x: 200, y: 0, width: 100, height: 100), to: back)
        barely.alpha = 0.01
        let inert = h.addView("inert", Rect(x: 300, y: 0, width: 100, height: 100), to: back)
        inert.isUserInteractionEnabled = false
        #expect(h.window.hitTest(Point(x: 10, y: 10), with: nil) === back)
        #expect(h.window.hitTest(Point(x: 110, y: 10), with: nil) === back)
        #expect(h.window.hitTest(Point(x: 210, y: 10), with: nil) === barely)
        #expect(h.window.hitTest(Point(x: 310, y: 10), with: nil) === back)
        h.tapDown(1, 310, 10, at: 1)
        #expect(h.log.summary == ["back.began(1)"])
    }

    @Test("H2: point(inside:with:) can be overridden to enlarge a small view's touch area")
    func enlargedTouchArea() {
        let h = Harness()
        let container = h.addView("container", Rect(x: 0, y: 0, width: 400, height: 300))
        let button = GenerousView(frame: Rect(x: 100, y: 100, width: 20, height: 20))
        container.addSubview(button)
        #expect(h.window.hitTest(Point(x: 85, y: 85), with: nil) === button)
        #expect(h.window.hitTest(Point(x: 139, y: 110), with: nil) === button)
        #expect(h.window.hitTest(Point(x: 141, y: 110), with: nil) === container)
        let plain = View(frame: Rect(x: 100, y: 200, width: 20, height: 20))
        container.addSubview(plain)
        #expect(h.window.hitTest(Point(x: 95, y: 205), with: nil) === container, "default uses bounds")
    }

    @Test("H3: the part of a subview outside its superview's bounds gets no touches")
    func outsideSuperview() {
        let h = Harness()
        let parent = h.addView("parent", Rect(x: 0, y: 0, width: 100, height: 100))
        h.addView("overhang", Rect(x: 50, y: 50, width: 100, height: 100), to: parent)
        h.tapDown(1, 75, 75, at: 1)
        h.tapDown(2, 125, 125, at: 1.1)  // inside overhang's frame, outside parent
        // The second touch lands on the window, which passes it to the application.
        #expect(h.log.summary == ["overhang.began(1)", "app.began(1)"])
        #expect(h.window.hitTest(Point(x: 125, y: 125), with: nil) === h.window)
    }

    @Test("H4: without multiple touch a view gets only the first of simultaneous touches")
    func singleTouchView() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        #expect(a.isMultipleTouchEnabled == false, "UIKit's default")
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 50, 50, at: 1.1)
        h.move(2, 60, 60, at: 1.2)
        h.lift(2, at: 1.3)
        h.lift(1, at: 1.4)
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"])
        #expect(h.log.entries.allSatisfy { $0.touches.first!.location(in: nil) == Point(x: 10, y: 10) })
    }

    @Test("H4: two fingers landing in one frame on a single-touch view: only the first")
    func singleTouchViewSameFrame() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.input.down(.touch(1), at: Point(x: 10, y: 10), time: 1)
        h.input.down(.touch(2), at: Point(x: 50, y: 50), time: 1)
        h.input.frame()
        #expect(h.log.summary == ["a.began(1)"])
        #expect(h.log.entries[0].touches.first!.location(in: nil) == Point(x: 10, y: 10))
        #expect(h.log.entries[0].event.allTouches.count == 2)
    }

    @Test("H4: with multiple touch enabled every finger arrives")
    func multiTouchView() {
        let h = Harness()
        let a = h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        a.isMultipleTouchEnabled = true
        h.tapDown(1, 10, 10, at: 1)
        h.tapDown(2, 50, 50, at: 1.1)
        #expect(h.log.summary == ["a.began(1)", "a.began(1)"])
    }

    @Test("H5: A exclusive; B held then A touched: A gets nothing")
    func exclusiveBlockedByOtherView() {
        let h = Harness()
        let a = h.addView("A", Rect(x: 0, y: 0, width: 100, height: 100))
        a.isExclusiveTouch = true
        h.addView("B", Rect(x: 100, y: 0, width: 100, height: 100))
        h.addView("C", Rect(x: 200, y: 0, width: 100, height: 100))
        h.tapDown(1, 150, 50, at: 1)  // B
        h.tapDown(2, 50, 50, at: 1.1)  // A
        h.lift(2, at: 1.2)
        h.lift(1, at: 1.3)
        #expect(h.log.summary == ["B.began(1)", "B.ended(1)"])
    }

    @Test("H5: A exclusive; A held then B touched: B gets nothing")
    func exclusiveBlocksOthers() {
        let h = Harness()
        let a = h.addView("A", Rect(x: 0, y: 0, width: 100, height: 100))
        a.isExclusiveTouch = true
        h.addView("B", Rect(x: 100, y: 0, width: 100, height: 100))
        h.tapDown(1, 50, 50, at: 1)  // A
        h.tapDown(2, 150, 50, at: 1.1)  // B
        h.move(2, 160, 50, at: 1.2)
        h.lift(2, at: 1.3)
        h.lift(1, at: 1.4)
        #expect(h.log.summary == ["A.began(1)", "A.ended(1)"])
    }

    @Test("H5: A exclusive alone is touched normally; B and C track together")
    func exclusiveAloneAndOthersTogether() {
        let h = Harness()
        let a = h.addView("A", Rect(x: 0, y: 0, width: 100, height: 100))
        a.isExclusiveTouch = true
        h.addView("B", Rect(x: 100, y: 0, width: 100, height: 100))
        h.addView("C", Rect(x: 200, y: 0, width: 100, height: 100))
        h.tap(1, 50, 50, at: 1)
        #expect(h.log.summary == ["A.began(1)", "A.ended(1)"])
        h.log.clear()
        h.tapDown(1, 150, 50, at: 2)
        h.tapDown(2, 250, 50, at: 2.1)
        #expect(h.log.summary == ["B.began(1)", "C.began(1)"])
    }

    @Test("H6: touches that begin while ignoring are never delivered; calls nest")
    func ignoringNests() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.app.beginIgnoringInteractionEvents()
        h.app.beginIgnoringInteractionEvents()
        h.tap(1, 10, 10, at: 1)
        h.app.endIgnoringInteractionEvents()
        #expect(h.app.isIgnoringInteractionEvents)
        h.tapDown(2, 10, 10, at: 2)
        h.app.endIgnoringInteractionEvents()
        #expect(!h.app.isIgnoringInteractionEvents)
        h.move(2, 20, 20, at: 2.1)
        h.lift(2, at: 2.2)
        #expect(h.log.entries.isEmpty, "a touch that began while ignoring stays undelivered")
        h.tap(3, 10, 10, at: 3)
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"])
        h.app.endIgnoringInteractionEvents()  // unbalanced: harmless
        #expect(!h.app.isIgnoringInteractionEvents)
    }

    @Test("H6: a touch in progress when ignoring starts loses its moves but still ends")
    func ignoringMidTouch() {
        let h = Harness()
        h.addView("a", Rect(x: 0, y: 0, width: 400, height: 300))
        h.tapDown(1, 10, 10, at: 1)
        h.app.beginIgnoringInteractionEvents()
        h.move(1, 20, 20, at: 1.1)
        h.lift(1, at: 1.2)
        h.app.endIgnoringInteractionEvents()
        #expect(h.log.summary == ["a.began(1)", "a.ended(1)"])
    }

    @Test("H7: application and window sendEvent are the pipe every event goes through")
    func sendEventPipe() {
        final class CountingWindow: Window {
            var events = 0
            override func sendEvent(_ event: Event) {
                events += 1
                super.sendEvent(event)
            }
        }
        final class FilteringApplication: Application {
            var dropAll = false
            override func sendEvent(_ event: Event) {
                if !dropAll { super.sendEvent(event) }
            }
        }
        let app = FilteringApplication(clock: ManualClock())
        let window = CountingWindow(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let input = TouchInput(application: app, window: window)
        let log = DeliveryLog()
        window.addSubview(RecordingView("v", frame: window.bounds, log: log))
        input.down(.touch(1), at: Point(x: 5, y: 5), time: 1)
        input.frame()
        input.up(.touch(1), time: 1.1)
        input.frame()
        #expect(window.events == 2)
        #expect(log.summary == ["v.began(1)", "v.ended(1)"])
        app.dropAll = true
        input.down(.touch(1), at: Point(x: 5, y: 5), time: 2)
        input.frame()
        #expect(window.events == 2)
        #expect(log.entries.count == 2)
        #expect(app.windows.first === window && window.application === app)
    }
}

@Suite("Pointer style")
struct PointerStyleTests {
    @Test("A view without a pointer style takes its nearest ancestor's; with none at all, the arrow")
    func inherited() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let canvas = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(canvas)
        canvas.addSubview(child)
        #expect(child.effectivePointerStyle == .arrow)
        canvas.pointerStyle = .crosshair
        #expect(child.effectivePointerStyle == .crosshair)
        child.pointerStyle = .arrow
        #expect(child.effectivePointerStyle == .arrow && canvas.effectivePointerStyle == .crosshair)
    }
}
