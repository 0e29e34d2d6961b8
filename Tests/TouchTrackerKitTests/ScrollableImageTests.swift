// An image a scroll moves without copying (Graphics' ScrollingPixels, the line cache's raster):
// after any run of scrolls it holds what moving its pixels would have made, and the system counts
// its memory once, however far it scrolled.
#if canImport(Glibc)
import Glibc
#endif
@testable import Graphics
import Testing
import TouchKit

@Suite("Images a scroll moves without copying")
struct ScrollableImageTests {
    /// Scrolls of every kind: a pixel, a few rows, diagonal, more than the image (nothing kept),
    /// and runs one way far past the mappings' range (the window starting again in the middle).
    static func scrolls(height: Int) -> [(dx: Int, dy: Int)] {
        var random = SplitMix(seed: 11)
        var steps: [(Int, Int)] = [(0, 1), (1, 0), (-1, -1), (0, 0), (500, 0), (0, -height - 3)]
        for _ in 0..<60 { steps.append((Int.random(in: -40...40, using: &random), Int.random(in: -60...60, using: &random))) }
        // Nine window heights down, then eighteen up: past either end of the mappings.
        steps += Array(repeating: (3, -height + 7), count: 3 * ScrollingPixels.mappings / 2 + 3)
        steps += Array(repeating: (-2, height - 5), count: 3 * ScrollingPixels.mappings + 6)
        return steps
    }

    /// Paints what a scroll uncovered as the line cache does, and a line across, in a colour of the
    /// step's: the two images must then agree everywhere.
    static func paint(_ image: ImageSurface, after step: (dx: Int, dy: Int), index: Int) {
        let color = Color(red: Double(index % 7) / 6, green: Double(index % 5) / 4, blue: Double(index % 3) / 2)
        image.fill(rows: step.dy > 0 ? 0..<step.dy : image.height + step.dy..<image.height, with: color)
        image.fill(rows: 0..<image.height, columns: step.dx > 0 ? 0..<step.dx : image.width + step.dx..<image.width, with: color)
        let context = CairoContext(surface: image)
        context.setStrokeColor(Color(red: 0.9, green: 0.2, blue: Double(index % 4) / 3))
        context.setLineWidth(3)
        context.move(to: Point(x: Double(index * 13 % 150), y: 0))
        context.addLine(to: Point(x: Double(index * 29 % 150), y: 100))
        context.strokePath()
    }

    @Test("A15: a raster's memory faulted in on another thread is soon all resident, and nothing was written: it still reads as zeroed")
    func populatedAside() async throws {
        let image = ImageSurface(scrollable: Size(width: 640, height: 480), scale: 1)
        let pixels = try #require(image.scrolling)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pages = (pixels.windowBytes + page - 1) / page
        /// Pages of the window the system holds (mincore: a shared file's page is there once made).
        func resident() -> Int {
            var held = [UInt8](repeating: 0, count: pages)
            guard mincore(pixels.start, pixels.windowBytes, &held) == 0 else { return -1 }
            return held.count { $0 & 1 != 0 }
        }
        #expect(resident() == 0)
        image.populateAside()
        for _ in 0..<400 where resident() < pages { try await Task.sleep(for: .milliseconds(5)) }
        #expect(resident() == pages)
        #expect(image.pixelWords().allSatisfy { $0 == 0 })
    }

    @Test("A15: scrolled any way and any distance, an image that moves no pixel holds what moving its pixels makes", arguments: [1.0, 2.0])
    func scrollsAsMovedPixels(scale: Double) throws {
        let size = Size(width: 150, height: 100)
        let scrolled = ImageSurface(scrollable: size, scale: scale), moved = ImageSurface(size: size, scale: scale)
        #expect(scrolled.scrollsInPlace)
        #expect(!moved.scrollsInPlace)
        for image in [scrolled, moved] { Self.paint(image, after: (0, 0), index: 0) }
        #expect(scrolled.pixelWords() == moved.pixelWords())
        for (i, step) in Self.scrolls(height: scrolled.height).enumerated() {
            for image in [scrolled, moved] {
                image.shiftPixels(dx: step.dx, dy: step.dy)
                Self.paint(image, after: step, index: i + 1)
            }
            let a = scrolled.pixelWords(), b = moved.pixelWords()
            let differ = zip(a, b).filter { $0 != $1 }.count
            try #require(differ == 0, "step \(i) (\(step.dx), \(step.dy)): \(differ) pixels differ")
        }
    }

    @Test("A15: however far an image scrolls, the system counts its pixels' memory once, not once per mapping it crossed")
    func memoryCountedOnce() throws {
        let image = ImageSurface(scrollable: Size(width: 300, height: 200), scale: 2)
        let pixels = try #require(image.scrolling)
        image.fill(rows: 0..<image.height, with: .white)
        for step in Self.scrolls(height: image.height) {
            image.shiftPixels(dx: step.dx, dy: step.dy)
            image.fill(rows: 0..<image.height, with: .white)
        }
        let resident = try #require(Self.residentKiB(in: pixels.addresses))
        let page = Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        #expect(resident >= pixels.bytes / 1024, "the image's pixels are not all resident")
        #expect(resident <= pixels.bytes / 1024 + 2 * page, "\(resident) KiB resident for an image of \(pixels.bytes / 1024) KiB")
    }

    /// The resident KiB of this process's mappings within `addresses` (/proc/self/smaps).
    static func residentKiB(in addresses: Range<UInt>) -> Int? {
        guard let file = fopen("/proc/self/smaps", "r") else { return nil }
        defer { fclose(file) }
        var total = 0, inside = false
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let dash = text.firstIndex(of: "-"), let start = UInt(text[..<dash], radix: 16) {
                inside = addresses.contains(start)
            } else if inside, text.hasPrefix("Rss:") {
                total += Int(text.dropFirst(4).split(separator: " ").first ?? "") ?? 0
            }
        }
        return total
    }
}
