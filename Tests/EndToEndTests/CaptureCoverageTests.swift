// The plugin's coverage capture, which the prediction benchmark reads a stroke's end from to a
// fraction of a pixel: given the background colour, each pixel holds how much of it the colour
// covers. The real app's antialiased red line over its white paper must so add up to the area of
// the 10 pt round-capped line it draws, with its edge pixels partly covered.
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import CompositorHarness

@Suite("The plugin's coverage capture", .serialized)
struct CaptureCoverageTests {
    @Test("A line's coverage over the paper adds up to the line's area, its edge partly covered")
    func lineArea() throws {
        var coverage: [UInt8] = []
        var length = 0.0
        withApp(arguments: ["--no-prediction"]) { app in
            let a = app.global(100, 300), b = app.global(400, 360)
            length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let (x, y, w, h) = (Int(a.x) - 20, Int(a.y) - 20, 340, 100)
            _ = try app.session.control.send("capture start \(x) \(y) \(w) \(h) ff0000 ffffff")
            try app.down(0, 100, 300)
            try app.frame()
            for i in 1...20 {
                usleep(8_000)
                try app.move(0, 100 + 15 * Double(i), 300 + 3 * Double(i))
                try app.frame()
            }
            usleep(400_000)
            let path = app.session.runtimeDirectory + "/coverage.bin"
            _ = try app.session.control.send("capture stop")
            _ = try app.session.control.send("capture write \(path)", timeout: 60)
            try app.up(0)
            try app.frame()
            let data = try #require(FileManager.default.contents(atPath: path).map([UInt8].init))
            let newline = try #require(data.firstIndex(of: 10))
            let header = String(decoding: data[..<newline], as: UTF8.self).split(separator: " ")
            #expect(header.count == 7 && header[0] == "tt-capture" && header[1] == "2", "header \(header)")
            let frames = Int(header.last ?? "") ?? 0
            let frameBytes = 16 + w * h
            #expect(frames > 0 && data.count == newline + 1 + frames * frameBytes, "\(frames) frames in \(data.count) bytes")
            // The last repaint: the line at rest, from where the finger landed to where it is.
            let last = newline + 1 + (frames - 1) * frameBytes + 16
            if frames > 0, last + w * h <= data.count { coverage = Array(data[last..<(last + w * h)]) }
        }
        let area = coverage.reduce(0.0) { $0 + Double($1) / 255 }
        let expected = 10 * length + Double.pi * 25
        #expect(abs(area - expected) < 0.01 * expected, "covered \(area) px², a 10 pt line \(length) long covers \(expected)")
        let partial = coverage.filter { $0 > 0 && $0 < 255 }.count
        #expect(Double(partial) > length, "\(partial) pixels partly covered along a \(length) pt line")
    }
}
