// The window's wl_shm buffers: which one a frame draws into, which one it copies from, when a spare
// is made and when it goes. A buffer the compositor holds is never drawn into; each buffer knows
// what it lacks (its stale region), so a reused one copies that from the buffer shown last instead
// of repainting it. docs/frame.md, "Buffers", says why each rule is as it is.
import Graphics
import Logging
import TouchKit
import Wayland

final class BufferPool {
    private let shm: WlShm
    private let logger: Logger
    private var buffers: [ShmBuffer] = []

    /// Steady drawing alternates two buffers. Weston, Sway and mutter give the replaced buffer back
    /// as they take the next commit, so a third is rarely needed; KWin keeps every replaced buffer
    /// until its next repaint, so input faster than its refresh holds three.
    static let maxBuffers = 4
    /// Spares go after this many seconds unused, so one burst does not keep window-sized buffers
    /// for the rest of the session.
    static let spareLifetime = 2.0

    /// The host's clock (seconds), for the buffers' ages.
    var now: () -> Double = { 0 }
    /// Sends wl_display.sync: its `done` follows every event the compositor sent while taking
    /// our requests before it.
    var sync: () -> WlCallback? = { nil }
    /// A buffer came back, or the compositor answered a sync: a frame that found every buffer
    /// held may be painted now.
    var onBufferMayBeFree: () -> Void = {}

    /// A sync sent while every buffer was held, not yet answered.
    private var releaseCheck: WlCallback?
    /// The newest commit a sync's `done` has followed: the compositor had taken it by then, and
    /// sent the release of the buffer it replaced, if it was going to.
    private var commitTakenAt = -1.0

    /// Memory for the next spare, made and faulted in on another thread as a burst of input starts,
    /// when the last burst needed a spare (``prepareSpareIfExpected()``); `since`: when it was asked
    /// for, on the host's clock.
    private var preparedSpare: (job: BackgroundJob<SharedMemory?>, since: Double)?
    /// Whether the next burst of input will want a spare, learnt from the bursts before.
    private var forecast = SpareForecast()

    /// Buffers are made this size; a new size or scale drops every buffer (``reset(pixels:points:)``).
    private var pixels = (width: 1, height: 1)
    private var points = Size(width: 1, height: 1)

    init(shm: WlShm, logger: Logger) {
        self.shm = shm
        self.logger = logger
    }

    /// How many buffers exist.
    var count: Int { buffers.count }
    /// Every buffer's image: a frame's settled lines are left for the others to copy.
    var images: [ImageSurface] { buffers.map(\.image) }

    /// Drops every buffer: the window's size or scale changed. A busy one dies when its Swift
    /// object goes (the compositor keeps what it has shown until our next commit).
    func reset(pixels: (width: Int, height: Int), points: Size) {
        buffers.removeAll()
        preparedSpare = nil
        self.pixels = pixels
        self.points = points
    }

    /// A buffer for the next frame, or nil when the frame must wait for a release (which calls
    /// ``onBufferMayBeFree``). Only a frame that answers input or a configure (`forced`) gets a
    /// spare: anything else can wait, and a spare is as big as the window. Input, not a
    /// configure, begins a burst that may want a spare made ahead.
    func freeBuffer(input: Bool, forced: Bool) -> ShmBuffer? {
        if input { prepareSpareIfExpected() }
        let answeringInput = input || forced
        // The free buffer shown most recently lacks the least: under a compositor that lets go
        // of a buffer once it has copied it (mutter), that is the one just shown, which needs
        // nothing copied; Weston keeps the shown one until the next commit.
        if let free = buffers.filter({ !$0.isBusy }).max(by: { $0.lastCommitted < $1.lastCommitted }) { return free }
        let newestCommit = buffers.map(\.lastCommitted).max() ?? 0
        switch Self.whenEveryBufferIsHeld(count: buffers.count, answeringInput: answeringInput,
                                          compositorTookNewestCommit: commitTakenAt >= newestCommit) {
        case .waitForRelease:
            return nil
        case .askCompositor:
            // Weston, Sway and mutter send the release of the buffer our last commit replaced as
            // they take that commit (a busy one takes it late, but could not have shown a newer
            // one sooner): waiting costs a round trip, where a spare costs its frame a window's
            // worth of page faults. KWin keeps replaced buffers until its next repaint; its
            // answer comes with none released, and the spare made then stays while input does.
            guard releaseCheck == nil, let callback = sync() else { return nil }
            releaseCheck = callback
            callback.onEvent = { [unowned self] event in
                guard case .done = event else { return }
                self.releaseCheck = nil
                self.commitTakenAt = newestCommit
                self.onBufferMayBeFree()
            }
            return nil
        case .makeBuffer:
            return makeBuffer()
        }
    }

    /// What a frame does when the compositor holds every buffer.
    enum HeldBufferChoice: Equatable {
        /// Make one: the second of the steady pair, or a spare.
        case makeBuffer
        /// Ask whether the compositor has taken our newest commit (wl_display.sync), and wait for
        /// the answer or a release.
        case askCompositor
        /// Wait for a release, however long (frames without input, or no more spares).
        case waitForRelease
    }

    /// Decides for a frame that finds all `count` buffers held; `compositorTookNewestCommit`: a
    /// sync sent after our newest commit has been answered.
    static func whenEveryBufferIsHeld(count: Int, answeringInput: Bool, compositorTookNewestCommit: Bool) -> HeldBufferChoice {
        if count < 2 { return .makeBuffer }
        guard answeringInput, count < maxBuffers else { return .waitForRelease }
        return compositorTookNewestCommit ? .makeBuffer : .askCompositor
    }

    /// The buffer shown last, other than `buffer`: it holds every earlier change, so what
    /// `buffer` lacks is copied from it.
    func newest(besides buffer: ShmBuffer) -> ShmBuffer? {
        buffers.filter { $0 !== buffer && $0.lastCommitted > 0 && $0.stale.isEmpty }
            .max { $0.lastCommitted < $1.lastCommitted }
    }

    /// `buffer` was brought up to date with a frame whose change was `dirty` and is being
    /// committed: the compositor holds it until its release, and every other buffer now lacks
    /// that change.
    func committing(_ buffer: ShmBuffer, dirty: DirtyRegion) {
        buffer.stale.removeAll()
        for other in buffers where other !== buffer { other.stale.add(dirty) }
        buffer.isBusy = true
        buffer.lastCommitted = now()
    }

    /// Makes the second buffer right after the first frame, before any touch waits for it: made
    /// by the first frame with input, its copy of the first (a window's worth of new shared
    /// memory, each page faulted in as it is written) would delay that frame.
    func makeSecondAhead() {
        if buffers.count == 1, makeBuffer() != nil {
            logger.debug("a second window buffer, made ahead of input")
        }
    }

    /// Starts making the next spare's memory on another thread when a burst of input finds no
    /// spare and the last burst made one. Made in the frame that needs it, a spare's new pages
    /// cost that frame a window's worth of page faults (5 to 12 ms under KWin at 1080p, more at
    /// fractional scales); made here, the frame finds them faulted in a few frames later, and a
    /// frame that comes sooner waits only for what is left.
    private func prepareSpareIfExpected() {
        guard forecast.prepareAtBurst(buffers: buffers.count, prepared: preparedSpare != nil),
              let bytes = ShmBuffer.bytes(width: pixels.width, height: pixels.height) else { return }
        let job = BackgroundJob<SharedMemory?>(label: "org.touchtracker.spare-buffer") {
            let memory = try? SharedMemory(size: bytes, name: ShmBuffer.memoryName)
            memory?.faultIn()
            return memory
        }
        preparedSpare = (job, now())
    }

    /// The prepared spare's memory, once its thread is done with it; nil if none was asked for.
    private func takePreparedSpare() -> SharedMemory? {
        guard let prepared = preparedSpare else { return nil }
        preparedSpare = nil
        return prepared.job.wait()
    }

    /// When spares may next go (``releaseSpares()``): the least recently committed buffer's
    /// commit plus ``spareLifetime`` (or the unused prepared spare's age), never sooner than a
    /// quarter of a second from `now` (one the compositor still holds is asked about again then);
    /// nil without spares. Checked on a fixed period instead, a spare committed just after a check
    /// stayed nearly twice its lifetime, and one whose check found it young stayed until the next
    /// input.
    func nextSpareCheck(now: Double) -> Double? {
        var oldest: Double?
        if buffers.count > 2 { oldest = buffers.map(\.lastCommitted).min() }
        if let prepared = preparedSpare { oldest = min(oldest ?? prepared.since, prepared.since) }
        guard let oldest else { return nil }
        return max(oldest + Self.spareLifetime, now + 0.25)
    }

    /// Destroys free buffers beyond two that have not been committed for ``spareLifetime``
    /// seconds, oldest first, and a prepared spare no frame took in that time (the burst needed
    /// none, so the next one is not expected to).
    func releaseSpares() {
        let cutoff = now() - Self.spareLifetime
        if let prepared = preparedSpare, prepared.since <= cutoff {
            _ = takePreparedSpare()
            forecast.preparedWentUnused()
            logger.debug("released a prepared spare no frame took")
        }
        while buffers.count > 2,
              let oldest = buffers.indices.filter({ !buffers[$0].isBusy && buffers[$0].lastCommitted <= cutoff })
                  .min(by: { buffers[$0].lastCommitted < buffers[$1].lastCommitted }) {
            buffers.remove(at: oldest)
            logger.debug("released a spare window buffer (\(buffers.count) left)")
        }
    }

    /// A new buffer, a copy of the newest; a spare takes the prepared memory, if any.
    private func makeBuffer() -> ShmBuffer? {
        let isSpare = buffers.count >= 2
        if isSpare { forecast.spareMade() }
        do {
            let memory = isSpare ? takePreparedSpare() : nil
            let buffer = try ShmBuffer(shm: shm, width: pixels.width, height: pixels.height, logicalSize: points,
                                       memory: memory)
            buffer.onRelease = { [unowned self] in self.onBufferMayBeFree() }
            if let newest = buffers.max(by: { $0.lastCommitted < $1.lastCommitted }) { buffer.copy(from: newest) }
            buffers.append(buffer)
            if isSpare {
                logger.debug("a spare window buffer for a frame that answers input\(memory == nil ? "" : ", its memory made ahead")")
            }
            return buffer
        } catch {
            logger.error("cannot allocate a window buffer: \(error)")
            return nil
        }
    }
}

/// Whether a burst of input will want a spare buffer, from what the bursts before did.
struct SpareForecast: Equatable {
    /// The last burst made a spare (KWin holds every replaced buffer until its next repaint, so
    /// each burst there does): the next one likely will too. Assumed of the first burst: under a
    /// compositor that gives buffers back as it takes the next (Weston, Sway, mutter) that costs
    /// one spare's memory for its lifetime, once; under KWin the first gesture's spare made in
    /// its frame was a turn of 9 ms at 125 %.
    private(set) var expected = true

    /// A burst's input frame finds `buffers` buffers, and memory made ahead or not: whether to
    /// make the spare's memory now. Only the steady two want one; with a spare left from a burst
    /// before, none is needed.
    func prepareAtBurst(buffers: Int, prepared: Bool) -> Bool { expected && !prepared && buffers == 2 }
    /// A frame made a spare.
    mutating func spareMade() { expected = true }
    /// Memory made ahead went its lifetime without a frame taking it: that burst needed none.
    mutating func preparedWentUnused() { expected = false }
}
