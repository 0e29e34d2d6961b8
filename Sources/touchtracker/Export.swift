// `touchtracker export`: a drawing file as PNG and/or SVG, with no compositor.
import ArgumentParser
import TouchTrackerKit

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a drawing as a PNG picture and/or an SVG file (no compositor needed).",
        discussion: """
            The picture shows the canvas from its top-left corner: at least 1024x768, larger when \
            lines reach further, white behind the lines. The drawing file is only read. \
            Examples: touchtracker export --png out.png; touchtracker export --file my.json --svg out.svg
            """)

    // `--file PATH` is the main command's option (it works after `export` too).
    @Argument(help: ArgumentHelp("The drawing to export (default: --file, else $XDG_DATA_HOME/touchtracker/drawing.json).",
                                 valueName: "drawing"))
    var drawing: String?

    @Option(help: ArgumentHelp("Write a PNG picture to this path.", valueName: "out"))
    var png: String?

    @Option(help: ArgumentHelp("Write an SVG file to this path.", valueName: "out"))
    var svg: String?

    func validate() throws {
        if png == nil, svg == nil { throw ValidationError("Say what to write: --png OUT, --svg OUT or both.") }
    }

    func run() throws {
        let path = drawing ?? TouchTracker.fileOption ?? DrawingLocation.defaultFile()
        let strokes: [Stroke]
        do {
            strokes = try DrawingFile.load(path)
        } catch {
            printError("touchtracker: \(error.message)")
            throw ExitCode(1)
        }
        do {
            if let png {
                try DrawingExporter.writePNG(strokes, to: png)
                print("wrote \(png)")
            }
            if let svg {
                try DrawingExporter.writeSVG(strokes, to: svg)
                print("wrote \(svg)")
            }
        } catch {
            printError("touchtracker: \(error)")
            throw ExitCode(1)
        }
    }
}
