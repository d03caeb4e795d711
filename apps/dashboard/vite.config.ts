import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The SPA talks to the control plane through /v1; in development Vite forwards it, so the
// browser sees one origin (cookies and CORS behave as in production behind one host).
const controlPlane = process.env.CONTROL_PLANE_URL ?? 'http://localhost:3000';

/** The libraries shared with the backend, from source: tsconfig.json's `paths` is the one list. */
const tsconfig = JSON.parse(readFileSync(new URL('./tsconfig.json', import.meta.url), 'utf8')) as { compilerOptions: { paths: Record<string, [string]> } };
const aliases = Object.fromEntries(Object.entries(tsconfig.compilerOptions.paths).map(([name, [file]]) => [name, fileURLToPath(new URL(file, import.meta.url))]));

/** The dashboard is never shown inside another site's frame (clickjacking); serve.js sends the same. */
const NO_FRAMING = { 'X-Frame-Options': 'DENY', 'Content-Security-Policy': "frame-ancestors 'none'" };

export default defineConfig({
  plugins: [react()],
  // The build finds the shared libraries through tsconfig; the dev server (npm start) does not,
  // so they are given to it from the same list.
  resolve: { alias: aliases },
  server: {
    port: Number(process.env.DASHBOARD_PORT ?? 5173),
    strictPort: true,
    proxy: { '/v1': { target: controlPlane, changeOrigin: true } },
    headers: NO_FRAMING,
    // The dev server serves files by absolute path (`/@fs/…`) from these folders only: the
    // dashboard, the libraries it imports, node_modules. Without it Vite allows the whole
    // repository, `.cache/dev-secrets.json` (the stack's encryption key and service token)
    // included. The deny list adds the stack's state folders to Vite's own defaults, and the
    // backend's sources by name: a deny wins even over a file Vite already loaded (the allow
    // list alone does not cover files in its module graph).
    fs: {
      strict: true,
      allow: ['apps/dashboard', 'libs/flow-engine', 'libs/contracts', 'node_modules'].map((dir) => fileURLToPath(new URL(`../../${dir}`, import.meta.url))),
      deny: [
        '.env',
        '.env.*',
        '*.{crt,pem,key,p12,pfx}',
        '**/.git/**',
        '**/.cache/**',
        '**/.run/**',
        '**/dev-secrets*',
        '**/libs/{db,platform,integrations,testing}/**',
        '**/apps/{control-plane,gateway,log-ingest,worker}/**',
        '**/prisma/**',
      ],
    },
  },
  preview: { port: Number(process.env.DASHBOARD_PORT ?? 5173), headers: NO_FRAMING },
  build: { outDir: 'dist', emptyOutDir: true },
});
