// Testing Library's waits (`findBy…`, `waitFor`) give up after 1 s by default: a render on a busy machine can
// take longer, and the test would fail for the machine's sake. They wait as long as a test may take instead; a
// wait for what never comes still fails, at the test's own timeout. (Vitest's setup file for every test file: only
// those with a DOM use Testing Library.)
if (typeof document !== "undefined") {
  const { configure } = await import("@testing-library/dom");
  configure({ asyncUtilTimeout: 25_000 });
}

// A module, for its top-level await.
export {};
