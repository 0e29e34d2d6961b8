// Helpers for the persistence tests: private folders, file contents, drawings with awkward numbers.
#if canImport(Glibc)
import Glibc
#endif
import TouchKit
import TouchTrackerKit

/// A fresh folder under /tmp, removed with everything in it when the value goes away.
final class TemporaryFolder {
    let path: String

    init() {
        var template = Array("/tmp/tt-persistence-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    deinit {
        chmod(path, 0o755)
        _ = system("rm -rf '\(path)'")
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// The names in the folder, sorted.
    var names: [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var result: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { result.append(name) }
        }
        return result.sorted()
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0, "cannot create \(path)")
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
        precondition(n > 0)
        written += n
    }
    close(fd)
}

func writeFile(_ path: String, _ text: String) { writeFile(path, Array(text.utf8)) }

func readFile(_ path: String) -> [UInt8]? {
    guard case .bytes(let bytes)? = try? DrawingFile.read(path, maxBytes: 1 << 30) else { return nil }
    return bytes
}

func fileMode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o7777
}

/// Whether two drawings are the same bit for bit (Double's == calls -0.0 and 0.0 equal).
func identical(_ a: [Stroke], _ b: [Stroke]) -> Bool {
    guard a.count == b.count else { return false }
    for (s, t) in zip(a, b) {
        guard s.id == t.id, s.kind == t.kind, s.points.count == t.points.count,
              s.width.bitPattern == t.width.bitPattern else { return false }
        let c1 = [s.color.red, s.color.green, s.color.blue, s.color.alpha]
        let c2 = [t.color.red, t.color.green, t.color.blue, t.color.alpha]
        guard zip(c1, c2).allSatisfy({ $0.bitPattern == $1.bitPattern }) else { return false }
        for (p, q) in zip(s.points, t.points) where p.x.bitPattern != q.x.bitPattern || p.y.bitPattern != q.y.bitPattern {
            return false
        }
    }
    return true
}

/// A small deterministic random source (SplitMix64), so a failing seed reproduces.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Doubles that stress a decimal round trip: any bit pattern within ±limit, subnormals, -0.0,
/// the ends of the range, multiples of 1/256 (Weston's coordinates) and thirds.
func awkwardDouble(_ random: inout SplitMix, limit: Double) -> Double {
    switch random.next() % 8 {
    case 0:
        while true {
            let value = Double(bitPattern: random.next())
            if value.isFinite, abs(value) <= limit { return value }
        }
    case 1: return [0.0, -0.0, .leastNonzeroMagnitude, -.leastNormalMagnitude, limit, -limit][Int(random.next() % 6)]
    case 2: return Double(Int(random.next() % UInt64(limit * 256))) / 256 * (random.next() % 2 == 0 ? 1 : -1)
    case 3: return Double(Int(random.next() % 3000)) / 3
    case 4: return Double.random(in: -limit...limit, using: &random)
    case 5: return Double.random(in: 0...1, using: &random) * 1e-300
    default: return Double.random(in: 0..<min(1024, limit), using: &random)
    }
}

/// A random drawing within the standard limits, with every kind, odd ids and awkward numbers.
func randomDrawing(seed: UInt64, maxStrokes: Int = 12) -> [Stroke] {
    var random = SplitMix(seed: seed)
    let limits = DrawingFormat.Limits.standard
    var ids = Set<Int>()
    var strokes: [Stroke] = []
    for _ in 0..<Int(random.next() % UInt64(maxStrokes + 1)) {
        var id = 1 + Int(random.next() % UInt64(limits.maxID))
        if random.next() % 3 == 0 { id = 1 + Int(random.next() % 50) }
        guard ids.insert(id).inserted else { continue }
        let kind = Stroke.Kind.allCases[Int(random.next() % 3)]
        let count = kind == .freehand ? 1 + Int(random.next() % 20) : 2
        let points = (0..<count).map { _ in
            Point(x: awkwardDouble(&random, limit: limits.maxCoordinate), y: awkwardDouble(&random, limit: limits.maxCoordinate))
        }
        func unit() -> Double {
            switch random.next() % 4 {
            case 0: return 0
            case 1: return 1
            default: return Double(bitPattern: random.next() >> 12 | 0x3FF0_0000_0000_0000) - 1
            }
        }
        var width = abs(awkwardDouble(&random, limit: limits.maxWidth))
        if width == 0 { width = 10 }
        strokes.append(Stroke(id: StrokeID(id), kind: kind, points: points,
                              color: Color(red: unit(), green: unit(), blue: unit(), alpha: unit()), width: width))
    }
    return strokes
}

/// A version-1 file's text with the given stroke objects (JSON text each).
func drawingJSON(_ strokes: [String], version: String = "1") -> String {
    "{\"format\": \"touchtracker-drawing\", \"version\": \(version), \"strokes\": [\(strokes.joined(separator: ", "))]}"
}

/// One stroke object's text; parts can be replaced to make it wrong.
func strokeJSON(id: String = "1", kind: String = "\"line\"", color: String = "[0, 0, 0, 1]", width: String = "10",
                points: String = "[[1, 2], [3, 4]]", extra: String = "") -> String {
    "{\"id\": \(id), \"kind\": \(kind), \"color\": \(color), \"width\": \(width), \"points\": \(points)\(extra)}"
}

/// The decoding error's message for a file's text, or nil when it decodes.
func decodeError(_ text: String, limits: DrawingFormat.Limits = .standard) -> String? {
    do {
        _ = try DrawingFormat.decode(Array(text.utf8), limits: limits)
        return nil
    } catch {
        return error.message
    }
}
