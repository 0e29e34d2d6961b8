// `touchtracker --trace`: every touch method call the canvas gets, one log line per touch, with
// short numbers for the touches in the order they began.
import Logging
import TouchKit

struct TouchTrace {
    var logger: Logger?
    private var numbers: [ObjectIdentifier: Int] = [:]
    private var next = 1

    /// Logs `method` for each of `touches` (in the order their fingers went down).
    mutating func log(_ method: String, _ touches: [Touch], count: Int, in view: View) {
        guard let logger else { return }
        for touch in touches {
            let key = ObjectIdentifier(touch)
            let number = numbers[key] ?? next
            if numbers[key] == nil {
                numbers[key] = number
                next += 1
            }
            if touch.phase == .ended || touch.phase == .cancelled { numbers[key] = nil }
            let p = touch.location(in: view)
            logger.info("\(method) touches=\(count) phase=\(touch.phase) touch=\(number) x=\(p.x) y=\(p.y) taps=\(touch.tapCount)")
        }
    }
}
