// File descriptors the event loop polls besides the display, its timer and its signals: the
// clipboard's pipes. A watch is a fd, the poll events wanted and a handler called with the events
// that came; handlers run after the turn's Wayland events, and may add or remove watches.
#if canImport(Glibc)
import Glibc
#endif

final class FDWatches {
    struct Token: Hashable { fileprivate let number: Int }

    private struct Watch {
        let fd: Int32
        let events: Int16
        let handler: (Int16) -> Void
    }

    private var watches: [Int: Watch] = [:]
    private var nextNumber = 0

    /// Calls `handler` with the returned events whenever `fd` has any of `events` (POLLIN,
    /// POLLOUT); POLLERR and POLLHUP always come. The watch stays until removed.
    func add(_ fd: Int32, events: Int16, handler: @escaping (Int16) -> Void) -> Token {
        nextNumber += 1
        watches[nextNumber] = Watch(fd: fd, events: events, handler: handler)
        return Token(number: nextNumber)
    }

    func remove(_ token: Token) { watches[token.number] = nil }

    var isEmpty: Bool { watches.isEmpty }

    /// The pollfds to add to the loop's, with the token of each, in a fixed order.
    func pollFDs() -> [(token: Token, fd: pollfd)] {
        watches.keys.sorted().map { (Token(number: $0), pollfd(fd: watches[$0]!.fd, events: watches[$0]!.events, revents: 0)) }
    }

    /// Runs the handlers of the watches `poll` reported, skipping any removed meanwhile.
    func dispatch(_ polled: [(token: Token, fd: pollfd)]) {
        for (token, fd) in polled where fd.revents != 0 {
            watches[token.number]?.handler(fd.revents)
        }
    }
}
