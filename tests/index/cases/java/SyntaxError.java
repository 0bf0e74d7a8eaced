package com.example.calc;

import java.util.List;

/** Simple arithmetic. */
public class Calculator {
    /** Adds two numbers. */
    public int add(int a, int b) {
        return a + b;
    }

    public int broken(int x) {
        int y = x + ;
        return y * ;
    }

    /** Sums a list. */
    public int sum(List<Integer> values) {
        int total = 0;
        for (int v : values) {
            total = add(total, v);
        }
        return total;
    }
}
