use std::fmt;
use std::sync::Arc;

/// Something that can be drawn.
pub trait Shape: fmt::Debug + Send {
    /// The area of the shape.
    fn area(&self) -> f64;

    /// A short label; defaults to the type name.
    fn label(&self) -> String {
        String::from("shape")
    }

    type Unit;
    const SIDES: u32;
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    pub radius: f64,
}

#[derive(Debug)]
pub struct Polygon<const N: usize> {
    points: [Point; N],
}

#[derive(Debug, Clone, Copy)]
pub struct Point(pub f64, pub f64);

impl Circle {
    /// Creates a circle.
    pub fn new(radius: f64) -> Self {
        Self { radius }
    }

    pub(crate) fn scale(&mut self, factor: f64) {
        self.radius *= factor;
    }
}

impl Shape for Circle {
    type Unit = f64;
    const SIDES: u32 = 0;

    fn area(&self) -> f64 {
        std::f64::consts::PI * self.radius.powi(2)
    }
}

impl<const N: usize> Shape for Polygon<N> {
    type Unit = f64;
    const SIDES: u32 = N as u32;

    fn area(&self) -> f64 {
        shoelace(&self.points)
    }
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "circle({})", self.radius)
    }
}

impl<'a, T: Shape + ?Sized> Shape for &'a T {
    type Unit = T::Unit;
    const SIDES: u32 = T::SIDES;

    fn area(&self) -> f64 {
        (**self).area()
    }
}

impl From<Point> for Circle {
    fn from(p: Point) -> Self {
        Circle::new(p.0.hypot(p.1))
    }
}

fn shoelace(points: &[Point]) -> f64 {
    let total: f64 = points
        .windows(2)
        .map(|w| w[0].0 * w[1].1 - w[1].0 * w[0].1)
        .sum();
    total.abs() / 2.0
}

/// Total area of many shapes.
pub fn total_area<S>(shapes: &[Arc<S>]) -> f64
where
    S: Shape + ?Sized,
{
    shapes.iter().map(|s| s.area()).sum::<f64>()
}

pub fn boxed() -> Vec<Box<dyn Shape<Unit = f64>>> {
    vec![Box::new(Circle::new(1.0))]
}

extern "C" {
    fn c_area(radius: f64) -> f64;
}

pub union Bits {
    int: u64,
    float: f64,
}
