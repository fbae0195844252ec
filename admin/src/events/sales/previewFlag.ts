// docs/specification.md §2.2: the baskets list, the dashboard and the stocks table keep the query flag `preview=true`
// once it has been turned on (default false): with it they show the testing (preview) sales instead of the real ones.
import { useCallback } from "react";
import { useSearchParams } from "react-router";

/** The flag of the page's address, and a setter that keeps the address's other parameters. */
export function usePreviewFlag(): [boolean, (on: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const preview = params.get("preview") === "true";
  const setPreview = useCallback(
    (on: boolean) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (on) next.set("preview", "true");
          else next.delete("preview");
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [preview, setPreview];
}

/** A path to another of the event's sales pages, carrying the flag on when it is on. */
export const withPreview = (path: string, preview: boolean) => (preview ? `${path}?preview=true` : path);
