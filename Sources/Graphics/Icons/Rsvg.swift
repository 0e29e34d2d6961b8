// librsvg, which renders the desktop's SVG icons and the app's own, opened with dlopen the first
// time an icon is drawn (as Pango is): linked, it would bring librsvg, GLib and their own
// dependencies into every run, `touchtracker export` included. Without it, no icons are drawn and
// the toolbar shows its words alone.
#if canImport(Glibc)
import Glibc
#endif
import CCairo

final class RsvgLibrary: @unchecked Sendable {
    /// Nil when librsvg cannot be loaded.
    static let shared = RsvgLibrary()

    typealias NewFromData = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer?
    typealias RenderDocument = @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?,
                                               UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    typealias Unref = @convention(c) (OpaquePointer?) -> Void

    private let newFromData: NewFromData
    private let renderDocument: RenderDocument
    private let unref: Unref
    private let freeError: Unref

    private init?() {
        guard let handle = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ name: String, as type: T.Type) -> T? { dlsym(handle, name).map { unsafeBitCast($0, to: type) } }
        // rsvg_handle_render_document is librsvg 2.46's; Debian 12 has 2.54.
        guard let newFromData = symbol("rsvg_handle_new_from_data", as: NewFromData.self),
              let renderDocument = symbol("rsvg_handle_render_document", as: RenderDocument.self),
              let unref = symbol("g_object_unref", as: Unref.self),
              let freeError = symbol("g_error_free", as: Unref.self)
        else {
            dlclose(handle)
            return nil
        }
        self.newFromData = newFromData
        self.renderDocument = renderDocument
        self.unref = unref
        self.freeError = freeError
    }

    /// Renders `svg` scaled to fill `size` pixels square into a new image (ARGB, premultiplied);
    /// nil when librsvg cannot read it.
    func render(_ svg: [UInt8], pixels size: Int) -> OpaquePointer? {
        var error: OpaquePointer?
        let handle = svg.withUnsafeBufferPointer { newFromData($0.baseAddress, $0.count, &error) }
        if let error { freeError(error) }
        guard let handle else { return nil }
        defer { unref(handle) }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size)) else { return nil }
        let cairo = cairo_create(surface)
        defer { cairo_destroy(cairo) }
        // RsvgRectangle: x, y, width, height as doubles.
        let viewport: [Double] = [0, 0, Double(size), Double(size)]
        var renderError: OpaquePointer?
        let drawn = viewport.withUnsafeBytes { renderDocument(handle, cairo, $0.baseAddress, &renderError) }
        if let renderError { freeError(renderError) }
        cairo_surface_flush(surface)
        guard drawn != 0 else {
            cairo_surface_destroy(surface)
            return nil
        }
        return surface
    }
}
