/**
 * A value now, or a promise of it: what a step of the request path gives when only some calls wait (a body to
 * read, a delay, a write to put on disk) and the rest, most GETs, are answered from memory.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next` of a value, at once when it is one, else once its promise settles (and `failed` of the reason when it
 * rejects). The one place the request path tells the two apart: a call answered synchronously stays synchronous,
 * since every promise and turn of the microtask queue on a GET's way cost a share of its CPU. An exception
 * `next` throws on the synchronous path is the caller's to catch, as it would be without this.
 *
 * `context` is handed to `next` and `failed` as their second argument, so that a caller on every request's path
 * passes module-level functions and makes no closure per call (a function made per request showed in the CPU
 * per GET). Not named `then`: a module exporting `then` is a thenable to a dynamic `import()`, which would call it.
 */
export function andThen<T, U, C = undefined>(
  value: MaybePromise<T>,
  next: (value: T, context: C) => MaybePromise<U>,
  failed?: (reason: unknown, context: C) => MaybePromise<U>,
  context?: C,
): MaybePromise<U> {
  if (!(value instanceof Promise)) return next(value, context as C);
  return value.then(
    (settled) => next(settled, context as C),
    failed && ((reason: unknown) => failed(reason, context as C)),
  );
}
