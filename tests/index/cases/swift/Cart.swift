import Foundation
@testable import Shop

/// A shopping cart.
///
/// Holds the items a customer picked.
public final class Cart: Base, Codable {
    /// Total price of the items.
    public var total: Int {
        items.reduce(0) { $0 + $1.price }
    }

    let id: String
    private(set) var items: [Item] = []
    static let shared = Cart(id: "shared")

    /// Makes an empty cart.
    init(id: String) {
        self.id = id
        super.init()
    }

    // Adds an item and returns the cart.
    @discardableResult
    func add(_ item: Item) -> Cart {
        items.append(item)
        return Builder().build(item)
    }

    subscript(index: Int) -> Item {
        items[index]
    }

    deinit {}
}

struct Point<T: Numeric>: Equatable {
    var x: T
    var y: T

    static func + (lhs: Point, rhs: Point) -> Point {
        Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
    }
}

/// Colours of a label.
enum Color: String {
    case red, green
    case blue = "b"

    var isWarm: Bool { self == .red }

    func hex() -> String {
        rawValue.uppercased()
    }
}

/// Something with an area.
protocol Shape {
    associatedtype Unit
    var area: Double { get }
    func scaled(by factor: Double) -> Self
}

extension Cart: Shape {
    var area: Double { Double(items.count) }

    /// The cart, scaled.
    func scaled(by factor: Double) -> Self {
        self
    }
}

extension Array where Element: Comparable {
    func second() -> Element? {
        dropFirst().first
    }
}

actor Inventory {
    private var counts: [String: Int] = [:]

    func count(of sku: String) async -> Int {
        counts[sku, default: 0]
    }
}

typealias Handler = (Cart) -> Void

let defaultCurrency = "EUR"
var requestCount = 0

@MainActor
func checkout(cart: Cart, handler: @escaping Handler) throws {
    guard let shape = cart as? Shape else { throw CheckoutError.notPriced }
    handler(cart)
    print(shape.area)
}
