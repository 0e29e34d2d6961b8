// Pixel memory that a scroll moves without moving a pixel. The pixels are a shared-memory file
// mapped many times in a row into one reserved range of addresses, so that the bytes after the
// file's end are its beginning again: a window of `stride` x `rows` bytes may start anywhere and
// always reads as one contiguous image, and a scroll by (dx, dy) pixels only moves where the
// window starts, by dy rows and dx pixels. The pixels that stay are where they were; those the
// scroll uncovers hold whatever the file held there (the caller paints them). Cairo, the rows of
// pixels and the window's copy see an ordinary image.
//
// The pages that leave the window are unmapped at each move (the file keeps their contents), so
// each page of the file is mapped once and the process's resident memory counts one image, not
// one per mapping its window crossed. When the window reaches the end of the reserved range it
// starts again in the middle mapping: its pages then fault in anew as they are read (a 4K frame
// some 3.5 ms dearer, once every eight window heights scrolled one way).
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Dispatch
import Synchronization

final class ScrollingPixels: @unchecked Sendable {
    /// Bytes of shared memory all scrolling images hold, for measurements (they are no part of
    /// the heap).
    static let bytesHeld = Atomic<Int>(0)
    /// The name the file has in /proc/PID/maps and smaps.
    static let fileName = "touchtracker-raster"
    /// How many times the file is mapped: the window scrolls half this many window heights one
    /// way before it starts again in the middle.
    static let mappings = 16

    /// The window's first byte: pixel (0, 0).
    private(set) var start: UnsafeMutableRawPointer
    /// Bytes of the window: stride x rows.
    let windowBytes: Int
    /// Bytes of the file: the window's, to whole pages.
    let bytes: Int
    private let reserved: UnsafeMutableRawPointer
    private static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Memory for `rows` rows of `stride` bytes, zeroed; nil where the system refuses (no memfd,
    /// no address space): the caller then owns ordinary memory.
    init?(stride: Int, rows: Int) {
        windowBytes = stride * rows
        let page = Self.page
        bytes = (windowBytes + page - 1) / page * page
        guard windowBytes > 0 else { return nil }
        let fd = tt_memfd_create(Self.fileName)
        guard fd >= 0 else { return nil }
        // The mappings keep the file; its descriptor is not needed past them.
        defer { close(fd) }
        guard ftruncate(fd, off_t(bytes)) == 0,
              let range = mmap(nil, bytes * Self.mappings, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              range != MAP_FAILED else { return nil }
        reserved = range
        for i in 0..<Self.mappings {
            let at = range + i * bytes
            guard mmap(at, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == at else {
                munmap(range, bytes * Self.mappings)
                return nil
            }
        }
        start = range + Self.mappings / 2 * bytes
        Self.bytesHeld.add(bytes, ordering: .relaxed)
    }

    /// The addresses reserved for the mappings (the process's maps list them).
    var addresses: Range<UInt> {
        let first = UInt(bitPattern: reserved)
        return first..<first + UInt(bytes * Self.mappings)
    }

    deinit {
        munmap(reserved, bytes * Self.mappings)
        Self.bytesHeld.subtract(bytes, ordering: .relaxed)
    }

    /// Faults the window's pages in on another thread without writing a byte
    /// (`MADV_POPULATE_WRITE`), keeping the memory until done: the first drawing into a raster
    /// made for a new zoom then finds them there (at 4K, 8,100 pages cleared by the system, 20 ms
    /// or more of the build's time after the fingers stopped). A megabyte at a time with a pause
    /// between, so no frame of the gesture meanwhile shares the cores with all of it (at once, a
    /// pinch's largest turn at 1080p read 6.0 to 6.6 ms of the process's CPU against 4.4 to 4.6).
    /// Nothing where the kernel lacks it.
    func populateAside() {
        // The address as a number: the window may move meanwhile (a scroll), and the pages
        // it leaves are only faulted in for nothing.
        let (from, length) = (UInt(bitPattern: start), windowBytes)
        let chunk = Self.page * 256
        DispatchQueue.global(qos: .utility).async { [self] in
            withExtendedLifetime(self) {
                for offset in stride(from: 0, to: length, by: chunk) {
                    if offset > 0 { usleep(2000) }
                    guard madvise(UnsafeMutableRawPointer(bitPattern: from + UInt(offset)), min(chunk, length - offset),
                                  MADV_POPULATE_WRITE) == 0 else { return }
                }
            }
        }
    }

    /// Moves the window's start by `distance` bytes (a scroll by dx pixels and dy rows moves it
    /// back by dy x stride + 4 x dx).
    func move(by distance: Int) {
        let old = start - reserved
        var new = old + distance
        if new < 0 || new + windowBytes > bytes * Self.mappings {
            // Past the reserved range: the same bytes of the file, in the middle mapping.
            new = Self.mappings / 2 * bytes + ((new % bytes) + bytes) % bytes
        }
        start = reserved + new
        // The pages of the old window that hold none of the new one.
        let page = Self.page
        func down(_ v: Int) -> Int { v / page * page }
        func up(_ v: Int) -> Int { (v + page - 1) / page * page }
        let was = down(old)..<up(old + windowBytes), kept = down(new)..<up(new + windowBytes)
        for (from, to) in [(was.lowerBound, min(was.upperBound, kept.lowerBound)), (max(was.lowerBound, kept.upperBound), was.upperBound)]
        where from < to {
            madvise(reserved + from, to - from, MADV_DONTNEED)
        }
    }
}
