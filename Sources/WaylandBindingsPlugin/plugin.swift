// WaylandBindingsPlugin: runs wayland-swift-scanner over a `protocols` folder and adds the
// generated Swift to the target. The folder is the target's own `Sources/<target>/protocols` when
// it has one (a test harness speaking a protocol the app does not: KWinHarness's fake input), else
// the package's `protocols` (the app's protocols, for the Wayland module). Generated code is a
// build product in the plugin work directory; it is never committed. Code generated for a target
// other than `Wayland` imports that module's runtime (`--runtime-module Wayland`) and is one file
// named after the target (`KWinHarnessProtocols.swift`).
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
        // Sources/<target>/protocols: every target here lives at its default path (Target's
        // directoryURL needs tools version 6.1).
        let own = context.package.directoryURL.appending(path: "Sources/\(target.name)/protocols",
                                                         directoryHint: .isDirectory)
        var isFolder: ObjCBool = false
        let hasOwn = FileManager.default.fileExists(atPath: own.path(percentEncoded: false), isDirectory: &isFolder)
            && isFolder.boolValue
        let protocols = hasOwn ? own : context.package.directoryURL.appending(path: "protocols", directoryHint: .isDirectory)
        let runtimeModule = "Wayland"
        let isRuntime = target.name == runtimeModule
        let fileName = isRuntime ? "WaylandProtocols.swift" : "\(target.name)Protocols.swift"
        let names = try FileManager.default.contentsOfDirectory(atPath: protocols.path(percentEncoded: false))
            .filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }
            .sorted()
        guard !names.isEmpty else {
            Diagnostics.error("no protocol XML files in \(protocols.path(percentEncoded: false))")
            return []
        }
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "GeneratedSources",
                                                                       directoryHint: .isDirectory)
        let output = outputDirectory.appending(path: fileName, directoryHint: .notDirectory)
        let scanner = try context.tool(named: "wayland-swift-scanner")
        return [
            .buildCommand(
                displayName: "Generating Wayland bindings of \(target.name) from \(hasOwn ? "its own " : "")protocols/",
                executable: scanner.url,
                arguments: ["--output", outputDirectory.path(percentEncoded: false), "--combined", fileName]
                    + (isRuntime ? [] : ["--runtime-module", runtimeModule])
                    + [protocols.path(percentEncoded: false)],
                inputFiles: [protocols],
                outputFiles: [output]
            )
        ]
    }
}
