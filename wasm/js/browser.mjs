// The page (../www) in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core): the demo must report every check passed;
// with --bench the bench table beside noble-post-quantum is printed as
// markdown; with --screenshot FILE the page is saved as a PNG.
//
//   node browser.mjs [--bench] [--screenshot docs/wasm-page.png]
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { pkgDir } from './load.mjs';
import { markdown } from './bench-lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const wantBench = args.includes('--bench');
const shotAt = args.indexOf('--screenshot');
const shot = shotAt >= 0 ? args[shotAt + 1] : null;

// URL prefix -> folder.
const roots = [
  ['/pkg/', pkgDir],
  ['/js/', here],
  ['/node_modules/', path.join(here, 'node_modules')],
  ['/', path.join(here, '../www')],
];
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost').pathname;
  const [prefix, dir] = roots.find(([p]) => url.startsWith(p));
  const rel = url.slice(prefix.length) || 'index.html';
  const file = path.resolve(dir, rel);
  if (!file.startsWith(path.resolve(dir))) {
    res.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const base = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(base);
  await page.waitForSelector('body[data-status="ready"]', { timeout: 30000 });
  await page.click('#demo');
  await page.waitForSelector('body[data-status="ok"], body[data-status="failed"]', { timeout: 60000 });
  const status = await page.getAttribute('body', 'data-status');
  console.log((await page.textContent('#log')).trim());
  if (status !== 'ok' || errors.length) {
    console.error(`browser demo: ${status}; errors: ${errors.join('; ')}`);
    failed = true;
  }
  if (wantBench) {
    await page.click('#bench');
    await page.waitForSelector('body[data-status="benched"]', { timeout: 300000 });
    console.log('\n' + markdown(await page.evaluate(() => window.benchRows)));
  }
  if (shot) await page.screenshot({ path: shot, fullPage: true });
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
