import { JsonBytes, utf8Bytes } from "../json-bytes.ts";
import type { MockStore } from "../store/mock-store.ts";
import { projectListItem } from "../store/project-records.ts";
import type { PropertyRecord } from "../store/records.ts";
import { withMembers } from "../with-members.ts";

/**
 * The list-by-user answers (endpoint 5), encoded once and kept until a property changes. A user's whole list is
 * the largest answer of the service (80,000 items at 100,000 properties), and a page polling it asks for the
 * same bytes again and again; encoding every item on every answer cost most of its time.
 *
 * Two things are kept, both dropped on the store's change events, which every change emits:
 * - each user's whole answer, until any property changes or the state is reset (a raw write may move a
 *   property from one user to another, so a change drops every user's answer, not only its owner's);
 * - each property's encoded item, until that property changes, so the answer after a change re-encodes only
 *   what changed. Items are kept as strings: joining them and encoding the answer once costs about as much as
 *   copying kept buffers, and a buffer per item would make the first answer slower.
 * Neither outgrows the state: at most one item per property and one answer per user, each answer made of items.
 */
export class EncodedPropertyLists {
  readonly #items = new Map<number, string>();
  readonly #answers = new Map<number, JsonBytes>();
  readonly #newestFirst: boolean;
  readonly #store: MockStore;

  readonly #extra: string;

  /**
   * @param newestFirst list a user's properties newest first (a service profile's order), not in the order they were
   * added.
   * @param extra undocumented fields every item carries (a service profile's), encoded as JSON object members.
   */
  constructor(store: MockStore, newestFirst = false, extra = "") {
    this.#store = store;
    this.#newestFirst = newestFirst;
    this.#extra = extra;
    store.onChange((change) => {
      if (change.kind === "reset") this.#items.clear();
      else if (change.collection === "properties")
        this.#items.delete(change.kind === "put" ? change.record.id : change.id);
      else return;
      this.#answers.clear();
    });
  }

  /** The JSON array of the list items of the user's properties. */
  answerFor(uid: number): JsonBytes {
    let answer = this.#answers.get(uid);
    if (answer === undefined) this.#answers.set(uid, (answer = this.#encode(this.#store.propertyIdsOf(uid))));
    return answer;
  }

  /** The answer of these properties, each item encoded once and kept until its property changes. */
  #encode(ids: readonly number[]): JsonBytes {
    const items = new Array<string>(ids.length);
    for (let index = 0; index < ids.length; index++) {
      const id = ids[index]!;
      let encoded = this.#items.get(id);
      if (encoded === undefined)
        this.#items.set(id, (encoded = this.#encodeItem(this.#store.record("properties", id)!)));
      items[index] = encoded;
    }
    if (this.#newestFirst) items.reverse();
    return new JsonBytes(utf8Bytes(`[${items.join(",")}]`));
  }

  #encodeItem(property: PropertyRecord): string {
    return withMembers(JSON.stringify(projectListItem(property)), this.#extra);
  }
}
