// The system clipboard on Wayland (P1): TouchKit's Pasteboard over wl_data_device. Copying makes a
// wl_data_source and sets it as the seat's selection with the serial of the key press or touch
// behind it; another client's paste then asks us, with `send`, to write one type into a pipe.
// Pasting reads the selection's wl_data_offer, which the compositor announces to the client with
// keyboard focus, through a pipe of ours. Bytes move through the event loop (PipeTransfers.swift).
// What other programs can make us hold is bounded: one paste is read at a time, at most
// Limit.clipboardSends transfers go out (or wait for a picture) at once, and an offer's types stop
// at Limit.offerTypes.
#if canImport(Glibc)
import Glibc
#endif
import CShims
import Limits
import Logging
import TouchKit
import Wayland

final class Clipboard: Pasteboard {
    private let manager: WlDataDeviceManager
    private let watches: FDWatches
    private let clock: Clock
    private let logger: Logger
    /// The seat and serial that authorise taking the selection: the latest key press, touch
    /// down or button press (nil before any).
    private let authorisation: () -> (seat: WlSeat, serial: UInt32)?

    /// One data device per seat, each with the offers it announced.
    private var devices: [ObjectIdentifier: Device] = [:]
    /// What we offer while we own the selection; each type's bytes are made on the first `send`.
    private var source: WlDataSource?
    private var items: [(item: PasteboardItem, bytes: [UInt8]?)] = []
    /// Set by a copy until the compositor next names the selection: in between (a Ctrl+V read in
    /// the same turn as the Ctrl+C) what we offer is the clipboard, and a paste takes it directly.
    private var awaitingOwnSelection = false
    /// Bytes being made off the event loop (pictures), by type, with the pipes waiting for them.
    private var making: [String: (job: BackgroundJob<[UInt8]>, waiting: [Int32])] = [:]
    private var makingTimer: TimerToken?
    /// How often bytes made off the loop are looked for.
    static let makingPollInterval = 0.01
    /// Transfers under way, kept alive until they end: sends to other programs, and our paste.
    private var writers: [ObjectIdentifier: PipeWriter] = [:]
    private var reader: PipeReader?

    init(manager: WlDataDeviceManager, watches: FDWatches, clock: Clock, logger: Logger,
         authorisation: @escaping () -> (seat: WlSeat, serial: UInt32)?) {
        self.manager = manager
        self.watches = watches
        self.clock = clock
        self.logger = logger
        self.authorisation = authorisation
    }

    /// Listens to `seat`'s selection.
    func addSeat(_ seat: WlSeat) {
        let device = Device(device: manager.getDataDevice(seat: seat), logger: logger)
        device.onSelection = { [unowned self] in self.awaitingOwnSelection = false }
        devices[ObjectIdentifier(seat)] = device
    }

    func removeSeat(_ seat: WlSeat) { devices[ObjectIdentifier(seat)] = nil }

    /// The selection of the seat that had input last (the one a key press or menu choice comes from).
    private var currentOffer: Device.Offer? {
        if let seat = authorisation()?.seat, let device = devices[ObjectIdentifier(seat)] { return device.selection }
        return devices.values.lazy.compactMap(\.selection).first
    }

    // MARK: Pasteboard

    var types: [String] {
        if awaitingOwnSelection { return items.map(\.item.type) }
        return currentOffer?.types ?? []
    }

    func setItems(_ items: [PasteboardItem]) -> Bool {
        guard let (seat, serial) = authorisation(), let device = devices[ObjectIdentifier(seat)] else {
            logger.warning("clipboard: no seat or input event to authorise a copy")
            return false
        }
        let source = manager.createDataSource()
        for item in items { source.offer(mimeType: item.type) }
        source.onEvent = { [unowned self, unowned source] event in
            switch event {
            case .send(let type, let fd): self.send(type, to: fd, from: source)
            case .cancelled: self.cancelled(source)
            default: break
            }
        }
        device.device.setSelection(source: source, serial: serial)
        // Our previous source goes when the compositor cancels it (it will: the selection changed).
        self.source = source
        self.items = items.map { ($0, nil) }
        awaitingOwnSelection = true
        logger.debug("clipboard: offering \(items.map(\.type).joined(separator: ", ")) (serial \(serial))")
        return true
    }

    func read(_ type: String, maxBytes: Int, completion: @escaping (PasteboardReadResult) -> Void) {
        if awaitingOwnSelection, let bytes = bytes(of: type) {
            _ = clock.schedule(at: clock.now) {
                completion(bytes.count > maxBytes ? .tooLarge(maxBytes: maxBytes) : .data(bytes))
            }
            return
        }
        guard let offer = currentOffer, offer.types.contains(type) else {
            _ = clock.schedule(at: clock.now) { completion(.failed("the clipboard no longer holds a drawing")) }
            return
        }
        var fds: [Int32] = [-1, -1]
        guard tt_pipe_for_reading(&fds) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = clock.schedule(at: clock.now) { completion(.failed("no pipe for the clipboard: \(reason)")) }
            return
        }
        // libwayland sends a duplicate of the write end: ours is closed at once, so the end of
        // the data is seen when the owner closes its copy.
        offer.offer.receive(mimeType: type, fd: fds[1])
        close(fds[1])
        // One paste at a time: a newer one replaces one still on its way.
        reader?.cancel("a newer paste replaced it")
        weak var started: PipeReader?
        let reader = PipeReader(fd: fds[0], maxBytes: maxBytes, watches: watches, clock: clock) { [unowned self] result in
            if self.reader === started { self.reader = nil }
            completion(result)
        }
        started = reader
        self.reader = reader
    }

    // MARK: Serving our selection

    private func send(_ type: String, to fd: Int32, from source: WlDataSource) {
        guard source === self.source, let index = items.firstIndex(where: { $0.item.type == type }) else {
            close(fd)  // a type we never offered, or a source already replaced
            return
        }
        guard writers.count + making.values.reduce(0, { $0 + $1.waiting.count }) < Limit.clipboardSends else {
            close(fd)
            logger.notice("clipboard: \(type) not sent: \(Limit.clipboardSends) transfers are under way already")
            return
        }
        if items[index].bytes == nil, let slow = items[index].item.slowData {
            // A picture: encoded off the loop; this pipe gets it when it is ready.
            let job = making[type]?.job ?? BackgroundJob(label: "org.touchtracker.clipboard", slow)
            making[type] = (job, (making[type]?.waiting ?? []) + [fd])
            if makingTimer == nil { pollMaking() }
            return
        }
        write(bytes(of: type) ?? [], type: type, to: fd)
    }

    /// Hands bytes made off the loop to the pipes waiting for them.
    private func pollMaking() {
        makingTimer = nil
        for (type, entry) in making {
            guard let bytes = entry.job.take() else { continue }
            making[type] = nil
            if let index = items.firstIndex(where: { $0.item.type == type }) { items[index].bytes = bytes }
            for fd in entry.waiting { write(bytes, type: type, to: fd) }
        }
        if !making.isEmpty {
            makingTimer = clock.schedule(at: clock.now + Self.makingPollInterval) { [weak self] in self?.pollMaking() }
        }
    }

    private func write(_ bytes: [UInt8], type: String, to fd: Int32) {
        var key: ObjectIdentifier?
        let writer = PipeWriter(fd: fd, bytes: bytes, watches: watches, clock: clock) { [unowned self] problem in
            if let problem { self.logger.notice("clipboard: \(type) not sent: \(problem)") }
            if let key { self.writers[key] = nil }
        }
        if !writer.isFinished {
            key = ObjectIdentifier(writer)
            writers[key!] = writer
        }
    }

    /// Our bytes of `type`, made on first use and kept; nil for a type we do not offer.
    private func bytes(of type: String) -> [UInt8]? {
        guard let index = items.firstIndex(where: { $0.item.type == type }) else { return nil }
        let bytes = items[index].bytes ?? items[index].item.data()
        items[index].bytes = bytes
        return bytes
    }

    private func cancelled(_ cancelled: WlDataSource) {
        cancelled.destroy()
        guard cancelled === source else { return }
        source = nil
        items = []
        // Pictures still being made go nowhere: their readers see the end at once.
        for entry in making.values { entry.waiting.forEach { close($0) } }
        making = [:]
        awaitingOwnSelection = false
    }
}

/// A seat's wl_data_device and the offers it announced: the selection's is kept (destroyed when a
/// new selection replaces it); drag-and-drop offers are declined and destroyed.
private final class Device {
    struct Offer {
        let offer: WlDataOffer
        var offered = OfferedTypes()
        var types: [String] { offered.list }
    }

    let device: WlDataDevice
    /// Offers announced (`data_offer`) and not yet named as the selection or a drag's.
    private var announced: [ObjectIdentifier: Offer] = [:]
    private(set) var selection: Offer?
    /// Told whenever the compositor names the selection.
    var onSelection: (() -> Void)?
    private let logger: Logger

    init(device: WlDataDevice, logger: Logger) {
        self.device = device
        self.logger = logger
        device.onEvent = { [unowned self] event in self.handle(event) }
    }

    deinit {
        selection?.offer.destroy()
        for offer in announced.values { offer.offer.destroy() }
        device.release()
    }

    private func handle(_ event: WlDataDevice.Event) {
        switch event {
        case .dataOffer(let offer):
            let key = ObjectIdentifier(offer)
            announced[key] = Offer(offer: offer)
            // The offer's types follow at once, before the selection or drag names it.
            offer.onEvent = { [unowned self] event in
                if case .offer(let type) = event { self.typeOffered(type, by: key) }
            }
        case .selection(let offer):
            selection?.offer.destroy()
            selection = offer.flatMap { announced.removeValue(forKey: ObjectIdentifier($0)) }
            logger.debug("clipboard: the selection offers \(selection?.types.joined(separator: ", ") ?? "nothing")")
            if let dropped = selection?.offered.dropped, dropped > 0 {
                logger.notice("clipboard: the selection offers \(dropped) types past the first \(Limit.offerTypes); they are ignored")
            }
            onSelection?()
        case .enter(_, _, _, _, let offer):
            // Drag and drop is not taken: the offer is declined by never accepting a type.
            if let offer { announced.removeValue(forKey: ObjectIdentifier(offer))?.offer.destroy() }
        case .leave, .motion, .drop:
            break
        }
    }

    private func typeOffered(_ type: String, by key: ObjectIdentifier) {
        if announced[key] != nil {
            announced[key]?.offered.add(type)
        } else if let selection, ObjectIdentifier(selection.offer) == key {
            self.selection?.offered.add(type)
        }
    }
}

/// The MIME types an offer lists, the first `Limit.offerTypes` of them.
struct OfferedTypes {
    private(set) var list: [String] = []
    /// How many were left out.
    private(set) var dropped = 0

    mutating func add(_ type: String) {
        if list.count < Limit.offerTypes { list.append(type) } else { dropped += 1 }
    }
}
