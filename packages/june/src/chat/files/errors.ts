import { JuneError } from "../../errors/june-error.js";

/** Why a turn's file was refused: each has its HTTP status (`FileRejectedError.status`). */
export type FileRejection = "too-large" | "too-many" | "type-not-allowed" | "malformed" | "url";

const STATUS: Record<FileRejection, 400 | 413 | 415> = {
  "too-large": 413,
  "too-many": 413,
  "type-not-allowed": 415,
  malformed: 400,
  url: 400,
};

/**
 * A file of a turn's input the chat refuses (`session.send({ text, files })`): over `files.maxBytes`, one file
 * too many, a media type the chat does not take, data that is not what it says (bad base64 or `data:` URL,
 * bytes that are not the declared image or PDF), or a remote URL. Thrown by `send` before anything is stored or
 * any turn starts. `status` is what the server answers: 413, 415 or 400.
 */
export class FileRejectedError extends JuneError {
  static override readonly marker: symbol = Symbol.for("june.FileRejectedError");
  override readonly name = "FileRejectedError";
  readonly reason: FileRejection;
  /** The refused file's name, when it has one. */
  readonly filename?: string;
  /** The refused file's position in `files`, from 0 (-1 for `too-many`: the list itself). */
  readonly index: number;
  readonly status: 400 | 413 | 415;
  constructor(reason: FileRejection, index: number, filename: string | undefined, detail: string) {
    const which = index < 0 ? "files" : filename !== undefined ? `file "${filename}" (files[${index}])` : `files[${index}]`;
    super(`${which}: ${detail}`);
    this.reason = reason;
    this.index = index;
    if (filename !== undefined) this.filename = filename;
    this.status = STATUS[reason];
  }
}
