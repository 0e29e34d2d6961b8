import Foundation

/// A generated Swift file: a name (no directory) and its contents.
public struct GeneratedFile: Hashable, Sendable {
    public var name: String
    public var contents: String
}

/// The scanner's entry points: XML documents in, Swift files out.
public enum WaylandScanner {
    /// Parses, validates and generates. Inputs are (path for diagnostics, XML bytes), in order.
    /// Returns one file per input plus the shared interface-table file (last).
    /// `runtimeModule`: the module holding the runtime, when the code is compiled into another one.
    public static func generate(_ inputs: [(path: String, data: Data)],
                                runtimeModule: String? = nil) throws(ScannerError) -> [GeneratedFile] {
        var protocols: [ProtocolSpec] = []
        var outputNames: [String: String] = [:]
        for input in inputs {
            let name = SwiftGenerator.outputFileName(forInput: input.path)
            if let other = outputNames[name] {
                throw ScannerError(SourceLocation(file: input.path, line: 1),
                                   "this file and \(other) would both generate \(name)")
            }
            outputNames[name] = input.path
            protocols.append(try ProtocolParser.parse(input.data, file: input.path))
        }
        let set = try ProtocolSet.validate(protocols)
        let generator = SwiftGenerator(set, runtimeModule: runtimeModule)
        var files: [GeneratedFile] = []
        for (input, spec) in zip(inputs, protocols) {
            files.append(GeneratedFile(name: SwiftGenerator.outputFileName(forInput: input.path),
                                       contents: generator.protocolFile(spec)))
        }
        files.append(GeneratedFile(name: SwiftGenerator.interfaceTableFileName,
                                   contents: generator.interfaceTableFile()))
        return files
    }

    /// `paths` with each folder replaced by the `.xml` files in it (not hidden ones), by name.
    public static func expandingFolders(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
    }

    /// Reads the files at `paths` (a folder stands for its `.xml` files), generates, and writes the
    /// results into `outputDirectory`: a file each, or all in one file named `combined`. Returns
    /// the written paths. Unreadable inputs are reported as errors at line 1.
    @discardableResult
    public static func run(inputPaths: [String], outputDirectory: String,
                           combined: String? = nil, runtimeModule: String? = nil) throws(ScannerError) -> [String] {
        let paths = expandingFolders(inputPaths)
        guard !paths.isEmpty else {
            throw ScannerError(SourceLocation(file: inputPaths.first ?? outputDirectory, line: 1), "no protocol XML files")
        }
        var inputs: [(path: String, data: Data)] = []
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ScannerError(SourceLocation(file: path, line: 1), "cannot read file")
            }
            inputs.append((path, data))
        }
        var files = try generate(inputs, runtimeModule: runtimeModule)
        if let combined {
            files = [GeneratedFile(name: combined, contents: files.map(\.contents).joined(separator: "\n"))]
        }
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
        } catch {
            throw ScannerError(SourceLocation(file: outputDirectory, line: 1),
                               "cannot create output directory: \(error.localizedDescription)")
        }
        var written: [String] = []
        for file in files {
            let path = (outputDirectory as NSString).appendingPathComponent(file.name)
            do {
                try Data(file.contents.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw ScannerError(SourceLocation(file: path, line: 1), "cannot write: \(error.localizedDescription)")
            }
            written.append(path)
        }
        return written
    }
}
