// Waiting for the screen to show something, the same way under every compositor we drive.
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A compositor session that can take screenshots (Weston through our plugin, Sway through grim,
/// GNOME through its Screenshot API, KWin through ScreenShot2).
public protocol ScreenCapturing: AnyObject {
    /// A screenshot of the whole output, saved at `path` (or in the session's own folder).
    func screenshot(to path: String?) throws -> Screenshot
    /// How long ``waitForScreen(timeout:_:_:)`` waits when not told.
    var screenTimeout: Double { get }
}

extension ScreenCapturing {
    /// Eight seconds: what a busy machine needs for the slower compositors' screenshots.
    public var screenTimeout: Double { 8 }

    /// Takes screenshots until `condition` holds, returning the first that satisfies it; on time-out
    /// throws, naming the last screenshot so a person can look at it.
    @discardableResult
    public func waitForScreen(timeout: Double? = nil, _ what: String,
                              _ condition: (Screenshot) -> Bool) throws -> Screenshot {
        let limit = timeout ?? screenTimeout
        let deadline = Date().addingTimeInterval(limit)
        var last: Screenshot?
        repeat {
            let shot = try screenshot(to: nil)
            if condition(shot) { return shot }
            last = shot
            usleep(30_000)
        } while Date() < deadline
        throw HarnessError("screen never showed \(what) within \(limit) s; last screenshot: \(last?.path ?? "none")")
    }
}

/// Screenshots of a wlroots compositor's whole output (Sway, phoc) with grim, numbered in the
/// session's runtime folder unless a path is given.
final class GrimScreenshots {
    private let folder: String
    private var count = 0

    init(folder: String) { self.folder = folder }

    func take(to path: String?, environment: [String: String]) throws -> Screenshot {
        count += 1
        let file = path ?? folder + "/shot-\(count).png"
        try SwaySession.run(WestonSession.which("grim") ?? "/usr/bin/grim", [file], environment: environment, timeout: 10)
        return try Screenshot(contentsOf: file)
    }
}
