import type { Contract } from "../../contract/build-contract.ts";
import type { Basis, UsageBasis } from "../../contract/usage/usage-document.ts";
import { RESOURCE_OF_ANSWER } from "../../contract/profile/service-profile.ts";
import { escapeToken, resolvePointer } from "../../spec/json-pointer.ts";
import { listAssumptions } from "../../spec/list-assumptions.ts";
import type { OperationId } from "../../contract/operation-id.ts";

/**
 * At most this many fields of one answer are listed; a field past it rests on what its nearest listed parent rests
 * on.
 */
export const MAX_FIELDS_PER_ANSWER = 2_000;

/** What the recorder knows of an answer besides its body: how a service profile shaped it, if one did. */
export interface AnswerShape {
  operationId: OperationId;
  status: number;
  mediaType: string | null;
  /** The profile's error point that shaped this answer (`error.seats`). */
  errorPoint?: string;
  /** The success media type came from the profile (`media_type.success`). */
  profiledMedia?: boolean;
}

/**
 * What a played-back profile changes in a success's fields: its undocumented fields, and the agent fields it shows
 * null.
 */
export interface ProfiledFields {
  /** Whether a profile is played back at all. */
  playing: boolean;
  /** Agent fields the profile says come back null or empty (`unset.agent`). */
  agentUnset: ReadonlySet<string>;
  /** Property fields the profile says come back null or empty when never set (`unset.property`). */
  propertyUnset?: ReadonlySet<string>;
}

/** The basis of answers: of one answer (its status, media type and every field), and whether a shape has one. */
export interface AnswerBasis {
  of(shape: AnswerShape, body: unknown): UsageBasis | undefined;
  /**
   * Whether the contract (or the profile) gives answers of this shape a basis; a status it has no place for has none.
   */
  known(shape: AnswerShape): boolean;
}

const FACT: Basis = Object.freeze({ tier: "fact" });

/** What one schema node says, once resolved: the marker ids on it, and where its children's schemas are. */
interface SchemaNode {
  ids: readonly string[];
  /** Nodes that apply whatever the value (`$ref`, `allOf`). */
  always: readonly string[];
  /** Branches of `anyOf`/`oneOf`: those that admit the value's JSON type apply. */
  branches: readonly string[];
  types: readonly string[] | undefined;
  maxItems: number | undefined;
  properties: ReadonlyMap<string, string>;
  additional: string | undefined;
  items: string | undefined;
}

/**
 * Builds what an answer rests on, from the spec: a documented 200 answer and its fields are facts unless a
 * schema node (or the response) carries `x-assumption`; an error answer rests on the assumptions of its response
 * (`components/responses/...`, a 401 also on the operation's `x-security-assumption`, a 400 on its request
 * body's), its fields on those and their schema's. Ids are the assumptions' stable names (`seat-limit-status`,
 * the spec's `x-assumption-id`). With a service profile, what the profile supplied rests on its point. The status
 * and media type of each (operation, status, media type) are worked out once; a body's fields are walked with
 * schema nodes read once each.
 */
export function createAnswerBasis(contract: Contract, profiled: ProfiledFields): AnswerBasis {
  const document = contract.document as unknown as Record<string, unknown>;
  const markers = new Map<string, { plain?: string; security?: string }>();
  for (const { id, marker, pointer } of listAssumptions(contract.document)) {
    const entry = markers.get(pointer) ?? {};
    if (marker === "x-assumption") entry.plain = id;
    else entry.security = id;
    markers.set(pointer, entry);
  }
  const nodes = new Map<string, SchemaNode>();
  const nodeAt = (pointer: string): SchemaNode => {
    let node = nodes.get(pointer);
    if (node) return node;
    const schema = (resolvePointer(document, pointer) ?? {}) as Record<string, unknown>;
    const always: string[] = [];
    if (typeof schema.$ref === "string" && schema.$ref.startsWith("#")) always.push(schema.$ref.slice(1));
    const list = (key: string) =>
      Array.isArray(schema[key]) ? (schema[key] as unknown[]).map((_, at) => `${pointer}/${key}/${at}`) : [];
    always.push(...list("allOf"));
    const properties = new Map<string, string>();
    if (schema.properties && typeof schema.properties === "object") {
      for (const name of Object.keys(schema.properties))
        properties.set(name, `${pointer}/properties/${escapeToken(name)}`);
    }
    const type = schema.type;
    node = {
      ids: markers.get(pointer)?.plain ? [markers.get(pointer)!.plain!] : [],
      always,
      branches: [...list("anyOf"), ...list("oneOf")],
      types:
        typeof type === "string"
          ? [type]
          : Array.isArray(type)
            ? (type as string[])
            : schema.const === null
              ? ["null"]
              : undefined,
      maxItems: typeof schema.maxItems === "number" ? schema.maxItems : undefined,
      properties,
      additional:
        schema.additionalProperties && typeof schema.additionalProperties === "object"
          ? `${pointer}/additionalProperties`
          : undefined,
      items: schema.items && typeof schema.items === "object" ? `${pointer}/items` : undefined,
    };
    nodes.set(pointer, node);
    return node;
  };
  /** Whether a schema (with what it always applies) admits a value's JSON type. */
  const admits = (pointer: string, value: unknown, depth = 0): boolean => {
    const node = nodeAt(pointer);
    if (node.types && !node.types.some((type) => typeMatches(type, value))) return false;
    if (node.maxItems !== undefined && Array.isArray(value) && value.length > node.maxItems) return false;
    if (depth > 8) return true;
    if (!node.always.every((inner) => admits(inner, value, depth + 1))) return false;
    return node.branches.length === 0 || node.branches.some((branch) => admits(branch, value, depth + 1));
  };
  /**
   * Every schema node that applies to a value, from the ones given: through `$ref`, `allOf`, and the branches that
   * admit it.
   */
  const applying = (start: readonly string[], value: unknown): string[] => {
    const found: string[] = [];
    const seen = new Set<string>();
    const visit = (pointer: string) => {
      if (seen.has(pointer) || seen.size > 64) return;
      seen.add(pointer);
      found.push(pointer);
      const node = nodeAt(pointer);
      for (const inner of node.always) visit(inner);
      for (const branch of node.branches) if (admits(branch, value)) visit(branch);
    };
    for (const pointer of start) visit(pointer);
    return found;
  };

  /** The ids of marked objects along a chain of `$ref`s (a response object and the component it points to). */
  const markedAlong = (
    pointer: string,
  ): { pointers: string[]; target: Record<string, unknown> | undefined; at: string } => {
    const pointers: string[] = [];
    let at = pointer;
    for (let hop = 0; hop < 8; hop += 1) {
      if (markers.get(at)?.plain) pointers.push(at);
      const node = resolvePointer(document, at) as Record<string, unknown> | undefined;
      if (!node || typeof node.$ref !== "string") return { pointers, target: node, at };
      at = node.$ref.replace(/^#/, "");
    }
    return { pointers, target: undefined, at };
  };

  /**
   * What a field of one type, reached through these schema nodes under these inherited markers, rests on; and the
   * steps of its members and items, made once and kept: a body's walk is then a lookup per field.
   */
  const makeStep = (
    schemas: readonly string[],
    value: unknown,
    ids: readonly string[],
    pointers: readonly string[],
  ): Step => {
    const nodesHere = applying(schemas, value);
    let ownIds = ids;
    let ownPointers = pointers;
    for (const at of nodesHere) {
      const id = markers.get(at)?.plain;
      if (id && !ownIds.includes(id)) {
        ownIds = [...ownIds, id];
        ownPointers = [...ownPointers, at];
      }
    }
    const children = new Map<string, Step | null>();
    const items = new Map<string, Step>();
    return {
      basis: assumption(ownPointers, idOf, ownIds),
      child(name, child) {
        const key = `${typeTag(child)}${name}`;
        let step = children.get(key);
        if (step === undefined) {
          const childSchemas: string[] = [];
          for (const at of nodesHere) {
            const node = nodeAt(at);
            const named = node.properties.get(name);
            if (named) childSchemas.push(named);
            else if (node.additional) childSchemas.push(node.additional);
          }
          step = childSchemas.length === 0 ? null : makeStep(childSchemas, child, ownIds, ownPointers);
          // Keys of a map (the agent list's nids) are many: only the named members' steps are kept apart.
          if (children.size < 256) children.set(key, step);
        }
        return step ?? undefined;
      },
      item(item) {
        const tag = typeTag(item);
        let step = items.get(tag);
        if (!step)
          items.set(
            tag,
            (step = makeStep(
              nodesHere.map((at) => nodeAt(at).items).filter((at): at is string => at !== undefined),
              item,
              ownIds,
              ownPointers,
            )),
          );
        return step;
      },
    };
  };

  interface ShapeBasis {
    status: Basis;
    mediaType: Basis;
    /** The ids and pointers every field inherits (an error's response). */
    inherited: readonly string[];
    inheritedPointers: readonly string[];
    schema: string | undefined;
    /** The step of the body's root, for a value of its type. */
    root(value: unknown): Step;
  }
  const shapes = new Map<string, ShapeBasis | null>();
  const shapeOf = (shape: AnswerShape): ShapeBasis | null => {
    const key = `${shape.operationId} ${shape.status} ${shape.mediaType}`;
    let found = shapes.get(key);
    if (found !== undefined) return found;
    found = readShape(shape);
    shapes.set(key, found);
    return found;
  };
  const idOf = (pointer: string) => markers.get(pointer)?.plain ?? markers.get(pointer)?.security;
  const readShape = (shape: AnswerShape): ShapeBasis | null => {
    const operation = contract.operation(shape.operationId);
    if (!operation) return null;
    const operationPointer = `/paths/${escapeToken(operation.pathTemplate)}/${operation.method.toLowerCase()}`;
    const status = String(shape.status);
    let responsePointer = `${operationPointer}/responses/${status}`;
    if (!operation.responses.has(status)) {
      // A status the operation does not list (a body refused before the operation is known to take one): the
      // component response of that status, when there is one.
      const responses = ((document.components as Record<string, unknown> | undefined)?.responses ?? {}) as Record<
        string,
        Record<string, unknown>
      >;
      const component = Object.entries(responses).find(([, response]) => statusOfComponent(response) === shape.status);
      if (!component) return null;
      responsePointer = `/components/responses/${escapeToken(component[0])}`;
    }
    const { pointers: responseMarks, target, at: responseAt } = markedAlong(responsePointer);
    const media = shape.mediaType ?? "";
    const content = (target?.content ?? {}) as Record<string, unknown>;
    const schemaHome = media in content ? `${responseAt}/content/${escapeToken(media)}/schema` : undefined;
    const schema = schemaHome;
    const statusMarks = [...responseMarks];
    if (shape.status === 401 && markers.get(operationPointer)?.security) statusMarks.push(operationPointer);
    if (shape.status === 400 && markers.get(`${operationPointer}/requestBody`)?.plain)
      statusMarks.push(`${operationPointer}/requestBody`);
    const statusBasis = assumption(statusMarks, idOf);
    const rootMarks = schema
      ? applying([schema], undefined).filter((pointer) => markers.get(pointer)?.plain && shape.status !== 200)
      : [];
    const inherited = statusMarks.map(idOf).filter((id): id is string => id !== undefined);
    const roots = new Map<string, Step>();
    return {
      status: statusBasis,
      mediaType: shape.status === 200 ? FACT : assumption([...statusMarks, ...rootMarks], idOf),
      inherited,
      inheritedPointers: statusMarks,
      schema,
      root(value) {
        const tag = typeTag(value);
        let step = roots.get(tag);
        if (!step) roots.set(tag, (step = makeStep(schema ? [schema] : [], value, inherited, statusMarks)));
        return step;
      },
    };
  };

  const of = (shape: AnswerShape, body: unknown): UsageBasis | undefined => {
    if (shape.errorPoint) {
      const point: Basis = { tier: "profile", point: shape.errorPoint };
      const fields: Record<string, Basis> = {};
      listFields(body, "", (pointer) => (fields[pointer] = point));
      return { status: point, mediaType: point, fields };
    }
    const found = shapeOf(shape);
    if (!found) return undefined;
    const fields: Record<string, Basis> = {};
    let count = 0;
    const resource = RESOURCE_OF_ANSWER[shape.operationId];
    const extraPoint = (depth: number): string | undefined => {
      if (!profiled.playing) return undefined;
      if (shape.operationId === "listUserProperties")
        return depth === 1 ? "extra_fields.property_list_item" : undefined;
      if (shape.operationId === "listAgentCards") return depth === 1 ? "extra_fields.agent_list_entry" : undefined;
      if (shape.operationId === "retrieveTemplateCatalogue")
        return depth === 0 ? "extra_fields.template_catalogue" : depth === 2 ? "extra_fields.template" : undefined;
      return depth === 0 && resource ? `extra_fields.${resource}` : undefined;
    };
    const walk = (value: unknown, step: Step, pointer: string, depth: number, key: string | undefined): void => {
      if (count >= MAX_FIELDS_PER_ANSWER || depth > 32) return;
      if (pointer !== "" || value === null || typeof value !== "object" || Array.isArray(value)) {
        count += 1;
        fields[pointer] =
          profiled.playing &&
          value === null &&
          depth === 1 &&
          shape.operationId === "retrieveAgentCard" &&
          key !== undefined &&
          profiled.agentUnset.has(key)
            ? { tier: "profile", point: "unset.agent" }
            : profiled.playing &&
                value === null &&
                depth === 1 &&
                (shape.operationId === "retrieveProperty" || shape.operationId === "retrievePropertyByExternalId") &&
                key !== undefined &&
                profiled.propertyUnset?.has(key)
              ? { tier: "profile", point: "unset.property" }
              : step.basis;
      }
      if (value === null || typeof value !== "object") return;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index += 1)
          walk(value[index], step.item(value[index]), `${pointer}/${index}`, depth + 1, undefined);
        return;
      }
      for (const name in value) {
        const child = (value as Record<string, unknown>)[name];
        const next = step.child(name, child);
        if (next === undefined) {
          const extra = extraPoint(depth);
          const point: Basis = extra ? { tier: "profile", point: extra } : step.basis;
          listFields(child, `${pointer}/${escapeToken(name)}`, (at) => {
            if (count++ < MAX_FIELDS_PER_ANSWER) fields[at] = point;
          });
          continue;
        }
        walk(child, next, `${pointer}/${escapeToken(name)}`, depth + 1, name);
      }
    };
    walk(body, found.root(body), "", 0, undefined);
    return {
      status: found.status,
      mediaType: shape.profiledMedia ? { tier: "profile", point: "media_type.success" } : found.mediaType,
      fields,
    };
  };
  return { of, known: (shape) => shape.errorPoint !== undefined || shapeOf(shape) !== null };
}

/** A field's place in the schema, with what it rests on and the places of its members and items. */
interface Step {
  basis: Basis;
  /** The step of a member (undefined: the schema has no place for it). */
  child(name: string, value: unknown): Step | undefined;
  item(value: unknown): Step;
}

/**
 * A value's JSON type as the schema's branches tell them apart (an empty array apart: a branch may allow only that).
 */
function typeTag(value: unknown): string {
  if (value === null) return "n";
  if (Array.isArray(value)) return value.length === 0 ? "e" : "a";
  switch (typeof value) {
    case "object":
      return "o";
    case "string":
      return "s";
    case "boolean":
      return "b";
    case "number":
      return Number.isInteger(value) ? "i" : "f";
    default:
      return "u";
  }
}

/** A basis from marked places: a fact when there are none. */
function assumption(
  pointers: readonly string[],
  idOf: (pointer: string) => string | undefined,
  ids?: readonly string[],
): Basis {
  const found = ids ?? pointers.map(idOf).filter((id): id is string => id !== undefined);
  if (found.length === 0) return FACT;
  return { tier: "assumption", ids: [...new Set(found)].slice(0, 50), pointers: [...new Set(pointers)].slice(0, 50) };
}

/**
 * Every field of a body, by pointer (the root only when it is not an object), at most {@link MAX_FIELDS_PER_ANSWER}.
 */
function listFields(value: unknown, pointer: string, add: (pointer: string) => void, depth = 0): void {
  if (depth > 32) return;
  if (pointer !== "" || value === null || typeof value !== "object" || Array.isArray(value)) add(pointer);
  if (value === null || typeof value !== "object") return;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [name, child] of entries) listFields(child, `${pointer}/${escapeToken(name)}`, add, depth + 1);
}

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    default:
      return typeof value === type;
  }
}

/** The status a component response's example problem gives, if any. */
function statusOfComponent(response: Record<string, unknown>): number | undefined {
  for (const media of Object.values((response.content ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const example of Object.values((media.examples ?? {}) as Record<string, { value?: { status?: unknown } }>)) {
      if (typeof example.value?.status === "number") return example.value.status;
    }
  }
  return undefined;
}
