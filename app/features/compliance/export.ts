// An item's trail as CSV (one line per audit row, oldest first) and its audit
// package: a zip of the item, its reviews, its trail and every evidence file,
// with a manifest naming each file's SHA-256 so an auditor can check nothing
// was changed. Pure (no I/O): the routes read, these build.
import { zipSync, strToU8 } from 'fflate';
import { csvField } from '~/lib/csv';
import type { HistoryEntry } from '~/lib/record-history';

export const TRAIL_CSV_COLUMNS = ['at', 'action', 'actor', 'actor_email', 'old_values', 'new_values'] as const;

export function trailCsv(entries: readonly HistoryEntry[]): string {
  const rows = [...entries]
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((e) => [e.at, e.action, e.actor, e.actorEmail, e.oldValues, e.newValues].map(csvField).join(','));
  return [TRAIL_CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

export interface PackageFile {
  path: string;
  bytes: Uint8Array;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A name inside the zip: no folders, no dots leading, no control characters. */
export function zipName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').replace(/^\.+/, '_').slice(0, 120);
  return cleaned || 'file';
}

/**
 * The zip: item.json, reviews.json, trail.csv, evidence/<version>-<name>, and
 * manifest.json listing every other file with its size and SHA-256 (and the
 * hash the database recorded for each evidence file when it was added).
 */
export async function auditPackage(input: {
  item: Record<string, unknown>;
  reviews: readonly Record<string, unknown>[];
  trail: readonly HistoryEntry[];
  evidence: readonly { id: string; title: string; version: number; file_name: string; sha256: string; bytes: Uint8Array | null }[];
  generatedAt: string;
}): Promise<Uint8Array> {
  const files: PackageFile[] = [
    { path: 'item.json', bytes: strToU8(JSON.stringify(input.item, null, 2)) },
    { path: 'reviews.json', bytes: strToU8(JSON.stringify(input.reviews, null, 2)) },
    { path: 'trail.csv', bytes: strToU8(trailCsv(input.trail)) },
  ];
  const missing: string[] = [];
  for (const e of input.evidence) {
    if (!e.bytes) {
      missing.push(`${e.title} v${e.version}`);
      continue;
    }
    files.push({ path: `evidence/${zipName(`${e.title}-v${e.version}-${e.file_name}`)}`, bytes: e.bytes });
  }
  const recorded = new Map(input.evidence.map((e) => [`evidence/${zipName(`${e.title}-v${e.version}-${e.file_name}`)}`, e.sha256]));
  const manifest = {
    generated_at: input.generatedAt,
    algorithm: 'SHA-256',
    files: await Promise.all(
      files.map(async (f) => ({ path: f.path, size: f.bytes.length, sha256: await sha256Hex(f.bytes), recorded_sha256: recorded.get(f.path) ?? null })),
    ),
    missing_evidence: missing,
  };
  const entries: Record<string, Uint8Array> = {};
  for (const f of files) entries[f.path] = f.bytes;
  entries['manifest.json'] = strToU8(JSON.stringify(manifest, null, 2));
  return zipSync(entries, { level: 6, mtime: new Date(input.generatedAt) });
}
