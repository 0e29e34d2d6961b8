import CShims

#if canImport(Glibc)
import Glibc
#endif

/// A sealed memfd, mapped read-write here: the memory behind a ``ShmPool``. Made apart from the
/// pool so that another thread can make it and fault its pages in ahead of use; the pool itself is
/// a request on the display, which belongs to the event loop's thread.
public final class SharedMemory: @unchecked Sendable {
    /// The memfd (sealed against shrinking). Owned here; do not close it.
    public let fd: Int32
    /// The size of the file and the mapping, in bytes.
    public private(set) var size: Int
    /// The start of the mapping. Changes when the memory grows.
    public private(set) var base: UnsafeMutableRawPointer

    /// `size` bytes (1 ... Int32.max, as wl_shm takes it; EINVAL otherwise).
    public init(size: Int, name: String = "wayland-shm-pool") throws(WaylandError) {
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
    }

    deinit {
        munmap(base, size)
        close(fd)
    }

    /// Writes a zero into every page, so that later writes take no page fault: the first write to
    /// each page of new shared memory allocates and clears it, several milliseconds for a window.
    /// The pages are zero already, so this changes no byte.
    public func faultIn() {
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 1)
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        for offset in stride(from: 0, to: size, by: page) { bytes[offset] = 0 }
    }

    /// Grows the file and the mapping to `newSize` bytes (never shrinks); `base` changes.
    func grow(to newSize: Int) throws(WaylandError) {
        guard newSize <= Int(Int32.max) else { throw .systemCall("a shared-memory pool of \(newSize) bytes", errno: EINVAL) }
        guard newSize > size else { return }
        guard ftruncate(fd, off_t(newSize)) == 0 else { throw .systemCall("ftruncate", errno: errno) }
        guard let newBase = Self.map(fd: fd, size: newSize) else { throw .systemCall("mmap", errno: errno) }
        munmap(base, size)
        base = newBase
        size = newSize
    }

    private static func map(fd: Int32, size: Int) -> UnsafeMutableRawPointer? {
        let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let pointer, pointer != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        return pointer
    }
}
