// WaylandBindingsPlugin: runs wayland-swift-scanner over every `protocols/*.xml` of the package
// (sorted by name) and adds the generated Swift files to the target. Generated code is a build
// product in the plugin work directory; it is never committed.
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
        let inputs = names.map { protocols.appending(path: $0, directoryHint: .notDirectory) }
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources",
                                                                       directoryHint: .isDirectory)
        // Same naming rule as SwiftGenerator.outputFileName(forInput:) and interfaceTableFileName.
        let outputs = names.map { name in
            outputDirectory.appending(path: String(name.dropLast(4)) + "-protocol.swift",
                                      directoryHint: .notDirectory)
        } + [outputDirectory.appending(path: "wayland-interfaces.swift", directoryHint: .notDirectory)]
        let scanner = try context.tool(named: "wayland-swift-scanner")
        return [
            .buildCommand(
                displayName: "Generating Wayland bindings for \(names.joined(separator: ", "))",
                executable: scanner.url,
                arguments: ["--output", outputDirectory.path(percentEncoded: false)]
                    + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: outputs
            )
        ]
    }
}
