import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "../scripts/precompress.ts";

// Served by the product's server at /admin (SPA fallback to index.html); the API is on the same origin.
export default defineConfig({
  base: "/admin/",
  // Hashed assets get .br and .gz copies, sent as the browser accepts (api/src/product.ts).
  plugins: [react(), precompress()],
  build: { outDir: "dist", chunkSizeWarningLimit: 2000 },
  server: {
    // `npm run dev -w admin` against a running `npm start` (default port 3000).
    proxy: { "/api": process.env.API_PROXY_TARGET ?? "http://localhost:3000" },
  },
});
