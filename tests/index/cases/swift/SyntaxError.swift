import Foundation

/// Simple arithmetic.
class Calculator {
    /// Adds two numbers.
    func add(_ a: Int, _ b: Int) -> Int {
        return a + b
    }

    func broken(_ x: Int) -> Int {
        let y = x +
        return y * )
    }

    /// Sums a list.
    func sum(_ values: [Int]) -> Int {
        var total = 0
        for v in values {
            total = add(total, v)
        }
        return total
    }
}
