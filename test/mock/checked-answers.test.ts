/** The memory of passed checks behind --validate-responses: exact on what it keeps, bounded in what it holds. */
import { describe, expect, it } from "vitest";
import { JsonBytes } from "../../src/mock/json-bytes.ts";
import { CheckedAnswers, MAX_CHECKED_TEXT_LENGTH, MAX_CHECKED_TEXTS } from "../../src/mock/validation/checked-answers.ts";

const CHECK = "retrieveProperty 200 application/json";

describe("CheckedAnswers", () => {
  it("knows a text only for the check it passed", () => {
    const checked = new CheckedAnswers();
    expect(checked.passedText('{"nid":"1"}', CHECK)).toBe(false);
    checked.addText('{"nid":"1"}', CHECK);
    expect(checked.passedText('{"nid":"1"}', CHECK)).toBe(true);
    expect(checked.passedText('{"nid":"1"}', "retrieveProperty 404 application/problem+json")).toBe(false);
    expect(checked.passedText('{"nid":"2"}', CHECK)).toBe(false);
  });

  it("holds at most its bound of texts, forgetting the least recently sent first, and no long text", () => {
    const checked = new CheckedAnswers();
    for (let index = 0; index < MAX_CHECKED_TEXTS; index++) checked.addText(`{"nid":"${index}"}`, CHECK);
    expect(checked.passedText('{"nid":"0"}', CHECK)).toBe(true); // now the most recently sent
    checked.addText('{"nid":"new"}', CHECK);
    expect(checked.size).toBe(MAX_CHECKED_TEXTS);
    expect(checked.passedText('{"nid":"1"}', CHECK)).toBe(false);
    expect(checked.passedText('{"nid":"0"}', CHECK)).toBe(true);
    expect(checked.passedText('{"nid":"new"}', CHECK)).toBe(true);
    const long = JSON.stringify({ description: "x".repeat(MAX_CHECKED_TEXT_LENGTH) });
    checked.addText(long, CHECK);
    expect(checked.passedText(long, CHECK)).toBe(false);
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
