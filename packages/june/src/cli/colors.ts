/** ANSI styles, or identity functions when colors are off. */
export interface Colors {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const style = (enabled: boolean, open: number, close: number) => (text: string) =>
  enabled && text.length > 0 ? `\u001B[${open}m${text}\u001B[${close}m` : text;

/** Colors for one output stream; see `colorEnabled` for when they are on. */
export function createColors(enabled: boolean): Colors {
  return {
    enabled,
    bold: style(enabled, 1, 22),
    dim: style(enabled, 2, 22),
    red: style(enabled, 31, 39),
    green: style(enabled, 32, 39),
    yellow: style(enabled, 33, 39),
    cyan: style(enabled, 36, 39),
  };
}

const ANSI = /\u001B\[[0-9;?]*[A-Za-z]/g;

/** Removes ANSI escape sequences (citty's help text colors itself). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}
