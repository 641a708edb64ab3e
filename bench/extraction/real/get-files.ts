// Rebuilds bench/extraction/real/files/ from the sources the three corpus files
// cite, so a fresh machine can run the real-document bench without anyone's
// copy of the documents (they are other people's files and are not committed).
//
//   node bench/extraction/real/get-files.ts [--mirrors DIR] [--out DIR] [names…]
//
// A git source is read at its cited commit with `git show`. Its repository
// comes from DIR/<owner>+<name>/repo or DIR/<owner>+<name> when --mirrors is
// given (a machine's mirror of GitHub), else from a blob-less clone of
// https://github.com/<owner>/<name> kept under real/.repos/. A document that
// is not the cited file's bytes (a print, a page image, a file in a Debian
// package) is rebuilt by the steps its entry's `source.note` describes:
// Chromium, poppler's pdfdetach/pdfimages and apt-get must be installed for
// those. Every file is checked against its cited SHA-256; a print by another
// Chromium than the one cited may differ in bytes and is kept, and reported.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Source {
  repository: string;
  commit: string;
  path: string;
  note?: string;
}
interface Entry {
  source: Source;
  sha256: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const CORPORA = ['corpus.json', 'heldout.json', 'heldout2.json'];

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
}
const mirrors = option('--mirrors');
const out = option('--out') ?? join(HERE, 'files');
const wanted = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));

function run(command: string, args: string[], cwd?: string): Buffer {
  return execFileSync(command, args, { cwd, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

const gitDirs = new Map<string, string>();
function gitDir(repository: string): string {
  const known = gitDirs.get(repository);
  if (known) return known;
  const slug = repository.replace('/', '+');
  let dir: string | undefined;
  if (mirrors) dir = [join(mirrors, slug, 'repo'), join(mirrors, slug)].find((d) => existsSync(d));
  if (!dir) {
    dir = join(HERE, '.repos', slug);
    if (!existsSync(dir)) run('git', ['clone', '--quiet', '--bare', '--filter=blob:none', `https://github.com/${repository}`, dir]);
  }
  gitDirs.set(repository, dir);
  return dir;
}

function gitFile(source: Source): Buffer {
  return run('git', ['--git-dir', gitDir(source.repository), 'show', `${source.commit}:${source.path}`]);
}

const CHROMIUM = ['--headless=new', '--no-sandbox', '--host-resolver-rules=MAP * ~NOTFOUND', '--no-pdf-header-footer'];

// The cited HTML printed by Chromium, network off (decision 093).
function printedHtml(source: Source, work: string): Buffer {
  writeFileSync(join(work, 'page.html'), gitFile(source));
  run('chromium', [...CHROMIUM, `--print-to-pdf=${join(work, 'page.pdf')}`, `file://${join(work, 'page.html')}`]);
  return readFileSync(join(work, 'page.pdf'));
}

// A FatturaPA XML rendered by the stylesheet its note names (render-fatturapa.sh).
function renderedFatturaPA(source: Source, work: string): Buffer {
  const stylesheet = source.note?.match(/l10n_it_fatturapa\/data\/[\w.]+\.xsl/)?.[0];
  if (!stylesheet) throw new Error('the note names no stylesheet');
  const pdf = join(work, 'out.pdf');
  run('sh', [join(HERE, 'render-fatturapa.sh'), gitDir(source.repository), source.commit, source.path, stylesheet, pdf]);
  return readFileSync(pdf);
}

// The page image of a scanned attachment: `pdfdetach -saveall`, then `pdfimages -png`.
function attachedScan(source: Source, work: string): Buffer {
  const attachment = source.note?.match(/attachment (\S+\.pdf)/)?.[1];
  if (!attachment) throw new Error('the note names no attachment');
  writeFileSync(join(work, 'invoice.pdf'), gitFile(source));
  run('pdfdetach', ['-saveall', '-o', work, join(work, 'invoice.pdf')]);
  run('pdfimages', ['-png', join(work, attachment), join(work, 'scan')]);
  // The first image is the page; a soft mask, where there is one, comes after it.
  return readFileSync(join(work, 'scan-000.png'));
}

// One page's embedded image, as the note's pdfimages command writes it.
function pageImage(source: Source, work: string): Buffer {
  const command = source.note?.match(/pdfimages (-j|-png) -f (\d+) -l \d+/);
  if (!command) throw new Error('the note gives no pdfimages command');
  writeFileSync(join(work, 'doc.pdf'), gitFile(source));
  run('pdfimages', [command[1], '-f', command[2], '-l', command[2], join(work, 'doc.pdf'), join(work, 'page')]);
  return readFileSync(join(work, readdirSync(work).find((f) => f.startsWith('page-000'))!));
}

// A file inside a Debian package: `apt-get download`, then `dpkg-deb --fsys-tarfile`.
const packages = new Map<string, string>();
function debianFile(source: Source, work: string): Buffer {
  const name = source.commit.match(/Debian package ([\w.-]+) ([\w.:~+-]+)/);
  if (!name) throw new Error('the source names no Debian package');
  let deb = packages.get(name[1]);
  if (!deb) {
    const cache = join(HERE, '.repos', 'debian');
    mkdirSync(cache, { recursive: true });
    deb = readdirSync(cache).find((f) => f.startsWith(`${name[1]}_`));
    if (!deb) run('apt-get', ['download', name[1]], cache);
    deb = join(cache, readdirSync(cache).find((f) => f.startsWith(`${name[1]}_`))!);
    packages.set(name[1], deb);
  }
  const tar = join(work, 'data.tar');
  writeFileSync(tar, run('dpkg-deb', ['--fsys-tarfile', deb]));
  run('tar', ['-xf', tar, '-C', work, `./${source.path}`]);
  return readFileSync(join(work, source.path));
}

function build(source: Source, work: string): Buffer {
  const note = source.note ?? '';
  if (/Debian/.test(source.commit)) return debianFile(source, work);
  if (/printed to PDF from the cited HTML/.test(note)) return printedHtml(source, work);
  if (/render-fatturapa\.sh/.test(note)) return renderedFatturaPA(source, work);
  if (/pdfdetach/.test(note)) return attachedScan(source, work);
  if (/pdfimages/.test(note)) return pageImage(source, work);
  return gitFile(source);
}

mkdirSync(out, { recursive: true });
let built = 0;
const differ: string[] = [];
const failed: string[] = [];
for (const corpus of CORPORA) {
  const entries = JSON.parse(readFileSync(join(HERE, corpus), 'utf8')) as Record<string, Entry>;
  for (const [name, entry] of Object.entries(entries)) {
    if (wanted.length && !wanted.includes(name)) continue;
    const target = join(out, name);
    if (existsSync(target) && sha256(readFileSync(target)) === entry.sha256) continue;
    const work = mkdtempSync(join(tmpdir(), 'corpus-'));
    try {
      const bytes = build(entry.source, work);
      writeFileSync(`${target}.part`, bytes);
      renameSync(`${target}.part`, target);
      built++;
      if (sha256(bytes) !== entry.sha256) differ.push(name);
    } catch (error) {
      failed.push(`${name}: ${(error as Error).message.split('\n')[0]}`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

console.log(`${built} files written to ${out}`);
if (differ.length) console.log(`bytes differ from the cited SHA-256 (kept; a print by another Chromium, or another poppler):\n  ${differ.join('\n  ')}`);
if (failed.length) {
  console.log(`not built:\n  ${failed.join('\n  ')}`);
  process.exitCode = 1;
}
