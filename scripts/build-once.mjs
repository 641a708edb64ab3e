// `npm start` builds the Worker only when its sources changed since the last
// build: the build records a hash of everything that goes into it, and a
// restart on an unchanged checkout starts in seconds instead of rebuilding.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const BUILD_INPUTS = ['app', 'workers', 'public', 'package-lock.json', 'react-router.config.ts', 'vite.config.ts', 'wrangler.toml', 'tsconfig.json', 'tsconfig.cloudflare.json'];
const STAMP = 'build/.source-hash';
// Written by the build itself (scripts/ocr-assets.ts copies tesseract.js's files from
// node_modules, which package-lock.json already stands for): hashing it would
// make every first build look stale at the next start.
const BUILD_OUTPUTS = new Set([join('public', 'ocr')]);

/** @param {string} path @param {import('node:crypto').Hash} hash */
function hashInto(path, hash) {
  if (!existsSync(path) || BUILD_OUTPUTS.has(path)) return;
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) hashInto(join(path, entry), hash);
    return;
  }
  hash.update(`${path}\0`);
  hash.update(readFileSync(path));
}

export function sourceHash() {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) hashInto(input, hash);
  return hash.digest('hex');
}

/** Builds unless build/ was made from these very sources; false when the build failed. @param {NodeJS.ProcessEnv} env */
export async function ensureBuild(env) {
  const hash = sourceHash();
  const built = existsSync(STAMP) && existsSync('build/server/wrangler.json') ? readFileSync(STAMP, 'utf8').trim() : '';
  if (built === hash) {
    console.log('build/ is up to date with the sources: not rebuilding');
    return true;
  }
  const build = spawn('npx', ['react-router', 'build'], { stdio: 'inherit', env });
  const code = await new Promise((resolve) => build.on('exit', resolve));
  if (code !== 0) return false;
  writeFileSync(STAMP, `${hash}\n`);
  return true;
}
