// What a trace says about the device it came from: its axes' ranges and resolutions, its
// properties (a touchscreen is INPUT_PROP_DIRECT, a touchpad INPUT_PROP_POINTER) and the codes it
// has. evtest's header, evemu's `A:`/`P:`/`B:` lines, libinput record's absinfo and its comment
// header all fill the same description, so the decoding after them is one.
import Limits

/// An axis's range and resolution (units a millimetre; 0 when the device gives none).
public struct AxisRange: Equatable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }
}

/// A device as its trace describes it.
public struct DeviceDescription: Equatable, Sendable {
    public var ranges: [UInt16: AxisRange] = [:]
    /// INPUT_PROP_* numbers.
    public var properties: Set<Int> = []
    /// EV_KEY codes the device has.
    public var keys: Set<Int> = []
    /// Whether anything described the properties (old evemu files and excerpts do not).
    public var knowsProperties = false

    public init() {}

    static let propertyPointer = 0, propertyDirect = 1
    static let toolFinger = 0x145, buttonLeft = 0x110

    /// A touchpad (or any indirect device): pointer property, or a finger tool or left button
    /// without the direct property. Replayed all the same, with a warning.
    public var isIndirect: Bool {
        guard !properties.contains(Self.propertyDirect) else { return false }
        return properties.contains(Self.propertyPointer) || keys.contains(Self.toolFinger) || keys.contains(Self.buttonLeft)
    }

    /// The multitouch position axes, if described.
    var multitouchAxes: (x: AxisRange, y: AxisRange)? {
        guard let x = ranges[EvdevEvent.mtPositionX], let y = ranges[EvdevEvent.mtPositionY] else { return nil }
        return (x, y)
    }

    /// The single-touch axes (ABS_X, ABS_Y), which most panels give the same range.
    var singleTouchAxes: (x: AxisRange, y: AxisRange)? {
        guard let x = ranges[0], let y = ranges[1] else { return nil }
        return (x, y)
    }

    /// Fills in what this description lacks from `header`, the comment header that repeats it
    /// (and still holds the ranges when a user cut the rest): its own ranges and properties win.
    mutating func complete(from header: DeviceDescription) {
        ranges.merge(header.ranges) { own, _ in own }
        keys.formUnion(header.keys)
        if !knowsProperties {
            properties = header.properties
            knowsProperties = header.knowsProperties
        }
    }

    /// Whether anything was described at all.
    public var isEmpty: Bool { ranges.isEmpty && properties.isEmpty && keys.isEmpty }
}

/// Reads the description evtest prints, and libinput record repeats in its comment header:
/// "Event type 3 (EV_ABS)", "Event code 53 (ABS_MT_POSITION_X)", "Min 0", "Max 4095",
/// "Resolution 40", "Property type 1 (INPUT_PROP_DIRECT)" (libinput: "Property 1 (...)").
struct DescriptionReader {
    private(set) var description = DeviceDescription()
    private var type: Int?
    private var code: UInt16?
    private var minimum: Int32?

    /// Takes one line (indentation and any comment mark already removed); false if it is not one
    /// of a description's.
    @discardableResult
    mutating func take(_ line: Substring) -> Bool {
        let words = line.split(separator: " ")
        guard let first = words.first else { return false }
        func number(_ i: Int) -> Int64? { words.count > i ? integer(words[i].filter { $0 != ":" }[...]) : nil }
        switch first.filter({ $0 != ":" }) {
        case "Event" where words.count >= 3 && words[1] == "type":
            type = number(2).flatMap { Int(exactly: $0) }
            code = nil
        case "Event" where words.count >= 3 && words[1] == "code":
            guard let c = number(2).flatMap({ UInt16(exactly: $0) }) else { return false }
            code = c
            minimum = nil
            if type == 1 { description.keys.insert(Int(c)) }
        case "Min": minimum = number(1).flatMap { Int32(exactly: $0) }
        case "Max":
            guard let c = code, let m = minimum, let v = number(1).flatMap({ Int32(exactly: $0) }) else { return false }
            description.ranges[c] = AxisRange(minimum: m, maximum: v)
        case "Resolution":
            guard let c = code, let v = number(1).flatMap({ Int32(exactly: $0) }), description.ranges[c] != nil else { return false }
            description.ranges[c]?.resolution = max(v, 0)
        case "Properties":
            description.knowsProperties = true
            code = nil
        case "Property":
            // evtest: "Property type 1 (...)"; libinput record: "Property 1 (...)".
            guard let p = number(words.count > 1 && words[1] == "type" ? 2 : 1).flatMap({ Int(exactly: $0) }) else { return false }
            description.knowsProperties = true
            description.properties.insert(p)
        default: return false
        }
        return true
    }
}

/// A decimal or 0x-prefixed hexadecimal integer.
func integer(_ s: Substring) -> Int64? {
    if s.hasPrefix("0x") { return Int64(s.dropFirst(2), radix: 16) }
    if s.hasPrefix("-0x") { return Int64(s.dropFirst(3), radix: 16).map { -$0 } }
    return Int64(s)
}
