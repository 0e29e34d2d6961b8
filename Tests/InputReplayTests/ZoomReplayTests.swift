import Graphics
import Testing
import TouchKit
@testable import InputReplay

/// A window whose root view is a zooming scroll view over 800 x 600 points of coloured tiles.
final class ZoomScene: ViewController, ScrollViewDelegate {
    let scroll = ScrollView()
    let content = View(frame: Rect(x: 0, y: 0, width: 800, height: 600))

    override init() {
        super.init()
        for row in 0..<6 {
            for column in 0..<8 {
                let tile = View(frame: Rect(x: Double(column) * 100, y: Double(row) * 100, width: 100, height: 100))
                tile.backgroundColor = Color(red: Double(column) / 7, green: Double(row) / 5, blue: Double((row + column) % 2), alpha: 1)
                content.addSubview(tile)
            }
        }
        scroll.addSubview(content)
        scroll.contentSize = content.bounds.size
        scroll.minimumZoomScale = 0.25
        scroll.maximumZoomScale = 4
        scroll.delegate = self
    }

    override func loadView() { view = scroll }
    func viewForZooming(in scrollView: ScrollView) -> View? { content }
}

/// The scene in a window on a clock the session moves, recording as the host does.
final class ZoomSession {
    var time = 10.0
    lazy var clock = EventLoopClock(now: { [unowned self] in self.time })
    let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let scene = ZoomScene()
    var application: Application!
    var input: TouchInput!
    var entries: [RecordingEntry] = [.window(width: 400, height: 300, scale: 1, titleBar: false)]

    init() {
        application = Application(clock: clock)
        application.addWindow(window)
        window.rootViewController = scene
        input = TouchInput(application: application, window: window)
        input.recorder = { [unowned self] event in self.entries.append(.input(event)) }
    }

    func turn(at t: Double, _ body: (TouchInput) -> Void) {
        time = t
        entries.append(.turn(t))
        body(input)
    }

    /// The loop's timers, every 10 ms from `t` to `end`.
    func timers(from t: Double, to end: Double) {
        var now = t
        while now <= end {
            time = now
            entries.append(.timers(now))
            clock.fireDueTimers()
            now += 0.01
        }
    }

    /// The compositor's configure: the window's new size, recorded as the host records it.
    func configure(width: Double, height: Double, at t: Double) {
        time = t
        entries.append(.turn(t))
        entries.append(.window(width: width, height: height, scale: 1, titleBar: false))
        window.resize(to: Size(width: width, height: height))
    }
}

/// A fresh scene played `entries`, headless; `followsSize` false ignores the window's size changes.
func replayZoom(_ entries: [RecordingEntry], followsSize: Bool = true) -> (Window, ZoomScene) {
    let clock = ReplayClock(now: 0)
    let application = Application(clock: clock)
    let window = Window(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    application.addWindow(window)
    let scene = ZoomScene()
    window.rootViewController = scene
    var target = ReplayTarget(input: TouchInput(application: application, window: window))
    var first = true
    target.window = { width, height, _, _ in
        if followsSize || first { window.resize(to: Size(width: width, height: height)) }
        first = false
    }
    Replayer.playHeadless(entries, into: target, clock: clock, settle: 0)
    return (window, scene)
}

func picture(of window: Window) -> ImageSurface {
    window.layoutIfNeeded()
    let image = ImageSurface(width: Int(window.bounds.width), height: Int(window.bounds.height))
    window.render(window.bounds, in: CairoContext(surface: image))
    return image
}

@Suite("Replaying zooms and size changes")
struct ZoomReplayTests {
    /// A touchpad pinch past the largest scale that springs back, a wheel to the far corner, the
    /// window made larger (the offset settles back from past the new far edges), a Ctrl+wheel
    /// notch out by its corner, a Ctrl+touchpad zoom, the window made smaller and a notch in.
    static func session() -> ZoomSession {
        let s = ZoomSession()
        s.turn(at: 10) { $0.pinchBegan(at: Point(x: 300, y: 200), time: 10) }
        for k in 1...8 {
            let t = 10 + Double(k) * 0.01
            s.turn(at: t) { $0.pinchChanged(scale: 1 + Double(k) * 0.5, translation: Point(x: -4, y: -3), time: t) }
        }
        s.turn(at: 10.1) { $0.pinchEnded(time: 10.1, cancelled: false) }
        s.timers(from: 10.11, to: 10.5)
        s.turn(at: 10.6) { $0.scroll(by: Point(x: 5000, y: 5000), at: Point(x: 200, y: 150), time: 10.6, source: .wheel) }
        s.configure(width: 500, height: 400, at: 11)
        s.turn(at: 11.5) { $0.zoom(by: 1 / 1.1, at: Point(x: 490, y: 390), time: 11.5, source: .wheel) }
        s.turn(at: 12) { $0.zoom(by: 0.8, at: Point(x: 60, y: 50), time: 12, source: .touchpad) }
        s.turn(at: 12.01) { $0.zoom(by: 0.9, at: Point(x: 60, y: 50), time: 12.01, source: .touchpad) }
        s.turn(at: 12.02) { $0.scrollEnded(time: 12.02) }
        s.configure(width: 320, height: 240, at: 13)
        s.turn(at: 13.5) { $0.zoom(by: 1.1, at: Point(x: 10, y: 230), time: 13.5, source: .wheel) }
        return s
    }

    @Test("S13-S15: a recording of touchpad pinches, Ctrl zooms and the window's size changes replays headless to the same zoom, offset and picture, through the text format")
    func replayGivesTheSamePicture() throws {
        let live = Self.session()
        let text = ([RecordingFormat.header] + live.entries.map(RecordingFormat.line)).joined(separator: "\n")
        let entries = try RecordingFormat.parse(text)
        #expect(entries == live.entries)
        let (window, scene) = replayZoom(entries)
        // The pinch sprang back to 4; the notch out, the touchpad's 0.8 x 0.9 and the notch in.
        #expect(abs(live.scene.scroll.zoomScale - 4 * 0.72) < 1e-9, "\(live.scene.scroll.zoomScale)")
        #expect(scene.scroll.zoomScale == live.scene.scroll.zoomScale)
        #expect(scene.scroll.contentOffset == live.scene.scroll.contentOffset)
        #expect(window.bounds.size == Size(width: 320, height: 240))
        let a = picture(of: live.window), b = picture(of: window)
        var differing = 0
        for y in 0..<240 { for x in 0..<320 where a.color(x: x, y: y) != b.color(x: x, y: y) { differing += 1 } }
        #expect(differing == 0)
    }

    @Test("The window's size changes matter to the replay: played at the first size throughout, the same input leaves another view")
    func sizeChangesMatter() {
        let live = Self.session()
        let (_, scene) = replayZoom(live.entries, followsSize: false)
        #expect(scene.scroll.contentOffset != live.scene.scroll.contentOffset)
    }
}
