// `touchtracker export`: a drawing file as PNG and/or SVG, with no compositor.
import AppCommandLine
import TouchTrackerKit

struct Export {
    let options: ExportOptions

    func run() throws {
        let path = options.drawing ?? DrawingLocation.defaultFile()
        let strokes: [Stroke]
        do {
            strokes = try DrawingFile.load(path)
        } catch {
            printError("touchtracker: \(error.message)")
            throw ExitStatus(1)
        }
        do {
            if let png = options.png {
                try DrawingExporter.writePNG(strokes, to: png)
                print("wrote \(png)")
            }
            if let svg = options.svg {
                try DrawingExporter.writeSVG(strokes, to: svg)
                print("wrote \(svg)")
            }
        } catch {
            printError("touchtracker: \(error)")
            throw ExitStatus(1)
        }
    }
}
