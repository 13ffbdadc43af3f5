import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { SessionNotFoundError } from "../stores/errors.js";
import type { ChatStore } from "../stores/types.js";
import type { StoreConformanceCase } from "./store-conformance.js";

type Def = (name: string, body: (store: ChatStore) => Promise<void>) => StoreConformanceCase;
type KeepsFiles = ChatStore & Required<Pick<ChatStore, "putFile" | "getFile">>;

/** The turn file cases, for stores that keep files (`putFile` and `getFile`). */
export function fileCases(def: Def): StoreConformanceCase[] {
  const keeps = (store: ChatStore): store is KeepsFiles => {
    const count = [store.putFile, store.getFile].filter((m) => typeof m === "function").length;
    assert.ok(count === 0 || count === 2, "a store that keeps files has both file methods");
    return count === 2;
  };
  // Every byte value, so a store that keeps bytes as text would change some.
  const bytes = new Uint8Array(512).map((_, i) => (i * 7 + 3) & 0xff);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return [
    def("files: put by content, read back byte for byte, one copy per content, per session", async (store) => {
      if (!keeps(store)) return;
      const id = `conf-${randomUUID()}`;
      const other = `conf-${randomUUID()}`;
      await store.createSession({ id });
      await store.createSession({ id: other });
      assert.equal(await store.getFile(id, sha256), undefined);
      const ref = await store.putFile(id, { bytes, mediaType: "image/png", filename: "a.png" });
      assert.deepEqual(ref, { id: sha256, mediaType: "image/png", filename: "a.png", size: bytes.byteLength, sha256 });
      const read = await store.getFile(id, sha256);
      assert.ok(read, "getFile finds the file put");
      assert.deepEqual(Buffer.from(read.bytes), Buffer.from(bytes));
      assert.equal(read.ref.id, sha256);
      assert.equal(read.ref.mediaType, "image/png");
      assert.equal(read.ref.size, bytes.byteLength);
      // The same bytes again (another name): the same id, still one file.
      const again = await store.putFile(id, { bytes: new Uint8Array(bytes), mediaType: "image/png", filename: "b.png" });
      assert.equal(again.id, sha256);
      assert.equal(again.filename, "b.png");
      assert.deepEqual(Buffer.from((await store.getFile(id, sha256))!.bytes), Buffer.from(bytes));
      // Another session does not see it; an id that is not a SHA-256 finds nothing.
      assert.equal(await store.getFile(other, sha256), undefined);
      assert.equal(await store.getFile(id, "../x"), undefined);
      await assert.rejects(store.putFile(id, { bytes: "nope" as never, mediaType: "image/png" }), TypeError);
    }),

    def("files: putFile of an unknown session is SessionNotFoundError; deleting the session deletes its files", async (store) => {
      if (!keeps(store)) return;
      const missing = `conf-${randomUUID()}`;
      await assert.rejects(store.putFile(missing, { bytes, mediaType: "image/png" }), (error: unknown) => SessionNotFoundError.isInstance(error));
      const id = `conf-${randomUUID()}`;
      await store.createSession({ id });
      await store.putFile(id, { bytes, mediaType: "image/png" });
      assert.equal(await store.deleteSession(id), true);
      assert.equal(await store.getFile(id, sha256), undefined);
      // A new session of the same id starts with no file.
      await store.createSession({ id });
      assert.equal(await store.getFile(id, sha256), undefined);
      await store.deleteSession(id);
    }),
  ];
}
