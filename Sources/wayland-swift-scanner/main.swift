// wayland-swift-scanner: Wayland protocol XML in, Swift bindings out (see WaylandScannerCore).
//
//     wayland-swift-scanner --output DIR [--combined NAME] [--runtime-module MODULE] PROTOCOL.xml|FOLDER...
//
// Writes one `<name>-protocol.swift` per input plus `wayland-interfaces.swift` into DIR, or all of
// it into DIR/NAME with --combined. --runtime-module: the code is compiled outside the module
// holding the runtime (`Wayland`), so it imports it. A folder stands for the .xml files in it.
// Errors are printed as `file:line: error: message`; the exit code is then 1.
import Foundation
import WaylandScannerCore

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

func usage() -> Never {
    printError("usage: wayland-swift-scanner --output DIR [--combined NAME] [--runtime-module MODULE] PROTOCOL.xml|FOLDER...")
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var outputDirectory: String?
var combined: String?
var runtimeModule: String?
var inputs: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "-o", "--output":
        guard !arguments.isEmpty else { usage() }
        outputDirectory = arguments.removeFirst()
    case "--combined":
        guard !arguments.isEmpty else { usage() }
        combined = arguments.removeFirst()
    case "--runtime-module":
        guard !arguments.isEmpty else { usage() }
        runtimeModule = arguments.removeFirst()
    case "-h", "--help":
        usage()
    default:
        inputs.append(argument)
    }
}
guard let outputDirectory, !inputs.isEmpty else { usage() }

do {
    try WaylandScanner.run(inputPaths: inputs, outputDirectory: outputDirectory, combined: combined, runtimeModule: runtimeModule)
} catch {
    printError("\(error)")
    exit(1)
}
