const answers = new Map<string, string>();

// WHY(cache@2026-08-10): entries live until the server restarts, because the worker owns
// them (ADR-1); evicting them would need a second owner.
export function remember(key: string, value: string): void {
  answers.set(key, value);
}

export function forget(key: string): void {
  answers.delete(key);
}
