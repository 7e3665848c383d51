import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves dist/ in production; `npm run dev -w client` proxies to a running gateway.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
      '/socket.io': { target: 'http://localhost:8080', ws: true },
    },
  },
  build: { outDir: 'dist', chunkSizeWarningLimit: 800 },
});
