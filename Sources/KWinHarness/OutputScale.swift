// Changing the output's scale while clients run, as Plasma's display settings do: a client of
// KDE's kde_output_management_v2 (protocols/kde-output-management-v2.xml and its output devices,
// kde-output-device-v2.xml), on bindings generated for the test harness only.
import Foundation
import Wayland
import CompositorHarness

/// One round of output configuration on its own connection: set the first output's scale and wait
/// for KWin to apply it.
enum OutputScale {
    static func set(_ scale: Double, socketPath: String, timeout: Double = 10) throws {
        let connection = try Connection(name: socketPath)
        let registry = connection.display.getRegistry()
        var globals: [String: [(name: UInt32, version: UInt32)]] = [:]
        registry.onEvent = { event in
            if case .global(let name, let interface, let version) = event { globals[interface, default: []].append((name, version)) }
        }
        try FakeInput.sync(connection, timeout: timeout)
        guard let deviceGlobal = globals[KdeOutputDeviceV2.interfaceName]?.first,
              let managementGlobal = globals[KdeOutputManagementV2.interfaceName]?.first else {
            throw HarnessError("KWin offers no \(KdeOutputDeviceV2.interfaceName) or \(KdeOutputManagementV2.interfaceName): \(globals.keys.sorted())")
        }
        let device = registry.bind(name: deviceGlobal.name, as: KdeOutputDeviceV2.self,
                                   version: min(deviceGlobal.version, KdeOutputDeviceV2.maxVersion))
        var modes: [KdeOutputDeviceModeV2] = []
        var currentScale: Double?
        device.onEvent = { event in
            switch event {
            case .mode(let mode): modes.append(mode)  // kept alive until the connection ends
            case .scale(let factor): currentScale = factor
            default: break
            }
        }
        let management = registry.bind(name: managementGlobal.name, as: KdeOutputManagementV2.self,
                                       version: min(managementGlobal.version, KdeOutputManagementV2.maxVersion))
        try FakeInput.sync(connection, timeout: timeout)
        guard currentScale != scale else { return }

        let configuration = management.createConfiguration()
        var outcome: Bool?
        configuration.onEvent = { event in
            switch event {
            case .applied: outcome = true
            case .failed: outcome = false
            }
        }
        configuration.scale(outputdevice: device, scale: scale)
        configuration.apply()
        let deadline = Date().addingTimeInterval(timeout)
        while outcome == nil {
            guard Date() < deadline else { throw HarnessError("KWin did not apply scale \(scale) within \(timeout) s") }
            try FakeInput.sync(connection, timeout: max(0.1, deadline.timeIntervalSinceNow))
            if outcome == nil { usleep(20_000) }
        }
        guard outcome == true else { throw HarnessError("KWin refused the output configuration with scale \(scale)") }
        withExtendedLifetime((modes, device, management, configuration)) {}
    }
}
