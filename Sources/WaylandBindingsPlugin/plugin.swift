// WaylandBindingsPlugin: runs wayland-swift-scanner over the package's `protocols` folder and adds
// the generated Swift to the target. Generated code is a build product in the plugin work
// directory; it is never committed.
//
// The folder, not its files, is the command's input, and the output is one file: SwiftPM plans a
// plugin's commands once and does not plan again when a file appears in or leaves a folder outside
// the target, so a command naming the files (and a file each out) would, after a file was removed,
// wait forever for an input that is gone ("missing inputs"). The folder changes whenever a file is
// added, removed or replaced (as editors and `cp` save), and the scanner lists it itself each time
// it runs. A file rewritten in place leaves the folder as it was: `touch protocols` then.
import Foundation
import PackagePlugin

@main
struct WaylandBindingsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let protocols = context.package.directoryURL.appending(path: "protocols", directoryHint: .isDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: protocols.path(percentEncoded: false))
            .filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }
            .sorted()
        guard !names.isEmpty else {
            Diagnostics.error("no protocol XML files in \(protocols.path(percentEncoded: false))")
            return []
        }
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources",
                                                                       directoryHint: .isDirectory)
        let output = outputDirectory.appending(path: "WaylandProtocols.swift", directoryHint: .notDirectory)
        let scanner = try context.tool(named: "wayland-swift-scanner")
        return [
            .buildCommand(
                displayName: "Generating Wayland bindings from protocols/",
                executable: scanner.url,
                arguments: ["--output", outputDirectory.path(percentEncoded: false), "--combined", "WaylandProtocols.swift",
                            protocols.path(percentEncoded: false)],
                inputFiles: [protocols],
                outputFiles: [output]
            )
        ]
    }
}
