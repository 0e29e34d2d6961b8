// Reading seed corpora and crash files: for the corpus replayer and the tests.
#if canImport(Glibc)
import Glibc
#endif

public enum FuzzCorpus {
    /// `path` if it is not a folder, else the files in it (not recursing, no hidden ones), sorted.
    public static func files(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix("."), entry.pointee.d_type != UInt8(DT_DIR) { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    /// The folders in `path`, sorted by name.
    public static func folders(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix("."), entry.pointee.d_type == UInt8(DT_DIR) { names.append(name) }
        }
        return names.sorted()
    }

    /// The whole file, or nil when it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[0..<count]
            if count < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}
