import { Shape } from "./shape";

/** Area of a circle. */
export function circleArea(radius: number): number {
  return Math.PI * radius ** 2;
}

export class Broken implements Shape {
  area(: number {
    return this.;
  }

/** A square. */
export interface Square extends Shape {
  side: number;
}

export function squareArea(square: Square): number {
  return square.side * square.side;
}
