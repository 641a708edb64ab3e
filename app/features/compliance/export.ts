// An item's trail as CSV (one line per audit row, oldest first) and its audit
// package: a zip of the item, its reviews, its trail and every evidence file,
// with a manifest naming each file's SHA-256 so an auditor can check nothing
// was changed. Pure (no I/O): the routes read, these build.
import { zipSync, strToU8, type Zippable } from 'fflate';
import { csvField } from '~/lib/csv';
import { sha256Hex } from '~/lib/file-names';
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

/** A name inside the zip: no folders, no dots leading, no control characters. */
export function zipName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').replace(/^\.+/, '_').slice(0, 120);
  return cleaned || 'file';
}

export interface PackageEvidence {
  id: string;
  title: string;
  version: number;
  file_name: string;
  sha256: string;
  bytes: Uint8Array | null;
}

/** Where an evidence file sits in the zip. */
export const evidencePath = (e: { title: string; version: number; file_name: string }) => `evidence/${zipName(`${e.title}-v${e.version}-${e.file_name}`)}`;

/**
 * The zip: item.json, reviews.json, trail.csv, evidence/<title>-v<version>-<name>,
 * and manifest.json listing every other file with its size and SHA-256 (and the
 * hash the database recorded for each evidence file when it was added).
 */
export function auditPackage(input: {
  item: Record<string, unknown>;
  reviews: readonly Record<string, unknown>[];
  trail: readonly HistoryEntry[];
  evidence: readonly PackageEvidence[];
  generatedAt: string;
}): Promise<Uint8Array> {
  return packagePart({ head: input, evidence: input.evidence, generatedAt: input.generatedAt });
}

/**
 * One zip of a package the jobs runner builds in parts (each under Storage's
 * upload limit): the first part holds item.json, reviews.json and trail.csv;
 * every part holds its share of the evidence and a manifest of its own files,
 * naming the part ("1 of 3"), so each part can be checked on its own.
 */
export async function packagePart(input: {
  head?: { item: Record<string, unknown>; reviews: readonly Record<string, unknown>[]; trail: readonly HistoryEntry[] };
  evidence: readonly PackageEvidence[];
  generatedAt: string;
  part?: { number: number; of: number };
}): Promise<Uint8Array> {
  const files: PackageFile[] = input.head
    ? [
        { path: 'item.json', bytes: strToU8(JSON.stringify(input.head.item, null, 2)) },
        { path: 'reviews.json', bytes: strToU8(JSON.stringify(input.head.reviews, null, 2)) },
        { path: 'trail.csv', bytes: strToU8(trailCsv(input.head.trail)) },
      ]
    : [];
  const missing: string[] = [];
  const recorded = new Map<string, string>();
  const evidenceFiles = new Set<string>();
  for (const e of input.evidence) {
    if (!e.bytes) {
      missing.push(`${e.title} v${e.version}`);
      continue;
    }
    files.push({ path: evidencePath(e), bytes: e.bytes });
    recorded.set(evidencePath(e), e.sha256);
    evidenceFiles.add(evidencePath(e));
  }
  const manifest = {
    generated_at: input.generatedAt,
    ...(input.part ? { part: input.part.number, parts: input.part.of } : {}),
    algorithm: 'SHA-256',
    files: await Promise.all(
      files.map(async (f) => ({ path: f.path, size: f.bytes.length, sha256: await sha256Hex(f.bytes), recorded_sha256: recorded.get(f.path) ?? null })),
    ),
    missing_evidence: missing,
  };
  // Evidence is stored as it is (PDFs and images are compressed already; it saves the runner's time).
  const entries: Zippable = {};
  for (const f of files) entries[f.path] = evidenceFiles.has(f.path) ? [f.bytes, { level: 0 }] : f.bytes;
  entries['manifest.json'] = strToU8(JSON.stringify(manifest, null, 2));
  return zipSync(entries, { level: 6, mtime: new Date(input.generatedAt) });
}
