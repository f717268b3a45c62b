import { builtInSpec } from "../../contract/built-in-spec.ts";
import { importAjvParts } from "./import-ajv.ts";
import {
  checkServiceProfile,
  compileBodySchemaWith,
  PROFILE_AJV_OPTIONS,
  type ProfileTools,
} from "../../contract/profile/check-service-profile.ts";
import type { ServiceProfile } from "../../contract/profile/service-profile.ts";
import { SERVICE_PROFILE_SCHEMA_JSON } from "../../generated/service-profile-schema.ts";
import { ProfileRefused } from "../../mock/profile-refused.ts";
import { createProfilePlayback } from "../../mock/profile-playback.ts";
import type { LoadedPlayback } from "./create-mock-handlers.ts";

/**
 * Reads a service profile (`property-listing-contract --write-profile` recorded it) for `createMockHandlers`'s
 * `playback` option: checked all or nothing as the server checks `--profile`, a {@link ProfileRefused} naming
 * every problem otherwise. A profile's error bodies are held to the shapes it recorded, which takes a schema
 * compiler (AJV): it is imported here, when a profile is first read, so the module stays small without one.
 *
 * @example
 * const playback = await loadProfilePlayback(await (await fetch("/service-profile.json")).json());
 * const mock = createMockHandlers({ playback });
 */
export async function loadProfilePlayback(
  profile: ServiceProfile | string,
  source = "(given as an object)",
): Promise<LoadedPlayback> {
  const tools = await profileTools();
  const read = checkServiceProfile(profile, builtInSpec().document, tools);
  const named = typeof profile === "string" ? "(given as JSON text)" : source;
  if (!read.ok) throw new ProfileRefused(named, read.problems);
  return {
    playback: createProfilePlayback(read.profile, (schema) => compileBodySchemaWith(tools, schema)),
    about: { source: named, runId: read.profile.runId, recordedAt: read.profile.recordedAt },
  };
}

let loading: Promise<ProfileTools> | undefined;

/** AJV and ajv-formats (import-ajv.ts), and the profile schema's validator, made ready once on first use. */
function profileTools(): Promise<ProfileTools> {
  loading ??= importAjvParts().then(({ Ajv2020, addFormats }) => {
    const newAjv = () => {
      const ajv = new Ajv2020(PROFILE_AJV_OPTIONS);
      addFormats(ajv);
      return ajv;
    };
    // Compiled once, here rather than at build time: the generated validator would add to the browser module.
    const validator = newAjv().compile(JSON.parse(SERVICE_PROFILE_SCHEMA_JSON) as object);
    return { newAjv, profileValidator: () => validator };
  });
  return loading;
}
