import { greet, Greeter } from './greet';
import { add } from './util/math';

export function main(): string {
  return new Greeter('>').hello(greet('world')) + add(1, 2);
}
