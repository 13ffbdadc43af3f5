export function misbehavingServer(options: { mode: string; bytes?: number; secret?: string }): { respond(message: unknown): string[] };
