import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { precompress } from "../scripts/precompress.ts";

export default defineConfig({
  // The client build's hashed assets get .br and .gz copies, sent as the browser accepts (api/src/product.ts).
  plugins: [reactRouter(), precompress()],
  // The shared workspace package ships TypeScript sources: bundle it into the server build.
  ssr: { noExternal: ["@ticketing/shared"] },
});
