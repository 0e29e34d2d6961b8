// wl_output scales, so the window can render at the scale of the outputs it is on (integer HiDPI;
// wl_surface.preferred_buffer_scale needs libwayland 1.22, newer than Debian 12's). A scale is
// taken within 1...Limit.outputScale, whatever the compositor says.
import Limits
import Wayland

final class Output {
    let output: WlOutput
    /// The scale announced so far; applied on `done` (version 2+) or at once (version 1).
    private(set) var scale: Int32 = 1
    private var pendingScale: Int32 = 1
    var onChange: (() -> Void)?

    init(_ output: WlOutput) {
        self.output = output
        output.onEvent = { [unowned self] event in
            switch event {
            case .scale(let factor):
                self.pendingScale = Self.clampedScale(factor)
                if self.output.version < 2 { self.apply() }
            case .done:
                self.apply()
            default:
                break
            }
        }
    }

    /// An output's scale as the app takes it.
    static func clampedScale(_ factor: Int32) -> Int32 {
        min(max(factor, 1), Int32(Limit.outputScale))
    }

    private func apply() {
        guard pendingScale != scale else { return }
        scale = pendingScale
        onChange?()
    }
}
