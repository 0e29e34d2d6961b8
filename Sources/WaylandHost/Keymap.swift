// wl_keyboard -> key presses, through xkbcommon with the compositor's keymap. The keymap is read,
// not mapped: the compositor's file may be shorter than the size it gives (a mapping then faults
// past its end) and need not end in NUL, so exactly the bytes it holds, up to Limit.keymapBytes,
// are handed to xkbcommon with their length.
#if canImport(Glibc)
import Glibc
#endif
import CXKBCommon
import Limits
import Logging
import Wayland

/// One key press as the app sees it: the keysym after the layout is applied, and the modifiers.
public struct KeyPress: Equatable, Sendable {
    public struct Modifiers: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1)
        public static let control = Modifiers(rawValue: 2)
        public static let alt = Modifiers(rawValue: 4)
        public static let logo = Modifiers(rawValue: 8)
    }

    /// The XKB keysym (e.g. 0xff1b Escape, 0xffff Delete, 0x71 'q').
    public var keysym: UInt32
    public var modifiers: Modifiers
    /// The XKB name of the keysym, e.g. "Escape", "Delete", "q", "Z".
    public var name: String

    public init(keysym: UInt32, modifiers: Modifiers, name: String) {
        self.keysym = keysym
        self.modifiers = modifiers
        self.name = name
    }

    public static let escape: UInt32 = 0xff1b
    public static let delete: UInt32 = 0xffff
    public static let backspace: UInt32 = 0xff08
}

final class Keymap {
    private let context: OpaquePointer?
    private var keymap: OpaquePointer?
    private var state: OpaquePointer?
    private let logger: Logger
    /// Receives key presses (not releases; repeat is not synthesised yet).
    var onKeyPress: ((KeyPress) -> Void)?

    init(logger: Logger) {
        self.logger = logger
        context = xkb_context_new(XKB_CONTEXT_NO_FLAGS)
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    func handle(_ event: WlKeyboard.Event) {
        switch event {
        case .keymap(let format, let fd, let size):
            defer { close(fd) }
            guard format == .xkbV1 else {
                logger.warning("keyboard: unsupported keymap format \(format.rawValue)")
                return
            }
            load(fd: fd, size: Int(size))
        case .key(_, _, let key, let state):
            guard state == .pressed, let xkbState = self.state else { return }
            // Wayland sends evdev codes; XKB's are offset by 8.
            let keysym = xkb_state_key_get_one_sym(xkbState, key + 8)
            onKeyPress?(KeyPress(keysym: keysym, modifiers: modifiers(xkbState), name: name(of: keysym)))
        case .modifiers(_, let depressed, let latched, let locked, let group):
            if let state { xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group) }
        case .leave:
            // Keys released elsewhere are not told: none counts as held until focus is back
            // (wl_keyboard.enter is followed by the modifiers then).
            if let state { xkb_state_update_mask(state, 0, 0, 0, 0, 0, 0) }
        default:
            break
        }
    }

    private func load(fd: Int32, size: Int) {
        let text: [UInt8]
        switch Self.read(fd: fd, size: size) {
        case .success(let bytes): text = bytes
        case .failure(let problem):
            logger.warning("keyboard: the compositor's keymap is refused: \(problem.reason)")
            return
        }
        // The text ends at its NUL, if it has one (most compositors send one).
        let length = text.firstIndex(of: 0) ?? text.count
        let compiled = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xkb_keymap_new_from_buffer(context, $0.baseAddress, length, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
            }
        }
        guard let newKeymap = compiled else {
            logger.warning("keyboard: the compositor's keymap does not compile")
            return
        }
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        keymap = newKeymap
        state = xkb_state_new(newKeymap)
    }

    struct ReadProblem: Error { let reason: String }

    /// The `size` bytes of the keymap file `fd`, read from its start.
    static func read(fd: Int32, size: Int) -> Result<[UInt8], ReadProblem> {
        guard size > 0, size <= Limit.keymapBytes else {
            return .failure(ReadProblem(reason: "\(size) bytes (at most \(Limit.keymapBytes))"))
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return .failure(ReadProblem(reason: String(cString: strerror(errno)))) }
            guard n > 0 else { return .failure(ReadProblem(reason: "its file holds \(done) of the \(size) bytes announced")) }
            done += n
        }
        return .success(bytes)
    }

    /// Whether Ctrl is held, as far as the window with keyboard focus knows: a scroll then zooms
    /// (S14, S15).
    var controlHeld: Bool {
        guard let state else { return false }
        return xkb_state_mod_name_is_active(state, XKB_MOD_NAME_CTRL, XKB_STATE_MODS_EFFECTIVE) > 0
    }

    private func modifiers(_ state: OpaquePointer) -> KeyPress.Modifiers {
        var result: KeyPress.Modifiers = []
        func active(_ name: String) -> Bool {
            xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0
        }
        if active(XKB_MOD_NAME_SHIFT) { result.insert(.shift) }
        if active(XKB_MOD_NAME_CTRL) { result.insert(.control) }
        if active(XKB_MOD_NAME_ALT) { result.insert(.alt) }
        if active(XKB_MOD_NAME_LOGO) { result.insert(.logo) }
        return result
    }

    private func name(of keysym: xkb_keysym_t) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = Int(xkb_keysym_get_name(keysym, &buffer, buffer.count))
        guard n > 0 else { return "" }
        // n is the name's length without the terminator (longer names are cut to the buffer).
        return String(decoding: buffer.prefix(min(n, buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
