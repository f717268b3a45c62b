/** A text for a message, at most `max` characters: cut with an ellipsis when longer. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
