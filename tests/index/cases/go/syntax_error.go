package calc

import "math"

// Add returns a + b.
func Add(a, b int) int {
	return a + b
}

func Broken(x int) int {
	if x > {
		return math.MaxInt
	}
	return x +
}

// Sqrt returns the square root of x.
func Sqrt(x float64) float64 {
	return math.Sqrt(x)
}

// Point is a 2D point.
type Point struct {
	X, Y float64
}

func (p Point) Norm() float64 { return Sqrt(p.X*p.X + p.Y*p.Y) }
