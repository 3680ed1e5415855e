export class Circle {
  constructor(private readonly r: number) {}

  area(): number {
    return Math.PI * this.r * this.r;
  }
}

export function helper(n: number): number {
  return n * 2;
}

export function unused(): void {}
