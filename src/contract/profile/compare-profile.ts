import { isDeepStrictEqual } from "node:util";
import { compileBodySchema } from "./read-service-profile.ts";
import {
  ERROR_POINTS,
  POINT_KEYS,
  type ErrorObservation,
  type Provenance,
  type ServiceProfile,
} from "./service-profile.ts";
import type { ProfileObserver } from "./profile-observer.ts";

/** How one point of a profile compares with what a run saw. */
export interface PointComparison {
  point: string;
  status: "passed" | "failed" | "skipped";
  /** The step of this run that saw the point (its first answer there). */
  step: string;
  message: string;
  expected?: string;
  actual?: string;
}

/**
 * Media types compared without regard to case or spaces: `application/json;charset=UTF-8` is
 * `application/json; charset=utf-8`.
 */
const sameMedia = (a: string, b: string) => a.replace(/\s+/g, "").toLowerCase() === b.replace(/\s+/g, "").toLowerCase();

/**
 * Holds what a run saw against a profile, point by point: every difference is a failure that names the
 * observation it contradicts and when and by which step it was recorded. A point of the profile the run did
 * not reach is skipped; a point the run saw that the profile lacks is not compared.
 */
export function compareWithProfile(profile: ServiceProfile, observer: ProfileObserver): PointComparison[] {
  const seen = observer.observations as Record<string, unknown>;
  const recorded = profile.observations as Record<string, unknown>;
  const results: PointComparison[] = [];
  for (const point of POINT_KEYS) {
    const was = recorded[point] as (Provenance & Record<string, unknown>) | undefined;
    if (!was) continue;
    // A resource seen without any undocumented field is seen: every field the profile recorded is gone.
    const reached = point.startsWith("extra_fields.") ? observer.stepReaching(point) : undefined;
    const now = (seen[point] ?? (reached !== undefined ? { step: reached, fields: {} } : undefined)) as
      | (Provenance & Record<string, unknown>)
      | undefined;
    const when = `recorded by "${was.step}" at ${was.observedAt} in run ${was.runId}`;
    if (!now) {
      results.push({
        point,
        status: "skipped",
        step: `profile: ${point}`,
        message: `this run did not reach ${point} (${when})`,
      });
      continue;
    }
    const differences =
      point in ERROR_POINTS
        ? errorDifferences(
            was as unknown as ErrorObservation,
            now as unknown as ErrorObservation,
            observer.bodiesAt(point),
          )
        : valueDifferences(point, was, now);
    results.push({
      point,
      status: differences.length === 0 ? "passed" : "failed",
      step: now.step,
      message: differences.length === 0 ? "" : `${point} differs from the profile (${when}): ${differences.join("; ")}`,
    });
  }
  return results;
}

function errorDifferences(was: ErrorObservation, now: ErrorObservation, bodies: readonly unknown[]): string[] {
  const differences: string[] = [];
  const statuses = now.statuses.filter((status) => !was.statuses.includes(status));
  if (statuses.length > 0)
    differences.push(`answered ${statuses.join(", ")}, the profile recorded ${was.statuses.join(", ")}`);
  const media = now.mediaTypes.filter((type) => !was.mediaTypes.some((recorded) => sameMedia(recorded, type)));
  if (media.length > 0)
    differences.push(
      `answered as ${media.map((type) => JSON.stringify(type)).join(", ")}, ` +
        `the profile recorded ${was.mediaTypes.map((type) => JSON.stringify(type)).join(", ")}`,
    );
  const validate = compileBodySchema(was.schema);
  for (const body of bodies) {
    if (validate(body)) continue;
    const error = validate.errors?.[0];
    const where = error?.instancePath || "the body";
    const extra = (error?.params as { missingProperty?: string } | undefined)?.missingProperty;
    const what = extra !== undefined ? `lacks ${extra}` : (error?.message ?? "differs");
    differences.push(
      `a body does not have the recorded shape: ${where} ${what} ` +
        `(got ${JSON.stringify(body).slice(0, 160)}, recorded ${JSON.stringify(was.example).slice(0, 160)})`,
    );
    break;
  }
  return differences;
}

function valueDifferences(point: string, was: Record<string, unknown>, now: Record<string, unknown>): string[] {
  if (point === "media_type.success") {
    const recorded = was.value as string[];
    const other = (now.value as string[]).filter((type) => !recorded.some((known) => sameMedia(known, type)));
    return other.length === 0
      ? []
      : [
          `answered as ${other.map((type) => JSON.stringify(type)).join(", ")}, ` +
            `the profile recorded ${recorded.map((type) => JSON.stringify(type)).join(", ")}`,
        ];
  }
  if ("value" in was)
    return isDeepStrictEqual(was.value, now.value)
      ? []
      : [`${JSON.stringify(now.value)}, the profile recorded ${JSON.stringify(was.value)}`];
  const recorded = (was.fields ?? {}) as Record<string, unknown>;
  const fields = (now.fields ?? {}) as Record<string, unknown>;
  const differences: string[] = [];
  for (const [field, value] of Object.entries(recorded)) {
    if (!(field in fields)) differences.push(`${field} is gone (recorded ${JSON.stringify(value)})`);
    else if (!sameField(fields[field], value))
      differences.push(`${field} is ${JSON.stringify(shown(fields[field]))}, recorded ${JSON.stringify(shown(value))}`);
  }
  for (const [field, value] of Object.entries(fields))
    if (!(field in recorded)) differences.push(`${field} is new (${JSON.stringify(shown(value))})`);
  return differences;
}

/**
 * An extra field compares by its types (those seen now among those recorded); a never-set field by its
 * representation.
 */
function sameField(now: unknown, recorded: unknown): boolean {
  const types = (value: unknown) => (value as { types?: string[] } | null)?.types;
  const recordedTypes = types(recorded);
  if (recordedTypes) return (types(now) ?? []).every((type) => recordedTypes.includes(type));
  return isDeepStrictEqual(now, recorded);
}

/** What a message shows of a field: an extra field's types, a never-set field's representation. */
function shown(value: unknown): unknown {
  return (value as { types?: string[] } | null)?.types ?? value;
}
