// A stroke's points as a collection that needs no heap memory for the common two (a line's or a
// circle's ends): Stroke hands these out and takes them, and keeps the two inline itself.
import TouchKit

/// The points of a stroke, in drawing order: exactly two are held inline, any other number in an
/// array. Reads and writes like an array of points.
public struct StrokePoints: RandomAccessCollection, MutableCollection, RangeReplaceableCollection, Hashable,
                            Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private var first2: (Point, Point)
    /// Every point when there are not exactly two (then `first2` is unused).
    private(set) var array: [Point]?

    public init() {
        first2 = (.zero, .zero)
        array = []
    }

    public init(_ a: Point, _ b: Point) {
        first2 = (a, b)
        array = nil
    }

    public init(_ points: [Point]) {
        if points.count == 2 {
            first2 = (points[0], points[1])
            array = nil
        } else {
            first2 = (.zero, .zero)
            array = points
        }
    }

    public init<S: Sequence>(_ points: S) where S.Element == Point {
        self.init(Array(points))
    }

    public init(arrayLiteral points: Point...) {
        self.init(points)
    }

    /// The two points, when there are exactly two.
    var pair: (Point, Point)? { array == nil ? first2 : nil }

    public var startIndex: Int { 0 }
    public var endIndex: Int { array?.count ?? 2 }

    public subscript(position: Int) -> Point {
        get {
            if let array { return array[position] }
            precondition(position == 0 || position == 1, "Index out of range")
            return position == 0 ? first2.0 : first2.1
        }
        set {
            if array != nil {
                array![position] = newValue
            } else {
                precondition(position == 0 || position == 1, "Index out of range")
                if position == 0 { first2.0 = newValue } else { first2.1 = newValue }
            }
        }
    }

    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with newElements: C)
    where C.Element == Point {
        // Moved out first, so that the array is not shared while it changes.
        var all = array ?? [first2.0, first2.1]
        array = nil
        all.replaceSubrange(range, with: newElements)
        self = StrokePoints(all)
    }

    public static func == (a: StrokePoints, b: StrokePoints) -> Bool { a.elementsEqual(b) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for point in self { hasher.combine(point) }
    }

    public var description: String { Array(self).description }
}
