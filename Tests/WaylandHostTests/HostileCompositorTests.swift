// What a hostile or broken compositor can send the app, short of a protocol error: a window size
// or scale far past any screen, a keymap that does not end where it says, positions past the
// plane. None of it may crash the app or make it allocate past the raster limits.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import CXKBCommon
import Graphics
import Limits
import Logging
import Testing
import TouchKit
import Wayland
@testable import WaylandHost

@Suite("A hostile compositor")
struct HostileCompositorTests {
    /// Whether `size` at `geometry` is a buffer the app may allocate.
    static func withinLimits(_ size: (width: Int, height: Int), _ geometry: BufferGeometry) -> Bool {
        let pixels = geometry.pixelSize(width: size.width, height: size.height)
        return pixels.width <= Limit.rasterSide && pixels.height <= Limit.rasterSide
            && pixels.width * pixels.height <= Limit.rasterPixels && size.width >= 1 && size.height >= 1
    }

    @Test("A configure larger than a window buffer may be is drawn at the largest size that fits, its shape kept; any size that fits is kept as asked")
    func windowSizeBounded() {
        for geometry in [BufferGeometry.integer(1), .integer(2), .integer(8), .fractional(numerator: 180), .fractional(numerator: 960)] {
            for asked: (width: Int, height: Int) in [(40_000, 40_000), (Int(Int32.max), 600), (23_171, 23_171), (100, Int(Int32.max))] {
                let size = geometry.boundedSize(width: asked.width, height: asked.height)
                #expect(Self.withinLimits(size, geometry), "\(asked) at \(geometry.scale): \(size)")
                #expect(size.width <= asked.width && size.height <= asked.height)
            }
            // Square stays square; the largest a 40,000-point square may be at this scale.
            let square = geometry.boundedSize(width: 40_000, height: 40_000)
            #expect(square.width == square.height)
            #expect(!Self.withinLimits((square.width + 1, square.height + 1), geometry))
        }
        #expect(BufferGeometry.integer(1).boundedSize(width: 7680, height: 4320) == (7680, 4320), "an 8K screen fits")
        #expect(BufferGeometry.integer(2).boundedSize(width: 3840, height: 2160) == (3840, 2160))
        #expect(BufferGeometry.integer(2).boundedSize(width: 8000, height: 100) == (8000, 100))
        #expect(BufferGeometry.integer(1).boundedSize(width: 20_000, height: 100) == (Limit.rasterSide, 100), "a side is cut, not the other")
    }

    @Test("Scales past Limit.outputScale are taken as it; zero or negative as 1")
    func scalesClamped() {
        #expect(BufferGeometry.integer(Int32.max).scale == Double(Limit.outputScale))
        #expect(BufferGeometry.integer(-3).scale == 1)
        #expect(BufferGeometry.fractional(numerator: UInt32.max).scale == Double(Limit.outputScale))
        #expect(BufferGeometry.fractional(numerator: 0).scale == 1.0 / 120)
        #expect(Output.clampedScale(Int32.max) == Int32(Limit.outputScale) && Output.clampedScale(0) == 1 && Output.clampedScale(3) == 3)
    }

    @Test("A cursor's size in pixels is its base size times the scale without overflow, within the raster limits")
    func cursorSize() {
        #expect(CursorTheme.pixelSize(base: 24, scale: 2) == 48)
        #expect(CursorTheme.pixelSize(base: 256, scale: Int32.max) == 256 * Int32(Limit.outputScale))
        #expect(CursorTheme.pixelSize(base: 24, scale: -1) == 24)
    }

    @Test("An image asked for with a side past Limit.rasterSide, or of a size that is no number, is made with its sides within it: never a trap")
    func imagesBounded() {
        for size in [Size(width: 1e300, height: 1), Size(width: .nan, height: 2), Size(width: -5, height: .infinity)] {
            let image = ImageSurface(size: size, scale: 8)
            #expect(image.width >= 1 && image.width <= Limit.rasterSide && image.height >= 1 && image.height <= Limit.rasterSide)
        }
        #expect(ImageSurface(size: Size(width: 1e300, height: 1), scale: 1e300).scale == Double(Limit.outputScale))
        let wide = ImageSurface(width: Int.max, height: 1)
        #expect(wide.width == Limit.rasterSide && wide.height == 1)
        #expect(ImageSurface.stride(forWidth: 1 << 40) == nil)
        #expect(ImageSurface.stride(forWidth: 100) == 400)
    }

    @Test("Positions from the compositor are clamped to the plane")
    func positionsClamped() {
        #expect(Seat.planePoint(x: 8_388_607.99, y: -8_388_608) == Point(x: Limit.coordinate, y: -Limit.coordinate))
        #expect(Seat.planePoint(x: 12.5, y: 700) == Point(x: 12.5, y: 700))
    }

    @Test("A touch is taken while fewer than Limit.touches are down; one more is ignored until one lifts")
    func touchesBounded() {
        let down = Set((0..<Int32(Limit.touches)).map { $0 })
        #expect(!Seat.takesDown(1000, of: down))
        #expect(Seat.takesDown(5, of: down), "a down for a touch already down replaces it")
        #expect(Seat.takesDown(1000, of: down.subtracting([0])))
    }

    @Test("A presentation time far from any clock (2^64 s) is logged as a number, not a trap, under --latency")
    func presentationTimesAnyNumber() {
        #expect(LatencyReporter.ms(0.0123456) == "12.35")
        #expect(LatencyReporter.ms(-0.0005) == "-0.50")
        #expect(!LatencyReporter.ms(1.8e19).isEmpty)
        #expect(!LatencyReporter.ms(.nan).isEmpty)
    }

    @Test("Pixel regions of rectangles past any image, or of no number, are made without trapping")
    func pixelRegionsAnyRect() {
        let region = PixelRegion(pixels: [Rect(x: 1e300, y: -1e300, width: 1e300, height: 5), Rect(x: .nan, y: 0, width: 3, height: 3),
                                          Rect(x: 0, y: 0, width: 10, height: 10)])
        #expect(region.rects.contains(Rect(x: 0, y: 0, width: 10, height: 10)))
    }

    // MARK: The keymap

    /// The text of the default keymap (US layout), as a compositor sends it.
    static func keymapText() throws -> [UInt8] {
        let context = try #require(xkb_context_new(XKB_CONTEXT_NO_FLAGS))
        defer { xkb_context_unref(context) }
        let keymap = try #require(xkb_keymap_new_from_names(context, nil, XKB_KEYMAP_COMPILE_NO_FLAGS))
        defer { xkb_keymap_unref(keymap) }
        let text = try #require(xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1))
        defer { free(text) }
        return Array(String(cString: text).utf8)
    }

    /// A memfd holding `bytes`.
    static func file(_ bytes: [UInt8]) -> Int32 {
        let fd = tt_memfd_create("keymap-test")
        #expect(fd >= 0)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        return fd
    }

    /// The keysym a press of Q gives after the compositor sent `size` bytes of `fd` as the keymap,
    /// or nil when no keymap was taken.
    static func pressQ(afterKeymap fd: Int32, size: UInt32) -> UInt32? {
        let keymap = Keymap(logger: Logger(label: "test"))
        var pressed: UInt32?
        keymap.onKeyPress = { pressed = $0.keysym }
        keymap.handle(.keymap(format: .xkbV1, fd: fd, size: size))
        keymap.handle(.key(serial: 1, time: 1, key: 16, state: .pressed))  // evdev KEY_Q
        return pressed
    }

    @Test("A keymap is read to the size the compositor gave, not to a NUL that need not be there: what follows it is never read")
    func keymapToItsSize() throws {
        let text = try Self.keymapText()
        // The keymap without its NUL, then bytes that do not compile, in the same page.
        let fd = Self.file(text + Array("}; garbage { that does not compile".utf8) + [0])
        #expect(Self.pressQ(afterKeymap: fd, size: UInt32(text.count)) == 0x71)
    }

    @Test("A keymap larger than Limit.keymapBytes, or larger than the file holding it, is refused: the keyboard keeps the keymap it had")
    func keymapSizeRefused() throws {
        let text = try Self.keymapText()
        #expect(Self.pressQ(afterKeymap: Self.file(text + [0]), size: UInt32(Limit.keymapBytes + 1)) == nil)
        #expect(Self.pressQ(afterKeymap: Self.file(text), size: UInt32(text.count + 65536)) == nil)
        // One that is fine, for comparison: NUL-terminated within its size, as most compositors send it.
        #expect(Self.pressQ(afterKeymap: Self.file(text + [0]), size: UInt32(text.count + 1)) == 0x71)
    }
}
