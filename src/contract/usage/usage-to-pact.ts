import type { Contract } from "../build-contract.ts";
import { expectedBody, type PactExpectation, type PactRuleSet } from "./pact-matching-rules.ts";
import { interactionNeeds, type PactProviderState, type ProviderStateGenerator } from "./pact-provider-states.ts";
import { demoCredentialsOf } from "./provider-state-names.ts";
import type { Basis, UsageDocument, UsageInteraction } from "./usage-document.ts";

/** The provider every pact of this kit is with. */
export const PACT_PROVIDER = "Property Listing Service";

/** A body of a Pact v4 HTTP request or response. */
interface PactBody {
  content: unknown;
  contentType: string;
  encoded: false;
}

/** One "Synchronous/HTTP" interaction of a Pact v4 file. */
export interface PactInteraction {
  type: "Synchronous/HTTP";
  description: string;
  pending: false;
  /** Pact v4 comments: the consumer's test, and what the answer rests on where the document is silent. */
  comments: { testname: string; text?: string[] };
  providerStates?: PactProviderState[];
  request: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    body?: PactBody;
    generators?: { path?: ProviderStateGenerator; body?: Record<string, ProviderStateGenerator> };
  };
  response: {
    status: number;
    headers?: Record<string, string[]>;
    body?: PactBody;
    matchingRules?: { body?: PactRuleSet; header?: PactRuleSet };
  };
}

/** A Pact specification v4 file. */
export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: {
    pactSpecification: { version: "4.0" };
    /**
     * Where the pact came from; `truncated` when the recording stopped at a bound, so the pact misses calls the client
     * made.
     */
    "property-listing-kit": {
      usageVersion: number;
      contract: UsageDocument["contract"];
      truncated?: UsageDocument["truncated"];
    };
  };
}

/**
 * A usage as a Pact v4 file: every interaction of every test stands alone ("<test> › <step> <operation>"), with
 * the provider states that make what it needs (pact-provider-states.ts) and the ids those answer injected into
 * its path and body; its answer is matched by type, and by regex where the contract fixes a pattern, never by
 * value. The credentials are the mock's demo ones of the same role: a usage holds none, and a provider team
 * replaces them with its own in the verifier (docs/pact.md).
 */
export function usageToPact(usage: UsageDocument, contract: Contract): PactFile {
  const interactions: PactInteraction[] = [];
  const descriptions = new Set<string>();
  for (const test of usage.tests) {
    test.interactions.forEach((interaction, index) => {
      let description = `${test.name} › ${index + 1} ${interaction.operation}`;
      for (let copy = 2; descriptions.has(description); copy += 1)
        description = `${test.name} (${copy}) › ${index + 1} ${interaction.operation}`;
      descriptions.add(description);
      const operation = contract.operation(interaction.operation);
      const needs = interactionNeeds(test, index, operation?.pathTemplate ?? interaction.request.path);
      const schemaPointer =
        operation?.responses
          .get(String(interaction.response.status))
          ?.schemaPointers.get(interaction.response.mediaType ?? "") ??
        operation?.responses
          .get(`${String(interaction.response.status)[0]}XX`)
          ?.schemaPointers.get(interaction.response.mediaType ?? "") ??
        operation?.responses.get("default")?.schemaPointers.get(interaction.response.mediaType ?? "");
      const pact: PactInteraction = {
        type: "Synchronous/HTTP",
        description,
        pending: false,
        comments: { testname: test.name, ...restsOn(interaction) },
        ...(needs.states.length > 0 ? { providerStates: needs.states } : {}),
        request: pactRequest(interaction),
        response: pactResponse(interaction, expectedBody(contract.document, schemaPointer, interaction.response.body)),
      };
      const generators: NonNullable<PactInteraction["request"]["generators"]> = {};
      if (needs.pathExpression !== undefined)
        generators.path = { type: "ProviderState", expression: needs.pathExpression, dataType: "STRING" };
      if (Object.keys(needs.bodyGenerators).length > 0) generators.body = needs.bodyGenerators;
      if (Object.keys(generators).length > 0) pact.request.generators = generators;
      interactions.push(pact);
    });
  }
  return {
    consumer: { name: usage.consumer },
    provider: { name: PACT_PROVIDER },
    interactions,
    metadata: {
      pactSpecification: { version: "4.0" },
      "property-listing-kit": {
        usageVersion: usage.usageVersion,
        contract: usage.contract,
        ...(usage.truncated ? { truncated: usage.truncated } : {}),
      },
    },
  };
}

/**
 * The request as the client sent it, with the demo credentials of its account's role (or none, or wrong ones, as it
 * sent).
 */
function pactRequest(interaction: UsageInteraction): PactInteraction["request"] {
  const { request } = interaction;
  const headers: Record<string, string[]> = {};
  if (request.account !== null) {
    const credentials = demoCredentialsOf(request.account);
    headers["API-KEY"] = [credentials.apiKey];
    headers.TOKEN = [credentials.token];
  } else if (request.credentials === "wrong") {
    headers["API-KEY"] = ["not-a-key"];
    headers.TOKEN = ["not-a-token"];
  }
  const contentType = request.headers["content-type"];
  if (contentType !== undefined) headers["Content-Type"] = [contentType];
  // Pact keeps the query apart from the path.
  const [path, search] = splitQuery(request.path);
  const query: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) (query[name] ??= []).push(value);
  return {
    method: request.method.toUpperCase(),
    path,
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(request.body === undefined
      ? {}
      : { body: { content: request.body, contentType: "application/json", encoded: false as const } }),
  };
}

/** The answer the client got: its status exactly, its media type by regex, its body by type and pattern. */
function pactResponse(interaction: UsageInteraction, expected: PactExpectation): PactInteraction["response"] {
  const { response } = interaction;
  const mediaType = response.mediaType;
  const hasBody = response.body !== undefined && response.body !== null && mediaType !== null && /json/.test(mediaType);
  return {
    status: response.status,
    ...(mediaType !== null ? { headers: { "Content-Type": [mediaType] } } : {}),
    ...(hasBody ? { body: { content: expected.content, contentType: mediaType, encoded: false as const } } : {}),
    matchingRules: {
      ...(hasBody ? { body: expected.rules } : {}),
      ...(mediaType !== null
        ? {
            header: {
              "Content-Type": {
                combine: "AND",
                matchers: [{ match: "regex", regex: `^${escapeRegex(mediaType)}(\\s*;.*)?$` }],
              },
            },
          }
        : {}),
    },
  };
}

/**
 * The assumptions (docs/assumptions.md) and profile points the answer rests on, one line each, for a person reading the
 * pact.
 */
function restsOn(interaction: UsageInteraction): { text?: string[] } {
  const lines = new Set<string>();
  const parts: Array<[string, Basis]> = [
    ["status", interaction.basis.status],
    ["media type", interaction.basis.mediaType],
    ...Object.entries(interaction.basis.fields).map(([pointer, basis]): [string, Basis] => [
      `body ${pointer || "(whole)"}`,
      basis,
    ]),
  ];
  for (const [part, basis] of parts) {
    if (basis.tier === "assumption")
      lines.add(`${part} rests on an assumption: ${basis.ids.join(", ")} (docs/assumptions.md)`);
    if (basis.tier === "profile") lines.add(`${part} comes from a service profile: ${basis.point}`);
  }
  return lines.size > 0 ? { text: [...lines] } : {};
}

function splitQuery(path: string): [string, string] {
  const at = path.indexOf("?");
  return at < 0 ? [path, ""] : [path.slice(0, at), path.slice(at + 1)];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
