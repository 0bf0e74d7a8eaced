use std::cmp::Ordering;

/// Returns the larger of two values.
pub fn max(a: i32, b: i32) -> i32 {
    if a > b { a } else { b }
}

pub fn broken(x: i32) -> i32 {
    let y = match x.cmp(&0) {
        Ordering::Less => ,
        _ => x,
    };
    y + * 2
}

/// A pair of values.
pub struct Pair {
    pub left: i32,
    pub right: i32,
}

impl Pair {
    pub fn larger(&self) -> i32 {
        max(self.left, self.right)
    }
}
