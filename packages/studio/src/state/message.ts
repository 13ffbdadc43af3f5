/** What an error says, for the pane's banner. */
export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
