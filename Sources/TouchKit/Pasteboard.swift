/// The system clipboard, as UIKit's `UIPasteboard.general` gives it to an app (P1), for a platform
/// where it is asynchronous: on Wayland another client holds what was copied, and its bytes arrive
/// through a pipe some time after they are asked for.
///
/// One per application (`application.pasteboard`), set by the host; nil where there is no system
/// clipboard (a headless replay, unit tests that do not set one). TouchKit knows no MIME type; the
/// app chooses what it writes and reads.
public protocol Pasteboard: AnyObject {
    /// The types the clipboard offers, in the order its owner listed them; empty when it is empty.
    /// On Wayland this is what the compositor last told the app, which it does only when the app
    /// has keyboard focus.
    var types: [String] { get }

    /// Makes the app the clipboard's owner, offering `items` in order (best first). Each item's
    /// bytes are made the first time another program asks for them, then kept. Returns false when
    /// the platform refused (no input event to authorise it, no clipboard).
    @discardableResult
    func setItems(_ items: [PasteboardItem]) -> Bool

    /// Reads the clipboard's `type`, calling `completion` once, later, from the app's event loop:
    /// with the bytes, or a failure (at most `maxBytes` are read; more is `.tooLarge`).
    func read(_ type: String, maxBytes: Int, completion: @escaping (PasteboardReadResult) -> Void)
}

/// One representation of what was copied: its MIME type and how to make its bytes.
public struct PasteboardItem {
    public var type: String
    public var data: () -> [UInt8]
    /// For bytes slow to make (a picture to encode): the host makes them off the event loop with
    /// this, so the app goes on answering touches meanwhile. Nil for bytes made at once with `data`.
    public var slowData: (@Sendable () -> [UInt8])?

    public init(type: String, data: @escaping () -> [UInt8]) {
        self.type = type
        self.data = data
    }

    /// An item whose bytes are made off the event loop when another program asks for them.
    public static func slow(type: String, _ make: @escaping @Sendable () -> [UInt8]) -> PasteboardItem {
        var item = PasteboardItem(type: type, data: make)
        item.slowData = make
        return item
    }
}

/// How a ``Pasteboard/read(_:maxBytes:completion:)`` ended.
public enum PasteboardReadResult: Equatable, Sendable {
    case data([UInt8])
    /// The owner sent more than the `maxBytes` asked for; reading stopped there.
    case tooLarge(maxBytes: Int)
    /// The clipboard no longer offers the type, its owner sent nothing in time, or the transfer
    /// broke; the message says which, in words for the user.
    case failed(String)
}
