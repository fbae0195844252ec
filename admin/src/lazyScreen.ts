import { type ComponentType, lazy } from "react";

/**
 * sessionStorage (the tab's): the screen whose failed chunk load reloaded the page, and that page, as JSON; kept
 * until that screen loads.
 */
export const CHUNK_RELOAD_KEY = "chunkLoadReloaded";

interface ChunkReload {
  screen: string;
  page: string;
}

export interface ReloadOnce {
  storage: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  reload: () => void;
  /** This page (document) among those of the tab: the reloaded one is another. */
  page: string;
}

function readMarker(storage: ReloadOnce["storage"]): ChunkReload | undefined {
  try {
    const parsed = JSON.parse(storage.getItem(CHUNK_RELOAD_KEY) ?? "null");
    return typeof parsed?.screen === "string" && typeof parsed?.page === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Loads `screen`'s chunk; when that fails, the page is reloaded once instead. A new deployment removes the previous
 * build's files, so a tab opened before it asks for chunks that are gone: the reloaded page names the new ones.
 * A chunk that fails on the reloaded page is missing for good: the error goes on to react-admin's error page instead
 * of reloading in a loop, until the screen that caused the reload loads again (then a later deployment reloads
 * again). Meanwhile the screen never resolves: its loader stays up until the reload replaces the page (so does any
 * other screen failing on the page being reloaded). docs/decisions/0029.
 */
export async function loadOrReloadOnce<M>(
  load: () => Promise<M>,
  screen: string,
  { storage, reload, page }: ReloadOnce,
): Promise<M> {
  try {
    const module = await load();
    if (readMarker(storage)?.screen === screen) storage.removeItem(CHUNK_RELOAD_KEY);
    return module;
  } catch (error) {
    const marker = readMarker(storage);
    if (marker && marker.page !== page) throw error;
    if (!marker) {
      storage.setItem(CHUNK_RELOAD_KEY, JSON.stringify({ screen, page } satisfies ChunkReload));
      reload();
    }
    return new Promise<never>(() => {});
  }
}

type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * A screen in a chunk of its own, fetched the first time it shows: a first visit of /admin downloads only what the
 * login page needs (issue 15). `name` is the screen's export, and names it for loadOrReloadOnce. react-admin's
 * <Layout> holds the <Suspense> that shows its loader meanwhile, and the error boundary that shows its error page.
 */
export const lazyScreen = <M, K extends keyof M & string>(load: () => Promise<M>, name: K) =>
  lazy<ComponentType<PropsOf<M[K]>>>(async () => {
    const module = await loadOrReloadOnce(load, name, {
      storage: window.sessionStorage,
      reload: () => window.location.reload(),
      // When this document started: the reloaded page is a new document, with another origin time.
      page: String(performance.timeOrigin),
    });
    return { default: module[name] as ComponentType<PropsOf<M[K]>> };
  });
