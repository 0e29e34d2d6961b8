// Whether Ctrl is held, as the seat asks before a scroll turns into a zoom (S14, S15).
import Logging
import Testing
import Wayland
@testable import WaylandHost

@Suite("Ctrl held for zooming (S14, S15)")
struct ControlHeldTests {
    /// A keyboard with the default (US) keymap the compositor sent.
    func keyboard() throws -> Keymap {
        let text = try HostileCompositorTests.keymapText()
        let keymap = Keymap(logger: Logger(label: "test"))
        keymap.handle(.keymap(format: .xkbV1, fd: HostileCompositorTests.file(text + [0]), size: UInt32(text.count + 1)))
        return keymap
    }

    @Test("S14: Ctrl counts as held from the compositor's modifiers with Control depressed or locked until they say otherwise")
    func fromTheModifiers() throws {
        let keymap = try keyboard()
        #expect(!keymap.controlHeld)
        // Control is the third modifier of XKB's core set: mask 1 << 2.
        keymap.handle(.modifiers(serial: 1, modsDepressed: 1 << 2, modsLatched: 0, modsLocked: 0, group: 0))
        #expect(keymap.controlHeld)
        keymap.handle(.modifiers(serial: 2, modsDepressed: 1 << 0, modsLatched: 0, modsLocked: 0, group: 0))
        #expect(!keymap.controlHeld, "Shift is not Ctrl")
        keymap.handle(.modifiers(serial: 3, modsDepressed: 0, modsLatched: 0, modsLocked: 1 << 2, group: 0))
        #expect(keymap.controlHeld)
    }

    @Test("S14: once the window loses the keyboard's focus Ctrl no longer counts: its release elsewhere is never told")
    func notAfterLeaving() throws {
        let keymap = try keyboard()
        keymap.handle(.modifiers(serial: 1, modsDepressed: 1 << 2, modsLatched: 0, modsLocked: 0, group: 0))
        keymap.handle(.leave(serial: 2, surface: nil))
        #expect(!keymap.controlHeld)
    }
}
