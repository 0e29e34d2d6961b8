import Foundation
import Testing
@testable import WaylandScannerCore

/// The generated code for the edge-case fixtures (keywords, mangled names, bitfields, fds, arrays,
/// untyped new ids, cross-protocol references) type-checks against the real runtime in
/// Sources/Wayland, warning-free in Swift 6 mode. The real protocols are compiled by every build
/// of the Wayland target already.
@Suite("Generated code compiles")
struct CompileTests {
    @Test("fixtures + wayland.xml type-check with the runtime, without warnings",
          .timeLimit(.minutes(5)))
    func typecheck() throws {
        let waylandXML = Fixtures.packageRoot.appendingPathComponent("protocols/wayland.xml").path
        try Self.expectTypechecks([
            (waylandXML, try Data(contentsOf: URL(fileURLWithPath: waylandXML))),
            ("things.xml", Data(Fixtures.things.utf8)),
            ("extra.xml", Data(Fixtures.extra.utf8)),
        ])
    }

    /// Folders of the protocol XML that Debian's wayland-protocols, plasma-wayland-protocols and
    /// libweston-10-dev install (scripts/setup installs all three).
    static let debianProtocolFolders = ["/usr/share/wayland-protocols", "/usr/share/plasma-wayland-protocols", "/usr/share/libweston-10"]
    /// Files that define an interface another file defines too: they cannot share one module
    /// (nor one C program, with wayland-scanner).
    static let clashing: Set<String> = [
        "zkde-screencast-unstable-v1.xml",  // screencast.xml under its later name
        "xdg-shell-unstable-v5.xml",  // xdg_surface, as the stable xdg-shell.xml names it
    ]

    @Test("every protocol Debian installs generates and type-checks in one module with wayland.xml",
          .timeLimit(.minutes(10)))
    func debianProtocols() throws {
        var inputs: [(String, Data)] = []
        for folder in Self.debianProtocolFolders {
            let found = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            #expect(!found.isEmpty, "nothing in \(folder): scripts/setup installs it")
            for file in found.sorted() where file.hasSuffix(".xml") && !Self.clashing.contains((file as NSString).lastPathComponent) {
                let path = folder + "/" + file
                inputs.append((path, try Data(contentsOf: URL(fileURLWithPath: path))))
            }
        }
        #expect(inputs.count > 50)
        #expect(inputs.contains { $0.0.hasSuffix("plasma-window-management.xml") }, "its bitfields are written 1 << n")
        let waylandXML = Fixtures.packageRoot.appendingPathComponent("protocols/wayland.xml").path
        try Self.expectTypechecks([(waylandXML, try Data(contentsOf: URL(fileURLWithPath: waylandXML)))] + inputs)
    }

    /// Generates Swift for `protocols` and type-checks it with the runtime in Sources/Wayland, in
    /// Swift 6 mode with warnings as errors.
    static func expectTypechecks(_ protocols: [(String, Data)]) throws {
        // The toolchain that builds the tests has swiftc; not finding it is a failure, not a skip.
        let swiftc = try #require(CompileTests.swiftc, "swiftc is not on PATH")
        let root = Fixtures.packageRoot
        let files = try WaylandScanner.generate(protocols)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("wayland-scanner-compile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var sources: [String] = []
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            try Data(file.contents.utf8).write(to: url)
            sources.append(url.path)
        }
        let runtime = root.appendingPathComponent("Sources/Wayland")
        for name in try FileManager.default.contentsOfDirectory(atPath: runtime.path) where name.hasSuffix(".swift") {
            sources.append(runtime.appendingPathComponent(name).path)
        }
        let shimsMap = directory.appendingPathComponent("CShims.modulemap")
        let shimsHeader = root.appendingPathComponent("Sources/CShims/include/CShims.h").path
        try Data("module CShims {\n  header \"\(shimsHeader)\"\n  export *\n}\n".utf8).write(to: shimsMap)
        let waylandMap = root.appendingPathComponent("Sources/CWaylandClient/module.modulemap").path

        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = [
            // The runtime hands generated code of other modules its hooks with `package` access.
            "-typecheck", "-swift-version", "6", "-module-name", "Wayland", "-package-name", "TouchTracker",
            "-warnings-as-errors",
            "-Xcc", "-fmodule-map-file=\(waylandMap)", "-Xcc", "-fmodule-map-file=\(shimsMap.path)",
        ] + sources
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text.prefix(4000))")
    }

    static let swiftc: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()
}

@Suite("The scanner over a folder")
struct ScannerFolderTests {
    @Test("a folder stands for its .xml files, by name; --combined writes them all into one file")
    func folderIntoOneFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wayland-scanner-folder-\(getpid())")
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Fixtures.things.utf8).write(to: folder.appendingPathComponent("b-things.xml"))
        try Data(Fixtures.extra.utf8).write(to: folder.appendingPathComponent("c-extra.xml"))
        let wayland = Fixtures.packageRoot.appendingPathComponent("protocols/wayland.xml")
        try FileManager.default.copyItem(at: wayland, to: folder.appendingPathComponent("a-wayland.xml"))
        try Data("not xml".utf8).write(to: folder.appendingPathComponent(".hidden.xml"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README"))
        #expect(WaylandScanner.expandingFolders([folder.path]).map { ($0 as NSString).lastPathComponent }
                == ["a-wayland.xml", "b-things.xml", "c-extra.xml"])
        let written = try WaylandScanner.run(inputPaths: [folder.path], outputDirectory: output.path, combined: "All.swift")
        #expect(written == [output.appendingPathComponent("All.swift").path])
        let text = try String(contentsOfFile: written[0], encoding: .utf8)
        #expect(text.contains("public final class WlDisplay") && text.contains("public final class TtThing")
                && text.contains("enum _WaylandInterfaces"))
    }
}
