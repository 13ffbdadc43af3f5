import { join } from "node:path";
import { createChat, fileStore } from "june/chat";
import { scriptedModel } from "june/testing";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { WAIT, screenshotPath, studioE2e } from "./__fixtures__/studio-page.js";

/**
 * June Studio attaching files: by its button (a file chooser), by pasting and by dropping them on the composer;
 * images show as thumbnails and other files as chips, in the composer and under the message; the model gets
 * every file; a reload shows them again, from the session's file route. The real Studio app built with Vite,
 * served by `serveStudio` over a real chat (a fileStore), in headless Chromium.
 */
/** A 2x1 PNG (its decoded width shows the browser got these bytes). */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAD0lEQVR4nGP4z8DAwPAfAAcAAf9+CLHQAAAAAElFTkSuQmCC", "base64");
const PDF = Buffer.from("%PDF-1.4\n% a brief\n");

const e2e = studioE2e("june-studio-files-");

/** Pastes (`paste` on the message box) or drops (`drop` on the composer) a file, as the browser would. */
async function transfer(page: Page, how: "paste" | "drop", file: { name: string; type: string; base64: string }): Promise<void> {
  await page.evaluate(({ how, file }) => {
    const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], file.name, { type: file.type }));
    if (how === "paste") {
      document.querySelector("textarea.composer__input")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    } else {
      const composer = document.querySelector("form.composer")!;
      composer.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      composer.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  }, { how, file });
}

describe("June Studio: files in a turn", () => {
  it("attaches by button, paste and drop; shows thumbnails and chips; the model gets the files; a reload shows them again", async () => {
    const model = scriptedModel([{ text: ["Two ", "pictures ", "and ", "a brief."], delay: 20 }]);
    const chat = createChat({ model, store: fileStore(join(e2e.tmp, "store")) });
    const studio = await e2e.serve({ chat });
    const { page, pageErrors } = await e2e.newPage({ width: 1180, height: 860 });
    try {
      await page.goto(studio.url);
      await expect.poll(() => page.locator(".sidebar").isVisible(), WAIT).toBe(true);

      // The button opens the file chooser.
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Attach files" }).click();
      await (await chooser).setFiles({ name: "pixel.png", mimeType: "image/png", buffer: PNG });
      await transfer(page, "paste", { name: "shot.png", type: "image/png", base64: PNG.toString("base64") });
      await transfer(page, "drop", { name: "brief.pdf", type: "application/pdf", base64: PDF.toString("base64") });
      const composer = page.getByRole("form", { name: "Composer" });
      await expect.poll(() => composer.locator(".attachment").count(), WAIT).toBe(3);
      expect(await composer.locator("img.attachment__thumb").count()).toBe(2);
      expect(await composer.locator(".attachment--file .attachment__name").textContent()).toBe("brief.pdf");
      // One removed, and attached again.
      await composer.getByRole("button", { name: "Remove shot.png" }).click();
      await expect.poll(() => composer.locator(".attachment").count(), WAIT).toBe(2);
      await transfer(page, "paste", { name: "shot.png", type: "image/png", base64: PNG.toString("base64") });
      await expect.poll(() => composer.locator(".attachment").count(), WAIT).toBe(3);
      await page.locator(".composer").screenshot({ path: await screenshotPath("studio-files-composer.png") });

      await page.getByLabel("Message", { exact: true }).fill("What are these?");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator(".turn .reply").last().textContent(), WAIT).toBe("Two pictures and a brief.");
      expect(await composer.locator(".attachment").count()).toBe(0);

      // The model got the three files, byte for byte, with the text.
      const content = model.doStreamCalls[0]!.prompt.at(-1)!.content as { type: string; data?: unknown; mediaType?: string; filename?: string; text?: string }[];
      const files = content.filter((part) => part.type === "file");
      expect(files.map((part) => [part.mediaType, part.filename])).toEqual([
        ["image/png", "pixel.png"],
        ["application/pdf", "brief.pdf"],
        ["image/png", "shot.png"],
      ]);
      expect(Buffer.from(files[1]!.data as Uint8Array).equals(PDF)).toBe(true);
      expect(content.some((part) => part.type === "text" && part.text === "What are these?")).toBe(true);

      // Under the message: two thumbnails and a chip, and so again after a reload, from the session's route.
      const turn = page.locator(".turn").last();
      const check = async () => {
        await expect.poll(() => turn.locator(".turn__files .attachment").count(), WAIT).toBe(3);
        expect(await turn.locator(".turn__files .attachment--file").textContent()).toContain("brief.pdf");
        const thumbs = turn.locator(".turn__files img.attachment__thumb");
        expect(await thumbs.count()).toBe(2);
        await expect.poll(() => thumbs.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), WAIT).toBe(2);
        return thumbs.first().getAttribute("src");
      };
      await check();
      await page.reload();
      const src = await check();
      const sessionId = decodeURIComponent(new URL(page.url()).hash.slice("#session=".length));
      const [record] = await (await chat.openSession(sessionId)).turns();
      expect(src).toBe(`/api/sessions/${encodeURIComponent(sessionId)}/files/${record!.files![0]!.id}`);
      await turn.screenshot({ path: await screenshotPath("studio-files-turn.png") });
      expect(pageErrors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
