import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Served by the product's server at /admin (SPA fallback to index.html); the API is on the same origin.
export default defineConfig({
  base: "/admin/",
  plugins: [react()],
  build: { outDir: "dist", chunkSizeWarningLimit: 2000 },
  server: {
    // `npm run dev -w admin` against a running `npm start` (default port 3000).
    proxy: { "/api": process.env.API_PROXY_TARGET ?? "http://localhost:3000" },
  },
});
