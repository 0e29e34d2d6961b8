// One window buffer: its own shared-memory pool, wrapped as a Cairo image.
import Graphics
import Limits
import TouchKit
import Wayland

/// A buffer the window draws into and hands to the compositor.
final class ShmBuffer {
    let width: Int
    let height: Int
    let image: ImageSurface
    let wlBuffer: WlBuffer
    /// The memory; it stays mapped as long as the buffer lives.
    private let pool: ShmPool

    /// True from commit until the compositor's `release`: we must not draw into it meanwhile.
    var isBusy = false
    /// The part of the picture this buffer lacks: changes committed through other buffers since this
    /// one was last drawn. Empty when it is up to date. A new buffer lacks everything.
    var stale = DirtyRegion()
    /// When it was last committed (the host's clock, seconds).
    var lastCommitted = 0.0
    /// Called when the compositor releases the buffer.
    var onRelease: (() -> Void)?

    /// A buffer of `width` x `height` pixels showing `logicalSize` points, in `memory` when it is
    /// given and of the buffer's size (``bytes(width:height:)``), else in new memory; throws for
    /// one past the raster limits (the window bounds its size before).
    init(shm: WlShm, width: Int, height: Int, logicalSize: Size, memory: SharedMemory? = nil) throws {
        guard let bytes = Self.bytes(width: width, height: height) else {
            throw BufferSizeError(width: width, height: height)
        }
        let stride = bytes / height
        if let memory, memory.size == bytes {
            pool = ShmPool(shm: shm, memory: memory)
        } else {
            pool = try ShmPool(shm: shm, size: bytes, name: Self.memoryName)
        }
        self.width = width
        self.height = height
        image = ImageSurface(wrapping: pool.base, width: width, height: height, stride: stride)
        wlBuffer = pool.createBuffer(offset: 0, width: Int32(width), height: Int32(height),
                                     stride: Int32(stride), format: .argb8888)
        // One buffer per pool: the pool object is no longer needed once the buffer exists.
        pool.pool.destroy()
        stale = DirtyRegion([Rect(origin: .zero, size: logicalSize)])
        wlBuffer.onEvent = { [unowned self] event in
            if case .release = event {
                self.isBusy = false
                self.onRelease?()
            }
        }
    }

    /// What a buffer's memory is called (memfd_create's name, seen in /proc's maps).
    static let memoryName = "touchtracker-buffer"

    /// The bytes a buffer of `width` x `height` pixels takes; nil past the raster limits.
    static func bytes(width: Int, height: Int) -> Int? {
        guard let stride = ImageSurface.stride(forWidth: width), (1...Limit.rasterSide).contains(height),
              width * height <= Limit.rasterPixels else { return nil }
        return stride * height
    }

    /// Takes `other`'s pixels and what they lack: a new buffer starts as a copy of the newest one
    /// instead of being painted whole (a copy is a fraction of a full repaint, and a spare is
    /// made in the middle of a stream of input). Reading a buffer the compositor holds is fine;
    /// only writing it is not.
    func copy(from other: ShmBuffer) {
        guard other.width == width, other.height == height else { return }
        other.image.flush()
        image.flush()
        pool.base.copyMemory(from: other.pool.base, byteCount: min(pool.size, other.pool.size))
        image.markDirty()
        image.pixelsCopied(from: other.image)
        stale = other.stale
    }

    deinit { wlBuffer.destroy() }
}

/// A window buffer past the raster limits was asked for.
struct BufferSizeError: Error, CustomStringConvertible {
    let width: Int, height: Int
    var description: String {
        "a buffer of \(width)x\(height) pixels is past the limits (\(Limit.rasterSide) a side, \(Limit.rasterPixels) in all)"
    }
}
