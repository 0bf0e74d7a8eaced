package com.example.calc

/** Simple arithmetic. */
class Calculator {
    /** Adds two numbers. */
    fun add(a: Int, b: Int): Int {
        return a + b
    }

    fun broken(x: Int): Int {
        val y = x + 
        return y * )
    }

    /** Sums a list. */
    fun sum(values: List<Int>): Int {
        var total = 0
        for (v in values) {
            total = add(total, v)
        }
        return total
    }
}
