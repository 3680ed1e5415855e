export function greet(name: string): string {
  return `Hello, ${name}`;
}

export class Greeter {
  constructor(private readonly prefix: string) {}

  hello(name: string): string {
    return `${this.prefix} ${greet(name)}`;
  }

  bye(name: string): string {
    return `Bye, ${name}`;
  }
}
