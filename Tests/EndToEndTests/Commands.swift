// Running the tools the tests check against (meson, msgfmt, xgettext, desktop-file-validate).
import CompositorHarness
import Foundation

/// Runs a program found on PATH to its end; its exit status and its output and errors together.
func runCommand(_ arguments: [String], in directory: String? = nil,
                environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    // Tools' messages in English, which the tests read.
    process.environment = HarnessPaths.environmentInEnglish.merging(environment) { $1 }
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, output)
}
