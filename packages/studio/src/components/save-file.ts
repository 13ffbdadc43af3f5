import type { CasesFile } from "../api/types";

/**
 * Saves a file the page fetched: a Blob URL behind a temporary `<a download>`, clicked once. (A plain link
 * to the API cannot carry Studio's token header, so the file is fetched first.)
 */
export function saveFile({ blob, filename }: CasesFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoking at once can cut the download off in some browsers: give it time to start.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
