import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The example SPA. In this repository the packages resolve to their sources; an app of your own installs
 * @authplatform/react instead and needs no aliases. `vite` (dev) proxies /api to examples/express-api.
 */
const packageSource = (name: string) => fileURLToPath(new URL(`../../packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: { '@authplatform/react': packageSource('react'), '@authplatform/js': packageSource('js') } },
  build: { outDir: 'dist', emptyOutDir: true },
  server: { port: 5180, proxy: { '/api': `http://localhost:${process.env.API_PORT ?? 4100}` } },
});
