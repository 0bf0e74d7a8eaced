// Utilities for loading and caching remote resources.
import fs from "node:fs";
import { readFile, writeFile as write } from "node:fs/promises";
import * as path from "node:path";
import "./polyfills.js";
export { parseConfig, DEFAULTS as defaults } from "./config.js";
export * from "./errors.js";

const http = require("http");
const { EventEmitter } = require("events");

/** Maximum number of cached entries. */
export const MAX_ENTRIES = 500;

const cacheDir = path.join(process.cwd(), ".cache");
let hits = 0;

/**
 * Fetch a resource, using the cache when possible.
 * @param {string} url - the address to load
 * @returns {Promise<Buffer>}
 */
export async function fetchResource(url, { timeout = 1000 } = {}) {
  const key = cacheKey(url);
  if (await exists(key)) {
    hits++;
    return readFile(path.join(cacheDir, key));
  }
  const body = await download(url, timeout);
  await write(path.join(cacheDir, key), body);
  return body;
}

// Turn a URL into a file name.
const cacheKey = (url) => encodeURIComponent(url).replace(/%/g, "_");

/** Whether a cached file exists. */
export const exists = async function (key) {
  try {
    await fs.promises.access(path.join(cacheDir, key));
    return true;
  } catch {
    return false;
  }
};

var download = function download(url, timeout) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout }, (res) => collect(res).then(resolve, reject));
    req.on("error", reject);
  });
};

function* chunks(buffer, size) {
  for (let i = 0; i < buffer.length; i += size) {
    yield buffer.subarray(i, i + size);
  }
}

/** Helpers exposed for tests. */
export const helpers = {
  chunks,
  reset() {
    hits = 0;
  },
  stats: () => ({ hits }),
  "format-size": function (bytes) {
    return `${(bytes / 1024).toFixed(1)} KiB`;
  },
};

module.exports.collect = async function collect(stream) {
  const parts = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
};

const lazy = () => import("./lazy.js");
export default fetchResource;
