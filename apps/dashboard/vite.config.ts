import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The SPA talks to the control plane through /v1; in development Vite forwards it, so the
// browser sees one origin (cookies and CORS behave as in production behind one host).
const controlPlane = process.env.CONTROL_PLANE_URL ?? 'http://localhost:3000';

const lib = (name: string) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  plugins: [react()],
  // The libraries shared with the backend, from source (tsconfig.json `paths`). The build finds
  // them through tsconfig; the dev server (npm start) does not, so they are spelled out here.
  resolve: { alias: { '@flowgate/flow-engine': lib('flow-engine'), '@flowgate/contracts': lib('contracts') } },
  server: {
    port: Number(process.env.DASHBOARD_PORT ?? 5173),
    strictPort: true,
    proxy: { '/v1': { target: controlPlane, changeOrigin: true } },
    // The dev server serves files by absolute path (`/@fs/…`) from these folders only: the
    // dashboard, the libraries it imports, node_modules. Without it Vite allows the whole
    // repository, `.cache/dev-secrets.json` (the stack's encryption key and service token)
    // included. The deny list adds the stack's state folders to Vite's own defaults.
    fs: {
      strict: true,
      allow: ['apps/dashboard', 'libs/flow-engine', 'libs/contracts', 'node_modules'].map((dir) => fileURLToPath(new URL(`../../${dir}`, import.meta.url))),
      deny: ['.env', '.env.*', '*.{crt,pem,key,p12,pfx}', '**/.git/**', '**/.cache/**', '**/.run/**', '**/dev-secrets*'],
    },
  },
  preview: { port: Number(process.env.DASHBOARD_PORT ?? 5173) },
  build: { outDir: 'dist', emptyOutDir: true },
});
