import { SettingsError } from "../env";

/**
 * A pluggable part of the service — the analyzer set, the recapture detector, later the mail and
 * SMS providers: named implementations (the real ones and a no-op), one picked by a setting. Tests
 * add a named implementation and select it through the same setting, so there is one way to swap
 * a part, and it reaches every invocation that is handed the setting (Worker, Durable Objects).
 */
export class Parts<T> {
  private readonly implementations: Map<string, T>;

  constructor(
    /** The setting (wrangler var) that names the implementation. */
    readonly setting: string,
    implementations: Record<string, T>,
  ) {
    this.implementations = new Map(Object.entries(implementations));
  }

  /** The implementation named by the setting; an unknown name is a deployment error naming the setting. */
  pick(name: string | undefined): T {
    const implementation = name === undefined ? undefined : this.implementations.get(name);
    if (implementation === undefined)
      throw new SettingsError(`${this.setting} is "${name}"; known: ${[...this.implementations.keys()].join(", ")}`);
    return implementation;
  }

  /** Adds an implementation under a new name (tests); returns its removal. */
  add(name: string, implementation: T): () => void {
    if (this.implementations.has(name)) throw new Error(`${this.setting} "${name}" exists already`);
    this.implementations.set(name, implementation);
    return () => this.implementations.delete(name);
  }
}
