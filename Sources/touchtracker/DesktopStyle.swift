// The window follows the desktop's style while it runs: the portal's appearance settings read at
// start and on every change (SettingChanged), over the session bus the event loop watches. With
// no bus or no portal the window stays light. TOUCHTRACKER_STYLE overrides what the desktop says.
import DesktopPortal
import Logging
import TouchKit
import TouchTrackerKit
import WaylandHost

final class DesktopStyle {
    /// How long the start waits at most for the portal's first answer, before the first frame:
    /// a running portal answers at once, one the bus has to start (the first app after logging in)
    /// takes longer, and a window that waited shows the desktop's style from its first
    /// frame instead of flashing light (GTK's apps wait for it too). A portal that hangs holds the
    /// start back this long, then the window starts light and follows the answer when it comes.
    static let firstAnswerWait = 2.0

    private let window: Window
    private let logger: Logger
    private let override: String?
    private var portal: SettingsPortal?

    init(host: WaylandHost, logger: Logger) {
        window = host.window
        self.logger = logger
        override = DrawingLocation.environment("TOUCHTRACKER_STYLE")
        apply(SettingsPortal.Appearance())
        do throws(PortalError) {
            let portal = try SettingsPortal(environment: DrawingLocation.environment)
            portal.onChange = { [unowned self] settings in
                logger.debug("the portal's appearance: color-scheme \(settings.colorScheme.map(String.init) ?? "unset"), contrast \(settings.contrast.map(String.init) ?? "unset"), icon theme \(settings.iconTheme ?? "unset")")
                self.apply(settings)
            }
            guard let fd = portal.fileDescriptor else { return }
            portal.waitForAnswer(seconds: Self.firstAnswerWait)
            host.watchReadable(fd) { [unowned portal] in portal.read() }
            self.portal = portal
        } catch {
            logger.debug("the desktop's style is not followed: \(error.description)")
        }
    }

    private func apply(_ settings: SettingsPortal.Appearance) {
        var style = Appearance(colorScheme: settings.colorScheme, accent: settings.accentColor, contrast: settings.contrast,
                               iconTheme: settings.iconTheme, reduceMotion: settings.reduceMotion)
        if let override {
            let (overridden, unknown) = Appearance.overriding(style, with: override)
            if !unknown.isEmpty { logger.warning("TOUCHTRACKER_STYLE: ignored \(unknown.joined(separator: ", "))") }
            style = overridden
        }
        guard style != window.desktopAppearance else { return }
        logger.info("style: \(style.isDark ? "dark" : "light")\(style.highContrast ? ", high contrast" : "")\(style.reduceMotion ? ", less motion" : "")\(style.accent.map { ", accent \($0)" } ?? "")\(style.iconTheme.map { ", icons \($0)" } ?? "")")
        window.desktopAppearance = style
    }
}
