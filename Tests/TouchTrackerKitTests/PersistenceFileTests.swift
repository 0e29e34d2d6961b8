// Drawing files on disk: the default place, atomic replacement, moving unreadable files aside
// without ever overwriting, and what opening does with each kind of file.
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TouchKit
import TouchTrackerKit

@Suite("Persistence: files")
struct PersistenceFileTests {
    @Test("The default drawing lives in $XDG_DATA_HOME/touchtracker, else ~/.local/share/touchtracker")
    func defaultLocation() {
        func location(_ env: [String: String]) -> String { DrawingLocation.defaultFile { env[$0] } }
        #expect(location(["XDG_DATA_HOME": "/data", "HOME": "/home/u"]) == "/data/touchtracker/drawing.json")
        #expect(location(["XDG_DATA_HOME": "", "HOME": "/home/u"]) == "/home/u/.local/share/touchtracker/drawing.json")
        #expect(location(["XDG_DATA_HOME": "relative/dir", "HOME": "/home/u"]) == "/home/u/.local/share/touchtracker/drawing.json",
                "a relative XDG_DATA_HOME is ignored, as the XDG spec says")
        #expect(location(["HOME": "/home/u/"]) == "/home/u/.local/share/touchtracker/drawing.json")
    }

    @Test("Saving replaces the file whole, keeps its permissions and leaves no temporary files")
    func atomicReplace() throws {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        try DrawingFile.writeAtomically(Array("first".utf8), to: path)
        #expect(readFile(path) == Array("first".utf8))
        chmod(path, 0o600)
        try DrawingFile.writeAtomically(Array("second, longer".utf8), to: path)
        #expect(readFile(path) == Array("second, longer".utf8))
        #expect(fileMode(path) == 0o600)
        #expect(folder.names == ["drawing.json"])
    }

    @Test("A save that cannot be written throws a one-line error naming the file and the reason, and cleans up")
    func failedSave() {
        let folder = TemporaryFolder()
        let path = folder.file("missing-folder/drawing.json")
        do {
            try DrawingFile.writeAtomically([1, 2, 3], to: path)
            Issue.record("saved into a missing folder")
        } catch {
            #expect(error.message == "cannot create a temporary file in \(folder.path)/missing-folder: No such file or directory")
            #expect(error.reason == "No such file or directory")
        }
        #expect(folder.names.isEmpty)
    }

    @Test("Moving aside keeps the content and never overwrites an earlier copy")
    func moveAside() throws {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        let when = time_t(1_700_000_000)
        let stamp = DrawingFileTestAccess.timestamp(when)
        writeFile(path, "first bad")
        let first = try DrawingFile.moveAside(path, now: when)
        #expect(first == folder.file("drawing.unreadable-\(stamp).json"))
        writeFile(path, "second bad")
        let second = try DrawingFile.moveAside(path, now: when)
        #expect(second == folder.file("drawing.unreadable-\(stamp)-2.json"))
        #expect(readFile(first) == Array("first bad".utf8))
        #expect(readFile(second) == Array("second bad".utf8))
        #expect(readFile(path) == nil)
    }

    @Test("Opening: a missing file starts an empty drawing saved at once; a good one restores it")
    func openMissingAndGood() throws {
        let folder = TemporaryFolder()
        let path = folder.file("new/sub/drawing.json")
        let missing = DrawingFile.open(path)
        #expect(missing.strokes.isEmpty && missing.needsSave && missing.unreadable == nil && missing.savePath == path)
        #expect(DrawingFileTestAccess.isFolder(folder.file("new/sub")), "the folders are created")
        let strokes = randomDrawing(seed: 7)
        try DrawingFile.writeAtomically(DrawingFormat.encode(strokes).bytes, to: path)
        let good = DrawingFile.open(path)
        #expect(identical(good.strokes, strokes) && !good.needsSave && good.unreadable == nil)
    }

    @Test("Opening an unreadable file moves it aside intact, starts empty and saves to the freed path")
    func openUnreadable() throws {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        let bad = drawingJSON([strokeJSON(points: "[[NaN, 1], [2, 3]]")])
        writeFile(path, bad)
        let opened = DrawingFile.open(path)
        let unreadable = try #require(opened.unreadable)
        #expect(opened.strokes.isEmpty && opened.needsSave && opened.savePath == path)
        let moved = try #require(unreadable.movedTo)
        #expect(readFile(moved) == Array(bad.utf8))
        #expect(readFile(path) == nil)
        #expect(unreadable.message.hasPrefix("cannot read \(path): line 1, column 136: a coordinate is NaN"))
        #expect(unreadable.message.contains("moved it to \(moved); starting with an empty drawing"))
        #expect(!unreadable.message.contains("\n"))
        // Reading it again gives the same verdict: the content really is untouched.
        #expect(throws: FileIOError.self) { try DrawingFile.load(moved) }
    }

    @Test("A file that cannot be moved aside is left alone and the drawing saves to a rescue folder")
    func openUnmovable() throws {
        let folder = TemporaryFolder()
        // /proc is read-only: reading works, moving fails, like a file in a read-only folder.
        // The file's own folder is never the rescue folder.
        let opened = DrawingFile.open("/proc/self/status", rescueFolders: ["/proc/\(getpid())", folder.path])
        let unreadable = try #require(opened.unreadable)
        #expect(unreadable.movedTo == nil && unreadable.moveProblem != nil)
        #expect(opened.savePath.hasPrefix(folder.path + "/status-rescued-") && opened.savePath.hasSuffix(".json"))
        #expect(unreadable.message.contains("could not move it aside"))
        #expect(unreadable.message.contains("that saves to \(opened.savePath)"))
    }

    @Test("Too large, a folder, unreadable bytes: each one moved aside with its reason")
    func otherUnreadableFiles() throws {
        let folder = TemporaryFolder()
        let big = folder.file("big.json")
        writeFile(big, "{")
        truncate(big, 200_000_000)  // sparse: no disk used, never read
        let opened = DrawingFile.open(big)
        #expect(opened.unreadable?.problem == "the file is 200 MB, more than the 128 MiB limit")
        #expect(opened.unreadable?.movedTo.map { fileSize($0) } == 200_000_000)
        let dir = folder.file("dir.json")
        mkdir(dir, 0o755)
        #expect(DrawingFile.open(dir).unreadable?.problem == "it is not a regular file")
        let binary = folder.file("binary.json")
        writeFile(binary, [0x89, 0x50, 0x4E, 0x47, 0, 0, 0xFF])
        #expect(DrawingFile.open(binary).unreadable?.problem == "line 1, column 1: not a TouchTracker drawing: expected '{', found byte 0x89")
    }

    @Test("Temporary files of killed saves are removed on open; those of running processes stay")
    func staleTemporaryFiles() {
        let folder = TemporaryFolder()
        let path = folder.file("drawing.json")
        writeFile(folder.file(".drawing.json.tmp-99999999-1"), "half")
        writeFile(folder.file(".drawing.json.tmp-\(getpid())-1"), "mine")
        writeFile(folder.file(".other.json.tmp-99999999-1"), "not ours")
        _ = DrawingFile.open(path)
        #expect(folder.names == [".drawing.json.tmp-\(getpid())-1", ".other.json.tmp-99999999-1"])
    }
}

func fileSize(_ path: String) -> Int {
    var info = stat()
    stat(path, &info)
    return Int(info.st_size)
}

/// Reaches internal helpers through their observable effects.
enum DrawingFileTestAccess {
    static func timestamp(_ t: time_t) -> String {
        var t = t
        var parts = tm()
        localtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let n = strftime(&buffer, buffer.count, "%Y%m%d-%H%M%S", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
