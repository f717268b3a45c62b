/** Formatting of the bench's figures and tables. */

/** Columns padded to their widest cell; `align` has one letter per column, l or r. */
export function table(header: string[], rows: string[][], align: string): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    "  " +
    cells
      .map((cell, column) => (align[column] === "r" ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd();
  return [line(header), `  ${widths.map((width) => "-".repeat(width)).join("  ")}`, ...rows.map(line)];
}

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function count(value: number): string {
  return grouped.format(value);
}

/** A rate: whole numbers, with one decimal below 100 so that a slow operation still shows its figure. */
export function perSecond(value: number): string {
  return value >= 100 ? grouped.format(value) : value.toFixed(1);
}

export function ms(value: number): string {
  const abs = Math.abs(value);
  return `${abs >= 100 ? grouped.format(value) : value.toFixed(abs >= 10 ? 1 : 2)} ms`;
}

export function seconds(valueMs: number): string {
  return `${(valueMs / 1000).toFixed(2)} s`;
}

/** What a figure the clock could not measure prints as, in place of a 0 or an Infinity. */
export const UNMEASURED = "too small to measure";

export function micros(value: number | null): string {
  if (value === null) return UNMEASURED;
  return `${value >= 100 ? grouped.format(value) : value.toFixed(1)} µs`;
}

export function bytes(value: number): string {
  if (value >= 1024 * 1024) return `${(value / 1024 / 1024).toFixed(1)} MiB`;
  if (value >= 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${Math.round(value)} B`;
}

export function ratio(value: number): string {
  return `${value.toFixed(2)}×`;
}

/** `a / b` as a ratio, or "n/a" when either was too small to measure. */
export function ratioOf(a: number | null, b: number | null): string {
  return a === null || b === null || b === 0 ? "n/a" : ratio(a / b);
}

export function percent(value: number): string {
  return `${value.toFixed(1)} %`;
}

export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
