import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  basename: "/",
  future: {
    // Loaders get the request itself, not two copies of it each (without `?index` and `_routes`, which no page of
    // ours reads: currentPath drops `index`, and there are no `.data` requests without JavaScript). Besides the
    // copies' cost, the layout's and the page's loaders then share the session and the event read for the request
    // (lib/ticket-office.server.ts keys them by request): a copy per loader read them once per loader.
    v8_passThroughRequests: true,
  },
} satisfies Config;
