/** A percent-decoded path segment, or undefined when its escapes are not valid UTF-8 (a path no route has). */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
