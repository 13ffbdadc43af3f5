/** Start-up part: a process that only imports june/chat (and prints one byte when done). */
await import("june/chat");
process.stdout.write(".");
