import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * semantic-ui-css starts with `@import url(https://fonts.googleapis.com/…)`. That request fails
 * offline and is blocked in mainland China, so it is removed here; Lato comes from
 * @fontsource/lato instead (imported in main.tsx). The built page talks to no outside host.
 */
function stripRemoteFonts(): Plugin {
  return {
    name: 'strip-remote-fonts',
    enforce: 'pre',
    transform(code, id) {
      if (!id.includes('semantic-ui-css') || !id.split('?')[0].endsWith('.css')) return null;
      return { code: code.replace(/@import\s+url\(\s*["']?https?:\/\/[^)]*\)\s*;?/g, ''), map: null };
    },
  };
}

// The gateway serves dist/ in production; `npm run dev -w client` proxies to a running gateway.
export default defineConfig({
  plugins: [stripRemoteFonts(), react()],
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/socket.io': { target: 'http://localhost:8080', ws: true },
    },
  },
  build: { outDir: 'dist', chunkSizeWarningLimit: 800, manifest: true },
});
