import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress';
import { semanticUiCss } from './build/semantic-ui-css';

// The gateway serves dist/ in production; `npm run dev -w client` proxies to a running gateway.
// semanticUiCss: only the Semantic UI components and selectors the console uses, no remote font
// (build/semantic-ui-css.ts); precompress: .br and .gz copies the gateway serves.
export default defineConfig({
  plugins: [semanticUiCss(), react(), precompress()],
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/socket.io': { target: 'http://localhost:8080', ws: true },
    },
  },
  build: { outDir: 'dist', chunkSizeWarningLimit: 800, manifest: true },
});
