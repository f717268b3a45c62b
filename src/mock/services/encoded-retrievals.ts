import { JsonBytes, utf8Bytes } from "../json-bytes.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { DocumentRecord } from "../store/records.ts";
import { withMembers } from "../with-members.ts";
import { encodeRetrievedProperty } from "./encode-retrieved-property.ts";

/**
 * Bytes of retrieve answers kept by default: every answer of a store of some tens of thousands of properties, a
 * part of a larger one's, so that what a large store holds stays bounded (docs/large-stores.md).
 */
export const KEPT_ANSWER_BYTES = 32 * 1024 * 1024;

/**
 * The retrieve answers (endpoints 1 and 2), each encoded on its first GET and kept as bytes until its property, or
 * a floorplan it lists, changes. Retrieving a property is the mock's most common answer, and encoding it is a good
 * part of such a GET's CPU; the store holds records, and the answers are kept here, beside the HTTP layer, in one
 * place. They are bounded in bytes: once the bound is reached, an answer not kept is encoded for its request and
 * not kept (until a change or a reset makes room), so a store of any size holds at most that much more. Letting
 * the oldest go to keep the newest instead made every GET past the bound pay for the churn: answers kept long
 * enough to reach V8's old generation, then dropped, and a walk over the dropped entries of the map.
 */
export class EncodedRetrievals {
  readonly #store: MockStore;
  readonly #extra: string;
  readonly #limit: number;
  /** The answers kept. */
  readonly #answers = new Map<number, JsonBytes>();
  #bytes = 0;
  /** The property whose kept answer lists each floorplan document. */
  readonly #floorplanOf = new Map<number, number>();

  /**
   * @param extra undocumented fields every answer carries (a service profile's), encoded as JSON object members.
   * @param limit the bytes of answers kept at most.
   */
  constructor(store: MockStore, extra = "", limit = KEPT_ANSWER_BYTES) {
    this.#store = store;
    this.#extra = extra;
    this.#limit = limit;
    store.onChange((change) => {
      if (change.kind === "reset") return this.#clear();
      const id = change.kind === "put" ? change.record.id : change.id;
      if (change.collection === "properties") this.#drop(id);
      else if (change.collection === "documents") {
        const listedIn = this.#floorplanOf.get(id);
        if (listedIn !== undefined) {
          this.#floorplanOf.delete(id);
          this.#drop(listedIn);
        }
        if (change.kind === "put" && (change.record as DocumentRecord).is_floorplan)
          this.#drop((change.record as DocumentRecord).property_reference);
      }
    });
  }

  /**
   * The retrieve answer of a property of the store: the kept one, or encoded now (and kept); undefined if there is
   * none.
   */
  answerFor(id: number): JsonBytes | undefined {
    const kept = this.#answers.get(id);
    if (kept !== undefined) return kept;
    const record = this.#store.record("properties", id);
    if (record === undefined) return undefined;
    const documents = this.#store.documentsOfProperty(id);
    const text = encodeRetrievedProperty(record, documents);
    // Extra members go before the closing brace.
    const bytes = utf8Bytes(this.#extra === "" ? text : withMembers(text, this.#extra));
    const answer = new JsonBytes(bytes);
    if (this.#bytes + bytes.byteLength > this.#limit) return answer;
    // Only a kept answer is dropped when a floorplan it lists changes.
    for (const document of documents) if (document.is_floorplan) this.#floorplanOf.set(document.id, id);
    this.#answers.set(id, answer);
    this.#bytes += bytes.byteLength;
    return answer;
  }

  /** The bytes of the answers kept. */
  get keptBytes(): number {
    return this.#bytes;
  }

  #drop(id: number): void {
    const kept = this.#answers.get(id);
    if (kept === undefined) return;
    this.#answers.delete(id);
    this.#bytes -= (kept.encoded as Uint8Array).byteLength;
  }

  #clear(): void {
    this.#answers.clear();
    this.#floorplanOf.clear();
    this.#bytes = 0;
  }
}
