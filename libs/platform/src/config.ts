import { ConfigError } from './errors.js';

/**
 * A typed reader over an environment-like record. Every problem is collected and reported together, before any
 * connection is opened, so a bad configuration fails at start with everything that is wrong in one message.
 */
export class ConfigReader {
  private readonly problems: string[] = [];
  constructor(private readonly env: Record<string, string | undefined> = process.env) {}

  string(name: string, fallback: string): string;
  string(name: string): string | undefined;
  string(name: string, fallback?: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === '' ? fallback : value;
  }

  integer(name: string, fallback: number, bounds: { min?: number; max?: number } = {}): number {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value)) {
      this.problems.push(`${name} must be a whole number, got "${raw}"`);
      return fallback;
    }
    if ((bounds.min !== undefined && value < bounds.min) || (bounds.max !== undefined && value > bounds.max)) {
      this.problems.push(`${name} must be between ${bounds.min ?? '-inf'} and ${bounds.max ?? 'inf'}, got ${value}`);
      return fallback;
    }
    return value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
      return fallback;
    }
    return raw as T;
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  /** Throws one ConfigError listing every problem found. */
  done(): void {
    if (this.problems.length) throw new ConfigError(`invalid configuration:\n  - ${this.problems.join('\n  - ')}`, { problems: this.problems });
  }
}
