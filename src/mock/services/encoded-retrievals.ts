import { JsonBytes, utf8Bytes } from "../json-bytes.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { DocumentRecord, PropertyRecord } from "../store/records.ts";
import { withMembers } from "../with-members.ts";
import { encodeRetrievedProperty } from "./encode-retrieved-property.ts";

/** Work of one slice of the encoding ahead of time, in milliseconds: a request waits at most about this long for it. */
const SLICE_MS = 4;

/**
 * The retrieve answers (endpoints 1 and 2), each property's encoded once and kept until the property or one of
 * its floorplans changes. Retrieving a property is the mock's most common answer, and encoding it cost a fifth
 * of the CPU of such a GET (issue 23); at 100,000 properties it cost more, as the record encoded was rarely in
 * the processor's cache, so a GET cost more the larger the store. A kept answer is one run of bytes, written as
 * it is.
 *
 * Answers are kept by property id and dropped on the store's change events, which every change emits (a service
 * write, a raw write through `/__db`, a reset): a property's own change drops its answer; a document put or
 * removed drops the answer of the property it is a floorplan of now and of the one it was a floorplan of in a
 * kept answer. {@link encodeAll} encodes every property ahead of time, in slices of a few milliseconds between
 * requests, so that no GET waits for an encoding, whatever the size of the store. At most one answer per
 * property is kept: the answers never outgrow the state (about the size of its properties' JSON).
 */
export class EncodedRetrievals {
  readonly #store: MockStore;
  readonly #answers = new Map<number, JsonBytes>();
  /** The property whose kept answer lists each floorplan document. */
  readonly #floorplanOf = new Map<number, number>();
  /** Whether {@link encodeAll} runs, to start again after a reset; the pending slice. */
  #ahead = false;
  #slice: NodeJS.Immediate | undefined;

  readonly #extra: string;

  /** @param extra undocumented fields every answer carries (a service profile's), encoded as JSON object members. */
  constructor(store: MockStore, extra = "") {
    this.#store = store;
    this.#extra = extra;
    store.onChange((change) => {
      if (change.kind === "reset") {
        this.#answers.clear();
        this.#floorplanOf.clear();
        if (this.#ahead) this.#start();
      } else if (change.collection === "properties") {
        this.#answers.delete(change.kind === "put" ? change.record.id : change.id);
      } else if (change.collection === "documents") {
        const id = change.kind === "put" ? change.record.id : change.id;
        const listedIn = this.#floorplanOf.get(id);
        if (listedIn !== undefined) {
          this.#floorplanOf.delete(id);
          this.#answers.delete(listedIn);
        }
        if (change.kind === "put" && (change.record as DocumentRecord).is_floorplan) this.#answers.delete((change.record as DocumentRecord).property_reference);
      }
    });
  }

  /** The retrieve answer of a property of the store: the kept one, or encoded now and kept. */
  answerFor(property: PropertyRecord): JsonBytes {
    return this.#answers.get(property.id) ?? this.#encode(property);
  }

  /**
   * Encodes every property not kept yet, a slice at a time on the event loop (requests are answered between
   * slices), and again after each reset. Returns the function that stops it.
   */
  encodeAll(): () => void {
    this.#ahead = true;
    this.#start();
    return () => {
      this.#ahead = false;
      this.#stop();
    };
  }

  #encode(property: PropertyRecord): JsonBytes {
    const documents = this.#store.documentsOfProperty(property.id);
    const text = encodeRetrievedProperty(property, documents);
    // Kept as bytes: half the memory of a text with a character beyond Latin-1, and written as they are.
    const answer = new JsonBytes(utf8Bytes(withMembers(text, this.#extra)));
    this.#answers.set(property.id, answer);
    for (const document of documents) if (document.is_floorplan) this.#floorplanOf.set(document.id, property.id);
    return answer;
  }

  #start(): void {
    this.#stop();
    const properties = this.#store.state.properties;
    let next = 0;
    const work = () => {
      this.#slice = undefined;
      // The state's array as it is now: a reset replaces it (and starts again), a change may move records in
      // it; a property missed here is encoded on its first GET, one met twice is kept already.
      if (this.#store.state.properties !== properties) return;
      const until = performance.now() + SLICE_MS;
      while (next < properties.length) {
        const property = properties[next++]!;
        if (!this.#answers.has(property.id) && this.#store.property(property.id) === property) this.#encode(property);
        if (next % 64 === 0 && performance.now() >= until) break;
      }
      if (next < properties.length) this.#schedule(work);
    };
    this.#schedule(work);
  }

  // Not unref'd: the event loop waits for I/O without a timeout while only unref'd immediates are pending, so the
  // slices would run only as requests arrive. The server keeps the process alive meanwhile; closing it stops this.
  #schedule(work: () => void): void {
    this.#slice = setImmediate(work);
  }

  #stop(): void {
    if (this.#slice !== undefined) clearImmediate(this.#slice);
    this.#slice = undefined;
  }
}
