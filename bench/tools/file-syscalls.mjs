#!/usr/bin/env node
/**
 * What fileStore's system calls cost on this machine, apart from June (no store, no model):
 *   node bench/tools/file-syscalls.mjs [files=50]
 * 1. One flush of a 700-byte append: `fdatasyncSync` on the calling thread, `FileHandle.datasync` and the
 *    callback `fdatasync` (both through the thread pool).
 * 2. `files` files each appended to, then flushed one after another or all at once through the thread pool
 *    (run it with UV_THREADPOOL_SIZE=16 to see more flushes in flight): what the kernel and the device group.
 * 3. A turn's lease as fileStore takes it (template `fstat` and `pwrite`, `link`; at the end `stat`, `unlink`) and
 *    as a lease kept between turns would (`pwrite` and `stat` at each end), in a directory of 200 journals.
 */
import { closeSync, fdatasync, fdatasyncSync, fstatSync, linkSync, mkdtempSync, openSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const files = Number(process.argv[2] ?? 50);
const dir = mkdtempSync(join(tmpdir(), "june-syscalls-"));
process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
const line = `${"x".repeat(699)}\n`;
const callbackSync = (fd) => new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
const fmt = (us) => `${us.toFixed(1)} µs`.padStart(10);

async function perCall(name, n, call) {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await call(i);
  const used = process.cpuUsage(cpu);
  console.log(`${name.padEnd(46)} ${fmt((used.user + used.system) / n)} CPU ${fmt(((performance.now() - t0) * 1000) / n)} wall`);
}

console.log(`1. one flush of a 700-byte append (2,000 each)`);
{
  const fh = await open(join(dir, "one"), "a");
  for (let k = 0; k < 2; k++) {
    await perCall("write only", 2000, () => void writeSync(fh.fd, line));
    await perCall("write + fdatasyncSync", 2000, () => {
      writeSync(fh.fd, line);
      fdatasyncSync(fh.fd);
    });
    await perCall("write + FileHandle.datasync (thread pool)", 2000, async () => {
      writeSync(fh.fd, line);
      await fh.datasync();
    });
    await perCall("write + fdatasync callback (thread pool)", 2000, () => {
      writeSync(fh.fd, line);
      return callbackSync(fh.fd);
    });
  }
  await fh.close();
}

console.log(`\n2. ${files} files appended to, then flushed (20 rounds; per file; UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? "4"})`);
{
  const fds = Array.from({ length: files }, (_, i) => openSync(join(dir, `f${i}`), "a"));
  const rounds = 20;
  for (const [name, flush] of [
    ["one after another (fdatasyncSync)", async () => fds.forEach((fd) => fdatasyncSync(fd))],
    ["all at once (thread pool)", () => Promise.all(fds.map(callbackSync))],
  ]) {
    for (let k = 0; k < 2; k++) {
      let wall = 0;
      let cpuUs = 0;
      for (let r = 0; r < rounds; r++) {
        for (const fd of fds) writeSync(fd, line);
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        await flush();
        wall += performance.now() - t0;
        const used = process.cpuUsage(cpu);
        cpuUs += used.user + used.system;
      }
      console.log(`${name.padEnd(46)} ${fmt(cpuUs / rounds / files)} CPU ${fmt((wall * 1000) / rounds / files)} wall`);
    }
  }
  fds.forEach(closeSync);
}

console.log(`\n3. a turn's lease, in a directory of 200 journals (50,000 each)`);
{
  for (let i = 0; i < 200; i++) writeFileSync(join(dir, `s${i}.jsonl`), "{}\n");
  const template = join(dir, ".lease-0-0-0");
  const fd = openSync(template, "w+");
  const lock = join(dir, "s7.lock");
  const owner = JSON.stringify({ pid: process.pid, host: "host", token: `${"a".repeat(36)}.1`, acquiredAt: new Date().toISOString(), expiresAt: new Date().toISOString(), instance: "a".repeat(36) });
  for (let k = 0; k < 2; k++) {
    await perCall("now: fstat, pwrite, link | stat, unlink", 50_000, () => {
      fstatSync(fd);
      writeSync(fd, owner, 0);
      linkSync(template, lock);
      statSync(lock);
      unlinkSync(lock);
    });
    linkSync(template, lock);
    await perCall("kept between turns: pwrite, stat | pwrite, stat", 50_000, () => {
      writeSync(fd, owner, 0);
      statSync(lock);
      writeSync(fd, owner, 0);
      statSync(lock);
    });
    unlinkSync(lock);
  }
  closeSync(fd);
}
process.exit(0);
