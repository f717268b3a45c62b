import { JsonBytes } from "../json-bytes.ts";
import type { MockStore } from "../store/mock-store.ts";
import { projectListItem } from "../store/project-records.ts";
import type { PropertyRecord } from "../store/records.ts";

/**
 * The list-by-user answer (endpoint 5) built from each property's list item encoded once and kept until the
 * property changes. A user's whole list is the largest answer of the service (80,000 items at 100,000
 * properties); encoding every item again on every answer cost most of its time.
 *
 * Encodings are kept by nid and dropped on the store's change events, which every change emits: an edit or a
 * raw write of a property drops its encoding, a removal too, a reset all of them. So the kept encodings never
 * outnumber the properties. They are kept as strings: joining them and encoding the whole answer once costs
 * about as much as copying kept buffers, and keeping a buffer per item would make the first answer slower.
 */
export class EncodedListItems {
  readonly #encoded = new Map<number, string>();

  constructor(store: MockStore) {
    store.onChange((change) => {
      if (change.kind === "reset") this.#encoded.clear();
      else if (change.collection === "properties") this.#encoded.delete(change.kind === "put" ? change.record.id : change.id);
    });
  }

  /** The JSON array of these properties' list items, in their order. */
  encode(properties: readonly PropertyRecord[]): JsonBytes {
    const items = new Array<string>(properties.length);
    for (let index = 0; index < properties.length; index++) {
      const property = properties[index]!;
      let encoded = this.#encoded.get(property.id);
      if (encoded === undefined) this.#encoded.set(property.id, (encoded = JSON.stringify(projectListItem(property))));
      items[index] = encoded;
    }
    return new JsonBytes(Buffer.from(`[${items.join(",")}]`));
  }
}
