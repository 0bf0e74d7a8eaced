import { Injectable, Inject } from "@angular/core";
import { EventEmitter } from "events";
import type { Logger } from "./logger";

/** Something that can be started and stopped. */
export interface Service {
  start(): Promise<void>;
  stop(force?: boolean): Promise<void>;
  readonly name: string;
}

export abstract class BaseService extends EventEmitter implements Service {
  abstract readonly name: string;
  protected started = false;

  /** Start the service once. */
  async start(): Promise<void> {
    if (!this.started) {
      await this.onStart();
      this.started = true;
    }
  }

  async stop(force = false): Promise<void> {
    this.started = false;
    this.emit("stopped", force);
  }

  protected abstract onStart(): Promise<void>;
}

/**
 * Caches values in memory.
 */
@Injectable({ providedIn: "root" })
export class CacheService<K, V extends object> extends BaseService implements Service, Iterable<[K, V]> {
  readonly name = "cache";
  private readonly store = new Map<K, V>();
  static readonly DEFAULT_TTL = 60;

  /** Called when an entry expires. */
  onExpire: (key: K) => void = (key) => this.store.delete(key);

  private evict = (key: K): boolean => {
    return this.store.delete(key);
  };

  constructor(@Inject(LOGGER) private readonly logger: Logger, ttl?: number) {
    super();
    this.ttl = ttl ?? CacheService.DEFAULT_TTL;
  }

  @Memoize()
  get(key: K): V | undefined {
    return this.store.get(key);
  }

  set(key: K, value: V): this {
    this.store.set(key, value);
    this.logger.debug(`set ${String(key)}`);
    return this;
  }

  *[Symbol.iterator](): Iterator<[K, V]> {
    yield* this.store.entries();
  }

  protected async onStart(): Promise<void> {
    setInterval(() => this.sweep(), 1000);
  }

  private sweep(): void {}

  /** Per-entry metadata. */
  static Entry = class {
    constructor(public readonly key: string) {}
  };
}

export class Outer {
  inner = new Outer.Inner();

  static Inner = class Inner {
    value(): number {
      return 1;
    }
  };
}

export default class extends BaseService {
  readonly name = "anonymous";
  protected async onStart() {}
}
