import { format } from "./format.js";

/** Sum two numbers. */
export function add(a, b) {
  return a + b;
}

class Broken {
  method( {
    return format(1;
  }
}

/** Multiply two numbers. */
export function multiply(a, b) {
  return a * b;
}

export const square = (x) => multiply(x, x);
