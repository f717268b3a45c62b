import fc from "fast-check";
import type { BrokenRule, FuzzCase } from "./fuzz-case.ts";
import type { FieldKind, InputField, InputOperation } from "./input-model.ts";

/** The records of the run that generated cases aim at: its own property and its owner. */
export interface FuzzTarget {
  nid?: string;
  uid?: string;
}

/**
 * Section 2.1: `premise` may be an empty string. Elsewhere the document does not say whether "" is a value or
 * an absent one (which comes back as null), so valid cases send no empty string there, and no invalid case
 * relies on one either.
 */
const EMPTY_ALLOWED = new Set(["premise"]);

const UPPER = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
const LETTERS = [...UPPER, ..."abcdefghijklmnopqrstuvwxyz"];
/** Letters that no number syntax uses (no hexadecimal digit, no exponent): `xyz` is not numeric in any reading. */
const NOT_NUMERIC = [..."ghijklmnopqrstuvwxyz"];

/**
 * Any text: printable graphemes of every script, any code point, ASCII; short and long. Long stays under a few
 * KiB per field, so a body with several long fields stays far from the size limits a service may keep.
 */
function text(minLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: "grapheme", minLength, maxLength: 24 }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength, maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength, maxLength: 24 }) },
    // Long: any length up to 400 graphemes, so that shrinking can take a long text down to the shortest that fails.
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength, maxLength: 400, size: "max" }) },
  );
}

/** Integers of any sign, small and as large as JSON carries them exactly (IEEE doubles: ±(2^53 − 1)). */
const anyInteger = fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.maxSafeInteger());
/**
 * A number that is not an integer (JSON writes 2.0 as 2, so every value here has a fractional part): mostly a
 * whole part and a simple fraction, which shrinks to a readable 0.5; now and then any double.
 */
const fraction = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.integer({ min: -100_000, max: 100_000 }), fc.constantFrom(0.5, 0.25, 0.75, 0.1)).map(([whole, part]) => whole + part) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).filter((value) => !Number.isInteger(value)) },
);

function letters(alphabet: string[], minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength, maxLength });
}

/** A value the document allows for a body field. */
function validValue(field: InputField): fc.Arbitrary<unknown> {
  const { kind } = field;
  switch (kind.type) {
    case "integer":
      return anyInteger;
    case "enum":
      return fc.constantFrom(...kind.values);
    case "numeric":
      return anyInteger.map(String);
    case "id":
      return fc.oneof(fc.nat(100_000), fc.nat({ max: Number.MAX_SAFE_INTEGER })).map(String);
    case "url":
      return fc.webUrl();
    case "string":
      // A documented exact length (state, 2 characters): capital letters, so that no reading of "character" differs
      // and a service that writes abbreviations in capitals shows the value as sent.
      if (kind.minLength !== undefined && kind.minLength === kind.maxLength) return letters(UPPER, kind.minLength, kind.minLength);
      if (kind.pattern !== undefined) return fc.stringMatching(new RegExp(kind.pattern));
      return text(EMPTY_ALLOWED.has(field.name) ? 0 : 1);
  }
}

/** The JSON type of a kind's values: a number for an integer, a string for every other kind. */
const jsonType = (kind: FieldKind): "number" | "string" => (kind.type === "integer" ? "number" : "string");

/** The kinds the document gives a field: its own, and those of the same field in another operation's body. */
const kindsOf = (field: InputField): FieldKind[] => [field.kind, ...(field.also ?? [])];

/**
 * A value of another JSON type than any the document gives the field (never null: a reading may take null as
 * "no value"). The type the document gives the same field elsewhere is none: an integer for the edit's
 * square_feet, which the create table types integer, or a string for the create's.
 */
function wrongType(field: InputField): fc.Arbitrary<unknown> {
  const documented = new Set(kindsOf(field).map(jsonType));
  const options: Array<fc.WeightedArbitrary<unknown>> = [
    { weight: 1, arbitrary: fc.oneof(fc.boolean(), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), fc.dictionary(letters(LETTERS, 1, 3), fc.string({ maxLength: 3 }), { maxKeys: 2 })) },
  ];
  if (!documented.has("string")) options.push({ weight: 1, arbitrary: text(0) });
  // A number where a string is documented is the likeliest slip of a client, and the one a lenient service takes.
  if (!documented.has("number")) options.push({ weight: 3, arbitrary: anyInteger }, { weight: 1, arbitrary: fraction });
  return fc.oneof(...options);
}

/** A value outside a list, near the listed ones (case, spacing) or anywhere. */
function outside(values: readonly string[]): fc.Arbitrary<string> {
  const near = fc.constantFrom(...values).chain((value) => fc.constantFrom(value.toLowerCase(), value.toUpperCase(), value.replace(/[ _-]/g, ""), ` ${value}`, `${value}s`));
  return fc.oneof(near, text(1)).filter((value) => !values.includes(value));
}

/** A path parameter that is not an integer: its own record's id with a tail, a fraction, or letters. */
function notInteger(own: string | undefined): fc.Arbitrary<string> {
  const base = own ? fc.constant(own) : fc.nat(100_000).map(String);
  return fc.oneof(
    fc.tuple(base, letters(NOT_NUMERIC, 1, 4)).map(([id, tail]) => `${id}${tail}`),
    fc.tuple(base, fc.integer({ min: 1, max: 99 })).map(([id, tenths]) => `${id}.${tenths}`),
    letters(NOT_NUMERIC, 1, 8),
  );
}

/** A body with every required field and any of the others, each valid. */
function validBody(fields: InputField[], atLeastOne: boolean): fc.Arbitrary<Record<string, unknown>> {
  const model = Object.fromEntries(fields.map((field) => [field.name, validValue(field)]));
  const body = fc.record(model, { requiredKeys: fields.filter((field) => field.required).map((field) => field.name) }) as fc.Arbitrary<Record<string, unknown>>;
  return atLeastOne ? body.filter((value) => Object.keys(value).length > 0) : body;
}

/** A body with one field set to a value that breaks one rule. */
function withField(body: fc.Arbitrary<Record<string, unknown>>, fields: InputField[], value: (field: InputField) => fc.Arbitrary<unknown>) {
  return fc.tuple(body, fc.constantFrom(...fields).chain((field) => value(field).map((broken) => [field, broken] as const))).map(([valid, [field, broken]]) => ({ body: { ...valid, [field.name]: broken }, field }));
}

/**
 * The generated cases of one operation, valid and invalid in equal shares: body fields from the constraints the
 * contract reads from the interface document, path parameters from their documented types. Invalid cases break
 * one documented rule each: a missing required field, another JSON type, a fraction for an integer, a value
 * outside a documented list, a state that is not 2 characters, a value 2.1 could not show as a numeric string, a
 * path parameter that is not an integer. An over-long string or an unknown field is never among them: the
 * document sets no length limit and does not forbid other fields.
 */
export function caseArbitrary(operation: InputOperation, target: FuzzTarget): fc.Arbitrary<FuzzCase> | undefined {
  const id = operation.id;
  const section = operation.section;
  const fields = operation.body ?? [];
  const integerParam = operation.parameters.find((parameter) => parameter.type === "integer");
  const valid: Array<fc.Arbitrary<FuzzCase>> = [];
  const invalid: Array<fc.Arbitrary<FuzzCase>> = [];

  if (operation.method === "GET") {
    const parameter = operation.parameters[0];
    if (!parameter) return undefined;
    const own = parameter.name === "uid" ? target.uid : target.nid;
    if (parameter.type === "integer") {
      valid.push((own ? fc.oneof(fc.constant(own), anyInteger.map(String)) : anyInteger.map(String)).map((value) => ({ operation: id, params: { [parameter.name]: value } })));
      invalid.push(notInteger(own).map((value) => ({ operation: id, params: { [parameter.name]: value }, broken: { rule: "path-not-integer", field: parameter.name, section } })));
    } else {
      // A string-like identifier: any text but the dot segments, which a URL resolves away before sending.
      valid.push(text(1).filter((value) => value !== "." && value !== "..").map((value) => ({ operation: id, params: { [parameter.name]: value } })));
    }
    return fc.oneof(...valid, ...invalid);
  }

  // A write aims at the run's own record only: a generated nid could name a real record of the account.
  if (integerParam && !target.nid) return undefined;
  const params = integerParam && target.nid ? { [integerParam.name]: target.nid } : {};
  const isEdit = integerParam !== undefined;
  valid.push(validBody(fields, isEdit).map((value) => ({ operation: id, params, body: value })));
  // An invalid case breaks one rule on a body that is otherwise as small as it can be (the required fields, or
  // one field of an edit): a service that refuses some valid value the document leaves open (a negative count,
  // a long text) must not hide whether it refuses the broken rule.
  const required = fields.filter((field) => field.required);
  const body: fc.Arbitrary<Record<string, unknown>> = required.length > 0 ? validBody(required, false) : fc.constant({});
  const oneField = fc.constantFrom(...fields).chain((field) => validValue(field).map((value) => ({ [field.name]: value })));

  const broken = (rule: BrokenRule, ruleSection = section) =>
    ({ body: value, field }: { body: Record<string, unknown>; field: InputField }): FuzzCase => ({ operation: id, params, body: value, broken: { rule, field: field.name, section: ruleSection } });

  if (required.length > 0) {
    invalid.push(
      fc.tuple(body, fc.constantFrom(...required)).map(([value, field]) => {
        const { [field.name]: _left, ...rest } = value;
        return broken("missing-required")({ body: rest, field });
      }),
    );
  }
  invalid.push(withField(body, fields, wrongType).map(broken("wrong-type")));
  const integers = fields.filter((field) => kindsOf(field).some((kind) => kind.type === "integer"));
  if (integers.length > 0) invalid.push(withField(body, integers, () => fraction).map(broken("fraction")));
  // On create the documented lists are the body's own; on edit, the values 2.1 shows (the template names of 2.4).
  const listed = fields.flatMap((field) => {
    const values = isEdit ? (field.shownAs?.type === "enum" ? field.shownAs.values : undefined) : field.kind.type === "enum" ? field.kind.values : undefined;
    return values ? [{ field, values }] : [];
  });
  if (listed.length > 0) {
    invalid.push(fc.tuple(body, fc.constantFrom(...listed).chain(({ field, values }) => outside(values).map((value) => [field, value] as const))).map(([value, [field, wrong]]) => broken("outside-enum", isEdit ? "2.1" : section)({ body: { ...value, [field.name]: wrong }, field })));
  }
  const sized = fields.filter((field) => field.kind.type === "string" && field.kind.minLength !== undefined && field.kind.minLength > 1 && field.kind.minLength === field.kind.maxLength);
  if (sized.length > 0) {
    invalid.push(
      withField(body, sized, (field) => {
        const size = (field.kind as { minLength: number }).minLength;
        return fc.oneof(letters(UPPER, 0, size - 1), letters(UPPER, size + 1, size + 6));
      }).map(broken("length", isEdit ? "2.1" : section)),
    );
  }
  // A value a retrieve could not show as the numeric string 2.1 gives the field: text where a number is documented.
  const numeric = fields.filter((field) => kindsOf(field).some((kind) => kind.type === "numeric" || kind.type === "id") && field.shownAs?.type === "numeric");
  if (numeric.length > 0) invalid.push(withField(body, numeric, () => letters(NOT_NUMERIC, 1, 8)).map(broken("not-numeric", "2.1")));
  if (isEdit) {
    const parameter = integerParam;
    invalid.push(
      fc.tuple(oneField, notInteger(target.nid)).map(([value, nid]): FuzzCase => ({ operation: id, params: { [parameter.name]: nid }, body: value, broken: { rule: "path-not-integer", field: parameter.name, section } })),
    );
  }
  return fc.oneof(fc.oneof(...valid), fc.oneof(...invalid));
}
