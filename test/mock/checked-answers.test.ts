/** The memory of passed checks behind --validate-responses: exact on what it keeps, bounded in what it holds. */
import { describe, expect, it } from "vitest";
import { JsonBytes } from "../../src/mock/json-bytes.ts";
import {
  CheckedAnswers,
  MAX_CHECKED_TEXT_LENGTH,
  MAX_CHECKED_TEXTS,
} from "../../src/mock/validation/checked-answers.ts";

const CHECK = "retrieveProperty 200 application/json";
const PATH = "/api/v1/object/property/1";
const TEXT = '{"nid":"1"}';

describe("CheckedAnswers", () => {
  it("knows a text only for the check and path it passed, and only the last that passed there", () => {
    const checked = new CheckedAnswers();
    expect(checked.passedText(CHECK, PATH, '{"nid":"1"}')).toBe(false);
    checked.addText(CHECK, PATH, '{"nid":"1"}');
    expect(checked.passedText(CHECK, PATH, '{"nid":"1"}')).toBe(true);
    expect(checked.passedText("retrieveProperty 404 application/problem+json", PATH, '{"nid":"1"}')).toBe(false);
    expect(checked.passedText(CHECK, "/api/v1/object/property/2", '{"nid":"1"}')).toBe(false);
    expect(checked.passedText(CHECK, PATH, '{"nid":"2"}')).toBe(false);
    checked.addText(CHECK, PATH, '{"nid":"2"}');
    expect(checked.passedText(CHECK, PATH, '{"nid":"2"}')).toBe(true);
    expect(checked.passedText(CHECK, PATH, '{"nid":"1"}')).toBe(false);
  });

  it("holds at most its bound of texts, forgetting the first remembered first, and no long text", () => {
    const checked = new CheckedAnswers();
    for (let index = 0; index < MAX_CHECKED_TEXTS; index++) checked.addText(CHECK, `/p/${index}`, TEXT);
    expect(checked.passedText(CHECK, "/p/0", TEXT)).toBe(true);
    checked.addText(CHECK, "/p/new", TEXT);
    expect(checked.size).toBe(MAX_CHECKED_TEXTS);
    expect(checked.passedText(CHECK, "/p/0", TEXT)).toBe(false);
    expect(checked.passedText(CHECK, "/p/1", TEXT)).toBe(true);
    expect(checked.passedText(CHECK, "/p/new", TEXT)).toBe(true);
    // Passing again re-remembers it at the end
    checked.addText(CHECK, "/p/0", TEXT);
    checked.addText(CHECK, "/p/newer", TEXT);
    expect(checked.passedText(CHECK, "/p/1", TEXT)).toBe(false);
    expect(checked.passedText(CHECK, "/p/0", TEXT)).toBe(true);
    const long = JSON.stringify({ description: "x".repeat(MAX_CHECKED_TEXT_LENGTH) });
    checked.addText(CHECK, "/p/long", long);
    expect(checked.passedText(CHECK, "/p/long", long)).toBe(false);
    expect(checked.size).toBe(MAX_CHECKED_TEXTS);
  });

  it("knows encoded bytes by identity, not by content", () => {
    const checked = new CheckedAnswers();
    const bytes = new JsonBytes(Buffer.from("[]"));
    checked.addEncoded(bytes, CHECK);
    expect(checked.passedEncoded(bytes, CHECK)).toBe(true);
    expect(checked.passedEncoded(bytes, "listUserProperties 200 application/json")).toBe(false);
    expect(checked.passedEncoded(new JsonBytes(Buffer.from("[]")), CHECK)).toBe(false);
  });
});
