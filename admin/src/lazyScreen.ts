import { type ComponentType, lazy } from "react";

/**
 * A screen in a chunk of its own, fetched the first time it shows: a first visit of /admin downloads only what the
 * login page needs (issue 15). The screens are named exports, hence `name`. react-admin's <Layout> holds the
 * <Suspense> that shows its loader meanwhile.
 */
export const lazyScreen = <M, K extends keyof M>(load: () => Promise<M>, name: K) =>
  lazy(async () => ({ default: (await load())[name] as ComponentType }));
