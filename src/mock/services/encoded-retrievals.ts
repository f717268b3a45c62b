import type { JsonBytes } from "../json-bytes.ts";
import { encodeRetrievedParts } from "../store/encode-retrieved-property.ts";
import type { MockStore } from "../store/mock-store.ts";
import type { DocumentRecord } from "../store/records.ts";
import { withMembers } from "../with-members.ts";

/** Work of one slice of the encoding ahead of time, in milliseconds: a request waits at most about this long for it. */
const SLICE_MS = 4;

/**
 * The retrieve answers (endpoints 1 and 2), each property's encoded once and kept until the property or one of
 * its floorplans changes. Retrieving a property is the mock's most common answer, and encoding it cost a fifth
 * of the CPU of such a GET (issue 23); at 100,000 properties it cost more, as the record encoded was rarely in
 * the processor's cache, so a GET cost more the larger the store. A kept answer is one run of bytes, written as
 * it is.
 *
 * The store keeps the answers (store/property-table.ts): a property's answer is how the store holds it, once
 * encoded, so that each property is held once (issue 32). This class tells the store how to encode them (with a
 * service profile's extra members), drops an answer when a floorplan it lists changes (a property's own change
 * drops its answer in the store), and encodes every property ahead of time, in slices of a few milliseconds
 * between requests ({@link encodeAll}), so that no GET waits for an encoding, whatever the size of the store.
 */
export class EncodedRetrievals {
  readonly #store: MockStore;
  /** The property whose kept answer lists each floorplan document. */
  readonly #floorplanOf = new Map<number, number>();
  /** Whether {@link encodeAll} runs, to start again after a reset; the pending slice. */
  #ahead = false;
  #slice: NodeJS.Immediate | undefined;
  /** Told once every property's answer is encoded (the Node host gives the memory of the file read back then). */
  readonly #onEncoded: (() => void) | undefined;

  /**
   * @param extra undocumented fields every answer carries (a service profile's), encoded as JSON object members.
   * @param onEncoded told when the encoding ahead of time has encoded every property.
   */
  constructor(store: MockStore, extra = "", onEncoded?: () => void) {
    this.#store = store;
    this.#onEncoded = onEncoded;
    store.encodeAnswersWith((record, documents) => {
      const parts = encodeRetrievedParts(record, documents);
      for (const document of documents) if (document.is_floorplan) this.#floorplanOf.set(document.id, record.id);
      // Extra members go before the closing brace: the record's own members stay where the parts say.
      return extra === "" ? parts : { ...parts, text: withMembers(parts.text, extra) };
    });
    store.onChange((change) => {
      if (change.kind === "reset") {
        this.#floorplanOf.clear();
        if (this.#ahead) this.#start();
      } else if (change.collection === "documents") {
        const id = change.kind === "put" ? change.record.id : change.id;
        const listedIn = this.#floorplanOf.get(id);
        if (listedIn !== undefined) {
          this.#floorplanOf.delete(id);
          store.dropPropertyAnswer(listedIn);
        }
        if (change.kind === "put" && (change.record as DocumentRecord).is_floorplan) store.dropPropertyAnswer((change.record as DocumentRecord).property_reference);
      }
    });
  }

  /** The retrieve answer of a property of the store: the kept one, or encoded now and kept. */
  answerFor(id: number): JsonBytes {
    return this.#store.propertyAnswer(id)!;
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

  #start(): void {
    this.#stop();
    const ids = [...this.#store.propertyIds()];
    const state = this.#store.state;
    let next = 0;
    const work = () => {
      this.#slice = undefined;
      // A reset replaces the state (and starts again); a property added meanwhile is encoded on its first GET,
      // one removed is skipped.
      if (this.#store.state !== state) return;
      const until = performance.now() + SLICE_MS;
      while (next < ids.length) {
        const id = ids[next++]!;
        if (!this.#store.hasPropertyAnswer(id)) this.#store.encodePropertyAnswer(id);
        if (next % 64 === 0 && performance.now() >= until) break;
      }
      if (next < ids.length) this.#schedule(work);
      else this.#onEncoded?.();
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
