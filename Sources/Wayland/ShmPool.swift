import CShims
import CWaylandClient

#if canImport(Glibc)
import Glibc
#endif

/// Shared memory for `wl_shm` buffers: a sealed memfd, mapped read-write here, with its `WlShmPool`.
///
/// Hands out `WlBuffer`s at offsets; tracking which buffer is free (the compositor's `release`
/// events) is the caller's job. The mapping and the fd are released when the pool is deinitialized;
/// buffers keep the `wl_shm_pool` proxy alive, not the mapping.
public final class ShmPool {
    /// The pool proxy.
    public let pool: WlShmPool
    /// The memfd (sealed against shrinking). Owned by the pool; do not close it.
    public let fd: Int32
    /// The size of the file and the mapping, in bytes.
    public private(set) var size: Int
    /// The start of the mapping. Changes when the pool grows.
    public private(set) var base: UnsafeMutableRawPointer

    /// Creates a pool of `size` bytes (1 ... Int32.max, as wl_shm takes it; EINVAL otherwise).
    public init(shm: WlShm, size: Int, name: String = "wayland-shm-pool") throws(WaylandError) {
        guard size > 0 && size <= Int(Int32.max) else { throw .systemCall("a shared-memory pool of \(size) bytes", errno: EINVAL) }
        let fd = tt_memfd_create(name)
        guard fd >= 0 else { throw .systemCall("memfd_create", errno: errno) }
        guard tt_memfd_resize_and_seal(fd, Int64(size)) == 0 else {
            let code = errno
            close(fd)
            throw .systemCall("ftruncate/F_ADD_SEALS", errno: code)
        }
        guard let base = Self.map(fd: fd, size: size) else {
            let code = errno
            close(fd)
            throw .systemCall("mmap", errno: code)
        }
        self.fd = fd
        self.size = size
        self.base = base
        self.pool = shm.createPool(fd: fd, size: Int32(size))
    }

    deinit {
        munmap(base, size)
        close(fd)
    }

    private static func map(fd: Int32, size: Int) -> UnsafeMutableRawPointer? {
        let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let pointer, pointer != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        return pointer
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
        guard newSize <= Int(Int32.max) else { throw .systemCall("a shared-memory pool of \(newSize) bytes", errno: EINVAL) }
        guard newSize > size else { return }
        guard ftruncate(fd, off_t(newSize)) == 0 else { throw .systemCall("ftruncate", errno: errno) }
        guard let newBase = Self.map(fd: fd, size: newSize) else { throw .systemCall("mmap", errno: errno) }
        munmap(base, size)
        base = newBase
        size = newSize
        pool.resize(size: Int32(newSize))
    }
}
