// The fuzz targets' seed corpora (Tests/FuzzCorpus/TARGET) run through the targets' entry points
// in the normal build, so that neither rots between fuzzing runs: a seed named `valid-…` must be
// accepted, one named `invalid-…` refused, and no seed may break a target's checks. Seeds named
// `regression-…` are inputs that once crashed a target (the fuzzer's, or an issue's), kept so that
// the bug stays fixed.
import FuzzTargets
import Testing

@Suite("Fuzz targets: seed corpora")
struct CorpusTests {
    static let corpus = String(#filePath.dropLast("FuzzTargetsTests/CorpusTests.swift".count)) + "FuzzCorpus"

    /// What is wrong with running seed `name` (its file name) through `target`, or nil.
    static func problem(_ target: FuzzTarget, seed name: String, _ bytes: [UInt8]) -> String? {
        let outcome: FuzzOutcome
        do {
            outcome = try target.run(bytes)
        } catch {
            return "\(target.name)/\(name) broke a check: \(error)"
        }
        switch outcome {
        case .rejected(let reason) where name.hasPrefix("valid-"):
            return "\(target.name)/\(name) should be read, and was refused: \(reason)"
        case .accepted where name.hasPrefix("invalid-"):
            return "\(target.name)/\(name) should be refused, and was read"
        default:
            return nil
        }
    }

    @Test("Every seed runs through its target: valid seeds read, invalid ones refused, no check broken",
          arguments: FuzzTarget.all.map(\.name))
    func seeds(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let folder = FuzzCorpus.folders(Self.corpus).contains(name) ? Self.corpus + "/" + name : nil
        let paths = folder.map(FuzzCorpus.files) ?? []
        #expect(paths.count >= 3, "Tests/FuzzCorpus/\(name) should hold a handful of seeds")
        #expect(paths.contains { $0.split(separator: "/").last!.hasPrefix("valid-") }, "no valid seed for \(name)")
        for path in paths {
            let bytes = try #require(FuzzCorpus.read(path), "cannot read \(path)")
            let seed = String(path.split(separator: "/").last!)
            #expect(bytes.count <= target.maxLength, "\(name)/\(seed) is longer than the target's -max_len")
            if let problem = Self.problem(target, seed: seed, bytes) { Issue.record("\(problem)") }
        }
    }

    @Test("Every folder of seeds names a target")
    func foldersNameTargets() {
        let folders = FuzzCorpus.folders(Self.corpus)
        #expect(folders.sorted() == FuzzTarget.all.map(\.name).sorted())
    }

    /// Whether `line` is one libFuzzer's -dict reads: blank, a comment, or `[name=]"..."` with the
    /// escapes \\, \" and \xHH.
    static func isDictionaryLine(_ line: Substring) -> Bool {
        if line.allSatisfy({ $0 == " " }) || line.hasPrefix("#") { return true }
        let bytes = Array(line.utf8.drop { $0 != UInt8(ascii: "\"") })
        guard bytes.count >= 2, bytes.last == UInt8(ascii: "\"") else { return false }
        var i = 1
        while i < bytes.count - 1 {
            if bytes[i] == UInt8(ascii: "\\") {
                switch bytes[i + 1] {
                case UInt8(ascii: "\\"), UInt8(ascii: "\""): i += 2
                case UInt8(ascii: "x"):
                    let hex = bytes.dropFirst(i + 2).prefix(2)
                    guard hex.count == 2, hex.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else { return false }
                    i += 4
                default: return false
                }
            } else if bytes[i] == UInt8(ascii: "\"") || bytes[i] < 0x20 || bytes[i] >= 0x7F {
                return false
            } else {
                i += 1
            }
        }
        return i == bytes.count - 1
    }

    @Test("Every dictionary names a target and is one libFuzzer reads")
    func dictionaries() throws {
        let names = Set(FuzzTarget.all.map(\.name))
        let dictionaries = FuzzCorpus.files(Self.corpus).filter { $0.hasSuffix(".dict") }
        #expect(!dictionaries.isEmpty)
        for path in dictionaries {
            let name = String(path.split(separator: "/").last!.dropLast(".dict".count))
            #expect(names.contains(name), "\(name).dict names no target")
            let text = String(decoding: try #require(FuzzCorpus.read(path)), as: UTF8.self)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                #expect(Self.isDictionaryLine(line), "\(name).dict line \(number + 1): \(line)")
            }
        }
        #expect(!Self.isDictionaryLine("\"a\\q\""), "an escape libFuzzer refuses")
    }

    @Test("A damaged valid seed is reported, as is an invalid one that reads")
    func damagedSeedsAreReported() throws {
        let drawing = try #require(FuzzTarget.named("drawing"))
        let seed = try #require(FuzzCorpus.read(Self.corpus + "/drawing/valid-docs-example.json"))
        #expect(Self.problem(drawing, seed: "valid-docs-example.json", seed) == nil)
        #expect(Self.problem(drawing, seed: "valid-docs-example.json", Array(seed.dropLast(10)))?.contains("was refused") == true)
        #expect(Self.problem(drawing, seed: "invalid-docs-example.json", seed)?.contains("should be refused") == true)
    }
}
