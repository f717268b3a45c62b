/** What a retrieve must answer, computed afresh from records, to hold kept answers to byte for byte. */
import { projectProperty } from "../../src/mock/store/project-records.ts";
import type { DocumentRecord, PropertyRecord } from "../../src/mock/store/records.ts";

/** The answer computed afresh from records: what a GET must answer, byte for byte. */
export function freshAnswer(record: PropertyRecord, documents: Iterable<DocumentRecord>): string {
  return JSON.stringify(projectProperty(record, documents));
}

/** Where two answers first differ, with some context, for a failure's message. */
export function difference(got: string, expected: string): string {
  let at = 0;
  while (at < got.length && got[at] === expected[at]) at += 1;
  const from = Math.max(0, at - 60);
  return `differs at ${at}: got …${got.slice(from, at + 80)}… expected …${expected.slice(from, at + 80)}…`;
}
