/** Plain-text tables for the terminal and for bench/README.md (Markdown pipes, aligned). */

/** Formats a figure: null as "–", numbers as given (already rounded), ratios with a trailing "×". */
export function fmt(value, suffix = "") {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  return `${typeof value === "number" ? value.toLocaleString("en-US", { maximumFractionDigits: 3 }) : value}${suffix}`;
}

/** A Markdown table with padded columns (numbers right-aligned). */
export function table(headers, rows) {
  const cells = rows.map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i].length)));
  const numeric = headers.map((_, i) => cells.every((row) => /^[-–\d.,×%+ ]*(ms|MB|KB|B|×)?$/.test(row[i])));
  const pad = (text, i) => (numeric[i] ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const line = (row) => `| ${row.map(pad).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${"-".repeat(w + 1)}:` : `${"-".repeat(w + 2)}`)).join("|")}|`;
  return [line(headers), rule, ...cells.map(line)].join("\n");
}
