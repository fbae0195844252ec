import type {
  Condition,
  Node,
  NodeAccess,
  NodeAvailability,
  NodeCartConfiguration,
  NodeConfiguration,
  NodeExtraInfo,
  NodeExtraInfoGroup,
  NodeLimit,
  NodePriceRule,
  NodeTag,
  PromotionCode,
} from "@ticketing/shared/schemas/catalogue";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { HttpError, type Identifier, useDataProvider, useNotify } from "react-admin";
import type { TicketingDataProvider } from "../../dataProvider.ts";

/** What the rules linked to node configurations by `node_configuration_ids` have in common (limits, price rules…). */
export type Linked = Pick<NodeLimit, "id" | "nodeConfigurationIds" | "conditionId">;

/** The answers of the resources below, as shared/schemas/catalogue.ts describes them. */
export interface Catalogue {
  nodes: Node[];
  configurations: NodeConfiguration[];
  carts: NodeCartConfiguration[];
  limits: NodeLimit[];
  priceRules: NodePriceRule[];
  conditions: Condition[];
  availabilities: NodeAvailability[];
  accesses: NodeAccess[];
  extraInfoGroups: NodeExtraInfoGroup[];
  extraInfos: NodeExtraInfo[];
  tags: NodeTag[];
  promotionCodes: PromotionCode[];
}

const RESOURCES = {
  nodes: "nodes",
  configurations: "node-configurations",
  carts: "node-cart-configurations",
  limits: "node-limits",
  priceRules: "node-price-rules",
  conditions: "conditions",
  availabilities: "node-availabilities",
  accesses: "node-accesses",
  extraInfoGroups: "node-extra-info-groups",
  extraInfos: "node-extra-infos",
  tags: "node-tags",
  promotionCodes: "promotion-codes",
} as const satisfies Record<keyof Catalogue, string>;

/** The API's page maximum: an event's tree is expected to stay below it. */
const PAGE = { page: 1, perPage: 1000 };

export type CatalogueState = { status: "loading" } | { status: "loaded"; catalogue: Catalogue } | { status: "failed" };

/** Every tree resource of the event, fetched together; `reload` after each write (orders move with moves). */
export function useCatalogue(eventId: Identifier) {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const [state, setState] = useState<CatalogueState>({ status: "loading" });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let isCurrent = true;
    void version; // the reload trigger
    const load = async () => {
      const entries = await Promise.all(
        Object.entries(RESOURCES).map(async ([key, resource]) => {
          const { data } = await dataProvider.getList(resource, {
            filter: { eventId },
            pagination: PAGE,
            sort: { field: "id", order: "ASC" },
          });
          return [key, data] as const;
        }),
      );
      return Object.fromEntries(entries) as unknown as Catalogue;
    };
    load().then(
      (catalogue) => isCurrent && setState({ status: "loaded", catalogue }),
      () => isCurrent && setState((current) => (current.status === "loaded" ? current : { status: "failed" })),
    );
    return () => {
      isCurrent = false;
    };
  }, [dataProvider, eventId, version]);
  const reload = useCallback(() => setVersion((current) => current + 1), []);
  return { state, reload };
}

export interface EditorContextValue {
  eventId: Identifier;
  catalogue: Catalogue;
  readOnly: boolean;
  reload: () => void;
  dataProvider: TicketingDataProvider;
  /**
   * Runs writes, then reloads the catalogue. A 400 with field errors is returned (camelCase keys) for the
   * dialog to show inline; other refusals (409 locked, 400 without fields…) are notified. True on success.
   */
  run: (writes: () => Promise<unknown>, success?: string) => Promise<true | Record<string, string> | false>;
}

const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error("useEditor outside EditorProvider");
  return value;
}

/** `{field: message}` of a data provider error; `root` is the notification's text. */
function fieldErrorsOf(error: unknown): Record<string, string> | null {
  if (!(error instanceof HttpError) || error.status !== 400) return null;
  const errors = (error.body as { errors?: Record<string, unknown> } | undefined)?.errors;
  if (!errors) return null;
  const fields = Object.fromEntries(
    Object.entries(errors).filter(
      (entry): entry is [string, string] => entry[0] !== "root" && typeof entry[1] === "string",
    ),
  );
  return Object.keys(fields).length > 0 ? fields : null;
}

export const EditorProvider = ({
  eventId,
  catalogue,
  readOnly,
  reload,
  children,
}: {
  eventId: Identifier;
  catalogue: Catalogue;
  readOnly: boolean;
  reload: () => void;
  children: ReactNode;
}) => {
  const dataProvider = useDataProvider<TicketingDataProvider>();
  const notify = useNotify();
  const value = useMemo<EditorContextValue>(
    () => ({
      eventId,
      catalogue,
      readOnly,
      reload,
      dataProvider,
      run: async (writes, success) => {
        try {
          await writes();
        } catch (error) {
          reload(); // part of the writes may have landed
          const fields = fieldErrorsOf(error);
          if (fields) return fields;
          notify(error instanceof Error && error.message ? error.message : "admin.errors.unexpected", {
            type: "error",
          });
          return false;
        }
        reload();
        if (success) notify(success, { type: "success" });
        return true;
      },
    }),
    [eventId, catalogue, readOnly, reload, dataProvider, notify],
  );
  return <EditorContext.Provider value={value}>{children}</EditorContext.Provider>;
};
