export const add = (a: number, b: number): number => a + b;

export interface Shape {
  area(): number;
}

export enum Unit {
  Px,
  Em,
}
