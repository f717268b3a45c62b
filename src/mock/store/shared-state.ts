import type { StateHolder } from "./mock-store.ts";

/**
 * The object that holds the mock's state. json-server's router serves the same collections under `/__db`, but is
 * loaded only by the first raw request, so no json-server (nor Express) has to be loaded to hold the state: a
 * start loads neither.
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
