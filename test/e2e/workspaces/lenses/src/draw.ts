import { Circle, helper } from './shapes';

export function draw(c: Circle): number {
  return helper(c.area());
}

// The receiver is `any`: the checker cannot place this call, so it is a guess by name.
export function render(x: any): number {
  return x.area();
}

export function twice(c: Circle): number {
  return draw(c) + helper(1);
}
