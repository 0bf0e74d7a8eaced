package calc

/** Simple arithmetic. */
class Calculator {
  /** Adds two numbers. */
  def add(a: Int, b: Int): Int = {
    a + b
  }

  def broken(x: Int): Int = {
    val y = x +
    y * )
  }

  /** Sums a list. */
  def sum(values: List[Int]): Int = {
    values.foldLeft(0)(add)
  }
}
