import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SPA talks to the control plane through /v1; in development Vite forwards it, so the
// browser sees one origin (cookies and CORS behave as in production behind one host).
const controlPlane = process.env.CONTROL_PLANE_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: Number(process.env.DASHBOARD_PORT ?? 5173),
    strictPort: true,
    proxy: { '/v1': { target: controlPlane, changeOrigin: true } },
  },
  preview: { port: Number(process.env.DASHBOARD_PORT ?? 5173) },
  build: { outDir: 'dist', emptyOutDir: true },
});
