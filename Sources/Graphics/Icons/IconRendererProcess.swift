// The app's side of the icon renderer (IconRendererService): started on the first icon, asked one
// icon at a time, and started again when it has ended for want of work. Icons are drawn while a
// frame is painted, so each answer is waited for, but never longer than `answerSeconds`: a
// renderer that hangs is stopped and that icon shows no picture.
#if canImport(Glibc)
import Glibc
#endif


final class IconRendererProcess: @unchecked Sendable {
    /// The executable to start with `--icon-renderer`: the app's own.
    let executable: String
    static let answerSeconds: UInt64 = 2

    private var toRenderer: Int32 = -1
    private var fromRenderer: Int32 = -1
    private var rendererID: pid_t = 0

    init(executable: String) { self.executable = executable }

    deinit { stop() }

    enum Answer: Equatable {
        case drawn([UInt8])
        /// The renderer could not draw this SVG (or has no librsvg).
        case notDrawn
        /// No renderer could be started: the icon may be drawn in the app instead.
        case unavailable
        /// The renderer died or hung on this SVG, twice: the SVG is not to be drawn here either.
        case lost
    }

    /// The coverage of `svg` at `pixels` square. A renderer that had ended is started again once.
    func coverage(of svg: [UInt8], pixels: Int) -> Answer {
        for _ in 0..<2 {
            if toRenderer < 0, !start() { return .unavailable }
            switch ask(svg: svg, pixels: pixels) {
            case .some(let answer): return answer
            case .none: stop()
            }
        }
        return .lost
    }

    /// One request on the running renderer; nil when it has gone (or hangs, and is stopped).
    private func ask(svg: [UInt8], pixels: Int) -> Answer? {
        guard IconRendererWire.write(IconRendererWire.request(svg: svg, pixels: pixels), to: toRenderer) else { return nil }
        let deadline = IconRendererWire.monotonicNanoseconds() + Self.answerSeconds * 1_000_000_000
        guard let status = IconRendererWire.read(4, from: fromRenderer, deadline: deadline) else {
            if rendererID > 1 { kill(rendererID, SIGKILL) }
            return nil
        }
        guard IconRendererWire.value(of: status) == IconRendererWire.drawn else { return .notDrawn }
        guard let coverage = IconRendererWire.read(pixels * pixels, from: fromRenderer, deadline: deadline) else {
            if rendererID > 1 { kill(rendererID, SIGKILL) }
            return nil
        }
        return .drawn(coverage)
    }

    private func start() -> Bool {
        var requests: [Int32] = [-1, -1], answers: [Int32] = [-1, -1]
        guard Self.closeOnExecPipe(&requests) else { return false }
        guard Self.closeOnExecPipe(&answers) else {
            close(requests[0]); close(requests[1])
            return false
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, requests[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, answers[1], STDOUT_FILENO)
        var first: pid_t = 0
        let arguments = [executable, IconRendererWire.argument]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&first, executable, &actions, nil, &argv, environ)
        close(requests[0])
        close(answers[1])
        toRenderer = requests[1]
        fromRenderer = answers[0]
        guard spawned == 0 else {
            stop()
            return false
        }
        // The first process only starts the renderer and ends (see IconRendererService.serve).
        var status: Int32 = 0
        while waitpid(first, &status, 0) < 0, errno == EINTR {}
        let deadline = IconRendererWire.monotonicNanoseconds() + Self.answerSeconds * 1_000_000_000
        guard let hello = IconRendererWire.read(4, from: fromRenderer, deadline: deadline) else {
            stop()
            return false
        }
        rendererID = pid_t(bitPattern: IconRendererWire.value(of: hello))
        return true
    }

    /// A pipe neither end of which a started program inherits (dup2 gives the renderer its own).
    private static func closeOnExecPipe(_ fds: inout [Int32]) -> Bool {
        guard pipe(&fds) == 0 else { return false }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    /// Closes the pipes, which ends a renderer still waiting for work.
    private func stop() {
        if toRenderer >= 0 { close(toRenderer) }
        if fromRenderer >= 0 { close(fromRenderer) }
        toRenderer = -1
        fromRenderer = -1
        rendererID = 0
    }
}
