import type { StateHolder } from "./mock-store.ts";

/**
 * The object that holds the mock's state. `/__db` is served by the mock's own raw-record service over the store,
 * so no json-server (nor Express) has to be loaded to hold the state: a start loads neither.
 */
export class SharedState<State> implements StateHolder<State> {
  #state: State;

  constructor(state: State) {
    this.#state = state;
  }

  getState(): State {
    return this.#state;
  }

  setState(state: State): void {
    this.#state = state;
  }
}
