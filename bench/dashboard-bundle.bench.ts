/**
 * Size of the dashboard's first page: the production build (`vite build`), then the gzipped
 * JavaScript that /login loads before it can render — the entry script and every chunk it
 * preloads (index.html's <script type="module"> and <link rel="modulepreload">). Budget 150 KB
 * (docs/dashboard.md). Lazy chunks (every page after sign-in, the Workshop) are listed for context.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(__dirname, '..');
const BUDGET_KB = 150;

const gzipKb = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length / 1024;

function main() {
  const dist = mkdtempSync(path.join(tmpdir(), 'flowgate-dashboard-bench-'));
  try {
    const build = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', 'apps/dashboard', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: ROOT,
      // NODE_ENV=test/development (Jest, the stack's env) would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`vite build failed:\n${build.stdout}${build.stderr}`);
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const firstPage = [...html.matchAll(/<(?:script[^>]*type="module"[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"/g)].map((match) => match[1]!);
    const firstKb = firstPage.reduce((sum, src) => sum + gzipKb(path.join(dist, src)), 0);
    const assets = readdirSync(path.join(dist, 'assets')).filter((name) => name.endsWith('.js'));
    const lazy = assets.filter((name) => !firstPage.some((src) => src.endsWith(name)));
    const lazyKb = Object.fromEntries(lazy.map((name) => [name.replace(/-[\w-]{8}\.js$/, ''), Number(gzipKb(path.join(dist, 'assets', name)).toFixed(1))]));

    console.log('dashboard-bundle: production build, gzipped JavaScript');
    console.log(`  first page (/login): ${firstKb.toFixed(1)} KB in ${firstPage.length} file(s)   budget ≤ ${BUDGET_KB} KB: ${firstKb <= BUDGET_KB ? 'met' : 'MISSED'}`);
    for (const [name, kb] of Object.entries(lazyKb).sort((a, b) => b[1] - a[1])) console.log(`  on demand: ${name.padEnd(28)} ${kb.toFixed(1)} KB`);
    console.log(
      JSON.stringify({
        bench: 'dashboard-bundle',
        first_page_js_gzip_kb: Number(firstKb.toFixed(1)),
        budget_kb: BUDGET_KB,
        met: firstKb <= BUDGET_KB,
        lazy_chunks: Object.keys(lazyKb).length,
      }),
    );
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}

main();
