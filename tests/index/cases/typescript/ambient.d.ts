// Declarations only: signatures spread over lines, no bodies anywhere.

export declare function createApp(rootComponent: Component,
  rootProps?: Data | null): App;

export declare class Store<S> {
  constructor(options: StoreOptions<S>);
  /** Commits a mutation. */
  commit(type: string,
    payload?: unknown): void;
  get state(): S;
}

export interface Plugin {
  install(app: App,
    ...options: unknown[]): void;
}

export declare abstract class Base {
  protected abstract render(ctx: Context,
    cache: Cache): VNode;
}
