/// Shared memory for `wl_shm` buffers: a ``SharedMemory`` with its `WlShmPool`.
///
/// Hands out `WlBuffer`s at offsets; tracking which buffer is free (the compositor's `release`
/// events) is the caller's job. The mapping and the fd are released when the pool is deinitialized;
/// buffers keep the `wl_shm_pool` proxy alive, not the mapping.
public final class ShmPool {
    /// The pool proxy.
    public let pool: WlShmPool
    /// The memory, mapped here.
    public let memory: SharedMemory
    /// The memfd (sealed against shrinking). Owned by the pool; do not close it.
    public var fd: Int32 { memory.fd }
    /// The size of the file and the mapping, in bytes.
    public var size: Int { memory.size }
    /// The start of the mapping. Changes when the pool grows.
    public var base: UnsafeMutableRawPointer { memory.base }

    /// Creates a pool of `size` bytes (1 ... Int32.max, as wl_shm takes it; EINVAL otherwise).
    public convenience init(shm: WlShm, size: Int, name: String = "wayland-shm-pool") throws(WaylandError) {
        self.init(shm: shm, memory: try SharedMemory(size: size, name: name))
    }

    /// A pool over `memory`, made beforehand (perhaps on another thread); the pool owns it now.
    public init(shm: WlShm, memory: SharedMemory) {
        self.memory = memory
        pool = shm.createPool(fd: memory.fd, size: Int32(memory.size))
    }

    /// A buffer of `height` rows of `stride` bytes starting at `offset` bytes into the pool.
    public func createBuffer(offset: Int32, width: Int32, height: Int32, stride: Int32,
                             format: WlShm.Format) -> WlBuffer {
        precondition(offset >= 0 && width > 0 && height > 0 && stride > 0, "invalid buffer geometry")
        precondition(Int(offset) + Int(stride) * Int(height) <= size,
                     "buffer at offset \(offset) of \(stride)x\(height) bytes exceeds the pool size \(size)")
        return pool.createBuffer(offset: offset, width: width, height: height, stride: stride, format: format)
    }

    /// Grows the file, the mapping and the pool to `newSize` bytes (pools never shrink).
    /// `base` changes; existing buffers stay valid at their offsets.
    ///
    /// Grow only while the compositor holds none of this pool's buffers: Weston 10 (pixman
    /// renderer) crashes when a pool is resized under an attached buffer (checked here). When in
    /// doubt, make a new pool instead.
    public func grow(to newSize: Int) throws(WaylandError) {
        let before = size
        try memory.grow(to: newSize)
        if size > before { pool.resize(size: Int32(size)) }
    }
}
