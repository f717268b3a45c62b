/**
 * An object's members that may be undefined, made optional and never undefined: what `exactOptionalPropertyTypes`
 * asks of an options object, where `{ name: undefined }` is not `{}`.
 */
export type DefinedOnly<T> = { [Key in keyof T as undefined extends T[Key] ? never : Key]: T[Key] } & {
  [Key in keyof T as undefined extends T[Key] ? Key : never]?: Exclude<T[Key], undefined>;
};

/**
 * The object without its undefined members, so that options are passed on in one literal instead of a
 * conditional spread per option (`...(x !== undefined ? { x } : {})`). Members that are `null`, `false`, `0` or
 * `""` are kept: only undefined means "not given".
 */
export function definedOnly<T extends object>(object: T): DefinedOnly<T> {
  const defined: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) defined[key] = value;
  return defined as DefinedOnly<T>;
}
