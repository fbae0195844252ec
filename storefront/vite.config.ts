import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [reactRouter()],
  // The shared workspace package ships TypeScript sources: bundle it into the server build.
  ssr: { noExternal: ["@ticketing/shared"] },
});
