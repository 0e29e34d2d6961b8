// The icon renderer's side: the app's own executable started with `--icon-renderer`, which draws
// the SVGs it is sent with librsvg and answers with their coverage. librsvg brings GLib, GIO,
// libxml2 and ICU with it, about ten megabytes of code that would otherwise stay mapped in the app
// for its whole life for a few dozen icons drawn at start; here they go when the renderer does. A
// hostile or broken icon file that crashes or hangs librsvg takes the renderer down, not the app.
#if canImport(Glibc)
import Glibc
#endif
import CCairo
import Limits

public enum IconRendererService {
    /// True when the process was started to render icons (`arguments` without the program's name).
    public static func isRequested(by arguments: [String]) -> Bool {
        arguments == [IconRendererWire.argument]
    }

    /// Icons are drawn from now on by `executable` (the app's own) started as an icon renderer,
    /// keeping librsvg and its libraries out of this process.
    public static func drawIcons(with executable: String) {
        SymbolicIcons.shared.useRenderer(executable)
    }

    /// Seconds without a request after which the renderer ends; the app starts another when it
    /// needs one, which happens when the scale or the layout changes.
    static let idleSeconds: Int32 = 3

    /// Serves requests on standard input until the app closes it or stops asking; never returns.
    public static func serve() -> Never {
        // Detached from the app: the first process ends at once and the app waits for it, so the
        // renderer itself belongs to init, which collects it whenever it ends.
        let child = fork()
        if child != 0 { _exit(child > 0 ? 0 : 1) }
        signal(SIGPIPE, SIG_IGN)
        // The app closing its end of the pipes, or dying, ends the renderer at its next read.
        guard IconRendererWire.write(IconRendererWire.word(UInt32(getpid())), to: STDOUT_FILENO) else { _exit(0) }
        while true {
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, idleSeconds * 1000)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0,
                  let header = IconRendererWire.read(8, from: STDIN_FILENO, deadline: nil)
            else { _exit(0) }
            let pixels = Int(IconRendererWire.value(of: Array(header[0..<4])))
            let length = Int(IconRendererWire.value(of: Array(header[4..<8])))
            guard length <= Limit.iconFileBytes, pixels > 0, pixels <= SymbolicIcons.largestPixels,
                  let svg = IconRendererWire.read(length, from: STDIN_FILENO, deadline: nil)
            else { _exit(1) }
            let answer = coverage(of: svg, pixels: pixels).map { IconRendererWire.word(IconRendererWire.drawn) + $0 }
                ?? IconRendererWire.word(IconRendererWire.notDrawn)
            guard IconRendererWire.write(answer, to: STDOUT_FILENO) else { _exit(0) }
        }
    }

    /// The alpha of `svg` drawn at `pixels` square, row after row; nil when it cannot be drawn.
    static func coverage(of svg: [UInt8], pixels: Int) -> [UInt8]? {
        guard let surface = RsvgLibrary.shared?.render(svg, pixels: pixels) else { return nil }
        defer { cairo_surface_destroy(surface) }
        return alpha(of: surface, pixels: pixels)
    }

    /// The alpha byte of each pixel of a premultiplied ARGB32 surface.
    static func alpha(of surface: OpaquePointer, pixels: Int) -> [UInt8] {
        guard let data = cairo_image_surface_get_data(surface) else { return [UInt8](repeating: 0, count: pixels * pixels) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var coverage = [UInt8](repeating: 0, count: pixels * pixels)
        data.withMemoryRebound(to: UInt8.self, capacity: stride * pixels) { bytes in
            for y in 0..<pixels {
                let row = UnsafeRawPointer(bytes + y * stride)
                for x in 0..<pixels {
                    coverage[y * pixels + x] = UInt8(row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) >> 24)
                }
            }
        }
        return coverage
    }
}
