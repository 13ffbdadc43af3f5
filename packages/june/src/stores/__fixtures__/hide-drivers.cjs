// Preloaded with --require: makes the database drivers look uninstalled, as in a project that never added them.
const Module = require("node:module");
const hidden = new Set(["better-sqlite3", "pg"]);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.has(request)) {
    const error = new Error(`Cannot find module '${request}'`);
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolve.call(this, request, ...rest);
};
