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
 * Arbitraries built once per process and shared by every run and operation that asks for the same one. Building a
 * grapheme string or a `stringMatching` arbitrary costs far more than drawing from it (fast-check tokenizes its
 * default slices and the pattern on every build), and an arbitrary holds no state between draws, so a shared one
 * draws exactly what a fresh one would. Keyed by the few lengths and the document's patterns: a handful of entries.
 */
const shared = new Map<string, fc.Arbitrary<unknown>>();
function built<T>(key: string, build: () => fc.Arbitrary<T>): fc.Arbitrary<T> {
  let arbitrary = shared.get(key) as fc.Arbitrary<T> | undefined;
  if (!arbitrary) {
    arbitrary = build();
    shared.set(key, arbitrary);
  }
  return arbitrary;
}

/**
 * Any text: printable graphemes of every script, any code point, ASCII; short and long. Long stays under a few
 * KiB per field, so a body with several long fields stays far from the size limits a service may keep.
 */
function text(minLength: number): fc.Arbitrary<string> {
  return built(`text ${minLength}`, () =>
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: "grapheme", minLength, maxLength: 24 }) },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength, maxLength: 24 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", minLength, maxLength: 24 }) },
      // Long: any length up to 400 graphemes, so that shrinking can take a long text down to the shortest that fails.
      { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength, maxLength: 400, size: "max" }) },
    ),
  );
}

/**
 * Integers of any sign, small and as large as JSON carries them exactly (IEEE doubles: ±(2^53 − 1)): negative
 * ones as often as positive ones, since the document gives integers no sign.
 */
const anyInteger = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }),
  fc.integer({ min: -100_000, max: -1 }),
  fc.maxSafeInteger(),
);
/**
 * A number that is not an integer (JSON writes 2.0 as 2, so every value here has a fractional part): mostly a
 * whole part and a simple fraction, which shrinks to a readable 0.5; now and then any double.
 */
const fraction = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.integer({ min: -100_000, max: 100_000 }), fc.constantFrom(0.5, 0.25, 0.75, 0.1))
      .map(([whole, part]) => whole + part),
  },
  {
    weight: 1,
    arbitrary: fc
      .double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })
      .filter((value) => !Number.isInteger(value)),
  },
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
      if (kind.minLength !== undefined && kind.minLength === kind.maxLength)
        return letters(UPPER, kind.minLength, kind.minLength);
      if (kind.pattern !== undefined) {
        const pattern = kind.pattern;
        return built(`pattern ${pattern}`, () => fc.stringMatching(new RegExp(pattern)));
      }
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
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.boolean(),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
        fc.dictionary(letters(LETTERS, 1, 3), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
      ),
    },
  ];
  if (!documented.has("string")) options.push({ weight: 1, arbitrary: text(0) });
  // A number where a string is documented is the likeliest slip of a client, and the one a lenient service takes.
  if (!documented.has("number")) options.push({ weight: 3, arbitrary: anyInteger }, { weight: 1, arbitrary: fraction });
  return fc.oneof(...options);
}

/** A value outside a list, near the listed ones (case, spacing) or anywhere. */
function outside(values: readonly string[]): fc.Arbitrary<string> {
  const near = fc
    .constantFrom(...values)
    .chain((value) =>
      fc.constantFrom(value.toLowerCase(), value.toUpperCase(), value.replace(/[ _-]/g, ""), ` ${value}`, `${value}s`),
    );
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
  const body = fc.record(model, {
    requiredKeys: fields.filter((field) => field.required).map((field) => field.name),
  }) as fc.Arbitrary<Record<string, unknown>>;
  return atLeastOne ? body.filter((value) => Object.keys(value).length > 0) : body;
}

/**
 * The random cases of one operation, valid and invalid in the shares given (equal by default): body fields from the
 * constraints the contract reads from the interface document, path parameters from their documented types. Invalid
 * cases break one documented rule each: a missing required field, another JSON type, a fraction for an integer, a value
 * outside a documented list, a state that is not 2 characters, a value 2.1 could not show as a numeric string, a
 * path parameter that is not an integer. An over-long string or an unknown field is never among them: the
 * document sets no length limit and does not forbid other fields.
 */
export function caseArbitrary(
  operation: InputOperation,
  target: FuzzTarget,
  share: CaseShare = { valid: 1, invalid: 1 },
): fc.Arbitrary<FuzzCase> | undefined {
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
      valid.push(
        (own ? fc.oneof(fc.constant(own), anyInteger.map(String)) : anyInteger.map(String)).map((value) => ({
          operation: id,
          params: { [parameter.name]: value },
        })),
      );
      invalid.push(
        notInteger(own).map((value) => ({
          operation: id,
          params: { [parameter.name]: value },
          broken: { rule: "path-not-integer", field: parameter.name, section },
        })),
      );
    } else {
      // A string-like identifier: any text but the dot segments, which a URL resolves away before sending.
      valid.push(
        text(1)
          .filter((value) => value !== "." && value !== "..")
          .map((value) => ({ operation: id, params: { [parameter.name]: value } })),
      );
    }
    return fc.oneof(...valid, ...invalid);
  }

  // A write aims at the run's own record only: a generated nid could name a real record of the account.
  if (integerParam && !target.nid) return undefined;
  const params = writeParams(operation, target);
  valid.push(validBody(fields, integerParam !== undefined).map((value) => ({ operation: id, params, body: value })));
  const body = smallBody(operation);
  for (const rule of bodyRules(operation)) {
    invalid.push(
      fc
        .tuple(
          body,
          fc.constantFrom(...rule.fields).chain((field) => rule.value(field).map((value) => [field, value] as const)),
        )
        .map(([base, [field, value]]) => brokenCase(operation, params, rule, field, base, value)),
    );
  }
  if (integerParam) {
    invalid.push(
      fc
        .tuple(
          fc.constantFrom(...fields).chain((field) => validValue(field).map((value) => ({ [field.name]: value }))),
          notInteger(target.nid),
        )
        .map(
          ([value, nid]): FuzzCase => ({
            operation: id,
            params: { [integerParam.name]: nid },
            body: value,
            broken: { rule: "path-not-integer", field: integerParam.name, section },
          }),
        ),
    );
  }
  if (share.invalid <= 0) return fc.oneof(...valid);
  return fc.oneof(
    { weight: share.valid, arbitrary: fc.oneof(...valid) },
    { weight: share.invalid, arbitrary: fc.oneof(...invalid) },
  );
}

/**
 * How a write's random cases divide between valid and invalid ones (weights, integers): equally, unless the
 * cases sent first (coverageCases) took part of either half, so that an operation's `n` cases stay about half
 * valid.
 */
export interface CaseShare {
  valid: number;
  invalid: number;
}

/**
 * One case for each documented rule on each field it applies to, sent before the random cases, so that what a
 * service does with each is judged on every seed, not only on the fields the random cases happen to pick (a sweep
 * of 100 seeds found one where no case put a number in a free-text field). The rules take turns, a field each, so
 * that with fewer cases than pairs every rule still comes early; the seed moves where each rule's fields begin, so
 * that a sweep of seeds reaches them all. A wrong type here is the other scalar type of a value the field takes (a
 * JSON number where the document gives a string, an integer's digits as a string where it gives an integer): the
 * likeliest slip of a client, and the one a lenient service takes.
 *
 * With them, the valid cases at the edges of the document's values (EDGES). At most `limits.invalid` invalid
 * and `limits.valid` valid cases (the phase gives each a share of an operation's budget). Values are drawn from
 * the seed.
 */
export function coverageCases(
  operation: InputOperation,
  target: FuzzTarget,
  seed: number,
  limits: { valid: number; invalid: number },
): { valid: FuzzCase[]; invalid: FuzzCase[] } {
  const integerParam = operation.parameters.find((parameter) => parameter.type === "integer");
  if (operation.method === "GET" || (operation.body ?? []).length === 0 || (integerParam && !target.nid))
    return { valid: [], invalid: [] };
  const params = writeParams(operation, target);
  const limit = limits.invalid;
  const queues = bodyRules(operation).map((rule) => {
    const start = Math.abs(seed) % rule.fields.length;
    return rule.fields.map((_, index) => ({ rule, field: rule.fields[(start + index) % rule.fields.length]! }));
  });
  const pairs: Array<{ rule: BodyRule; field: InputField }> = [];
  for (let turn = 0; pairs.length < limit && queues.some((queue) => turn < queue.length); turn += 1) {
    for (const queue of queues) if (turn < queue.length && pairs.length < limit) pairs.push(queue[turn]!);
  }
  const body = smallBody(operation);
  const invalid = pairs.map(({ rule, field }, index) => {
    const [base, value] = fc.sample(fc.tuple(body, rule.first?.(field) ?? rule.value(field)), {
      seed: (seed + Math.imul(index + 1, 0x9e3779b1)) | 0,
      numRuns: 1,
    })[0]!;
    return brokenCase(operation, params, rule, field, base, value);
  });
  return { valid: edgeCases(operation, params, seed, Math.max(limits.valid, 0)), invalid };
}

/**
 * The edges of the values the document allows, each a valid case of its own with every field of the body at that
 * edge: the low one (negative integers, the shortest text), the high one (the largest integer JSON carries
 * exactly, long text) and text beyond ASCII. A service that breaks on some valid value of a field shows it on every
 * seed, where a random case reaches a field's edge only now and then.
 */
const EDGES = ["low", "high", "beyond ASCII"] as const;
type Edge = (typeof EDGES)[number];

/** A valid value of a field at an edge (a field whose values are fixed or formatted takes any valid one). */
function edgeValue(field: InputField, edge: Edge): fc.Arbitrary<unknown> {
  const { kind } = field;
  const integer =
    edge === "low"
      ? fc.integer({ min: -100_000, max: -1 })
      : edge === "high"
        ? fc.constant(Number.MAX_SAFE_INTEGER)
        : fc.integer({ min: 0, max: 100 });
  switch (kind.type) {
    case "integer":
      return integer;
    case "numeric":
      return integer.map(String);
    case "id":
      return edge === "high"
        ? fc.constant(String(Number.MAX_SAFE_INTEGER))
        : edge === "low"
          ? fc.constant("0")
          : validValue(field);
    case "enum":
      return fc.constant(edge === "low" ? kind.values[0] : kind.values[kind.values.length - 1]);
    case "string": {
      if ((kind.minLength !== undefined && kind.minLength === kind.maxLength) || kind.pattern !== undefined)
        return validValue(field);
      const shortest = EMPTY_ALLOWED.has(field.name) ? 0 : 1;
      // Not blank: a reading may take a blank text for an empty one, which only premise may be (EMPTY_ALLOWED).
      if (edge === "low")
        return built(`low ${shortest}`, () =>
          fc
            .string({ unit: "grapheme-ascii", minLength: shortest, maxLength: shortest })
            .filter((value) => value === "" || /\S/.test(value)),
        );
      if (edge === "high")
        return built("high", () =>
          fc.string({ unit: "grapheme", minLength: 400, maxLength: 400 }).filter((value) => /\S/.test(value)),
        );
      return built("beyond ASCII", () =>
        fc
          .string({ unit: "grapheme", minLength: 1, maxLength: 24 })
          .filter((value) => /[^\u0000-\u007f]/.test(value) && /\S/.test(value)),
      );
    }
    case "url":
      return validValue(field);
  }
}

/** The valid cases at the edges of a write (see EDGES): every field of the body at the same edge. */
function edgeCases(operation: InputOperation, params: Record<string, string>, seed: number, limit: number): FuzzCase[] {
  const fields = operation.body ?? [];
  return EDGES.slice(0, limit).map((edge, index) => {
    const model = Object.fromEntries(fields.map((field) => [field.name, edgeValue(field, edge)]));
    const [body] = fc.sample(fc.record(model), { seed: (seed - Math.imul(index + 1, 0x85ebca6b)) | 0, numRuns: 1 });
    return { operation: operation.id, params, body: body as Record<string, unknown> };
  });
}

/** A field's value meaning "left out" (the rule broken is a missing required field). */
const ABSENT = Symbol("absent");

/** One documented rule an invalid case breaks in a body: the fields it applies to and a value that breaks it. */
interface BodyRule {
  rule: BrokenRule;
  section: string;
  fields: InputField[];
  value: (field: InputField) => fc.Arbitrary<unknown>;
  /** The value the field's first case gives it (coverageCases), where it is not any value of `value`. */
  first?: (field: InputField) => fc.Arbitrary<unknown> | undefined;
}

/**
 * The rules a body's invalid cases break, one at a time, each with the fields it applies to (rules that apply to
 * none are left out). On create the documented lists are the body's own; on edit, the values 2.1 shows (the
 * template names of 2.4), and a state's length and a numeric string are 2.1's rules.
 */
function bodyRules(operation: InputOperation): BodyRule[] {
  const fields = operation.body ?? [];
  const section = operation.section;
  const isEdit = operation.parameters.some((parameter) => parameter.type === "integer");
  const listedValues = (field: InputField): string[] | undefined =>
    isEdit
      ? field.shownAs?.type === "enum"
        ? field.shownAs.values
        : undefined
      : field.kind.type === "enum"
        ? field.kind.values
        : undefined;
  const rules: BodyRule[] = [
    {
      rule: "missing-required",
      section,
      fields: fields.filter((field) => field.required),
      value: () => fc.constant(ABSENT),
    },
    { rule: "wrong-type", section, fields, value: wrongType, first: otherScalar },
    {
      rule: "fraction",
      section,
      fields: fields.filter((field) => kindsOf(field).some((kind) => kind.type === "integer")),
      value: () => fraction,
    },
    {
      rule: "outside-enum",
      section: isEdit ? "2.1" : section,
      fields: fields.filter((field) => listedValues(field) !== undefined),
      value: (field) => outside(listedValues(field)!),
    },
    {
      rule: "length",
      section: isEdit ? "2.1" : section,
      fields: fields.filter(
        (field) =>
          field.kind.type === "string" &&
          field.kind.minLength !== undefined &&
          field.kind.minLength > 1 &&
          field.kind.minLength === field.kind.maxLength,
      ),
      value: (field) => {
        const size = (field.kind as { minLength: number }).minLength;
        return fc.oneof(letters(UPPER, 0, size - 1), letters(UPPER, size + 1, size + 6));
      },
    },
    // A value a retrieve could not show as the numeric string 2.1 gives the field: text where a number is documented.
    {
      rule: "not-numeric",
      section: "2.1",
      fields: fields.filter(
        (field) =>
          kindsOf(field).some((kind) => kind.type === "numeric" || kind.type === "id") &&
          field.shownAs?.type === "numeric",
      ),
      value: () => letters(NOT_NUMERIC, 1, 8),
    },
  ];
  return rules.filter((rule) => rule.fields.length > 0);
}

/** The other scalar type of a value a field takes, where the document gives the field one JSON type only. */
function otherScalar(field: InputField): fc.Arbitrary<unknown> | undefined {
  const types = new Set(kindsOf(field).map(jsonType));
  if (types.size !== 1) return undefined;
  const number = fc.integer({ min: 1, max: 99_999 });
  return types.has("string") ? number : number.map(String);
}

/**
 * The body an invalid case breaks one rule on, otherwise as small as it can be (the required fields, or none on
 * an edit): a service that refuses some valid value the document leaves open (a negative count, a long text) must
 * not hide whether it refuses the broken rule.
 */
function smallBody(operation: InputOperation): fc.Arbitrary<Record<string, unknown>> {
  const required = (operation.body ?? []).filter((field) => field.required);
  return required.length > 0 ? validBody(required, false) : fc.constant({});
}

/** The path of a write: the run's own record, for an operation that names one. */
function writeParams(operation: InputOperation, target: FuzzTarget): Record<string, string> {
  const integerParam = operation.parameters.find((parameter) => parameter.type === "integer");
  return integerParam && target.nid ? { [integerParam.name]: target.nid } : {};
}

function brokenCase(
  operation: InputOperation,
  params: Record<string, string>,
  rule: BodyRule,
  field: InputField,
  base: Record<string, unknown>,
  value: unknown,
): FuzzCase {
  const body = { ...base };
  if (value === ABSENT) delete body[field.name];
  else body[field.name] = value;
  return {
    operation: operation.id,
    params,
    body,
    broken: { rule: rule.rule, field: field.name, section: rule.section },
  };
}
