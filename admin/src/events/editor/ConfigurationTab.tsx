import { Alert, Box, CircularProgress, Stack } from "@mui/material";
import { type ReactNode, useMemo, useState } from "react";
import { type Identifier, useTranslate } from "react-admin";
import { type Catalogue, EditorProvider, useCatalogue, useEditor } from "./EditorContext.tsx";
import { NodePanel } from "./NodePanel.tsx";
import { PricePreviewPanel } from "./PricePreviewPanel.tsx";
import { RowsPanel } from "./RowsPanel.tsx";
import { TreePanel } from "./TreePanel.tsx";
import { basePrices, buildTree, elementsWithIneffectiveRules, findNode, type TreeNode } from "./tree.ts";

/** Loads the catalogue and builds the tree; children render once both exist. */
export const CatalogueLoader = ({
  eventId,
  rootNodeId,
  readOnly,
  children,
}: {
  eventId: Identifier;
  rootNodeId: number;
  readOnly: boolean;
  children: (root: TreeNode, catalogue: Catalogue) => ReactNode;
}) => {
  const translate = useTranslate();
  const { state, reload } = useCatalogue(eventId);
  const root = useMemo(
    () =>
      state.status === "loaded"
        ? buildTree(state.catalogue.nodes, state.catalogue.configurations, state.catalogue.carts, rootNodeId)
        : null,
    [state, rootNodeId],
  );
  if (state.status === "loading") return <CircularProgress size={24} sx={{ m: 2 }} />;
  if (state.status === "failed" || !root) return <Alert severity="error">{translate("admin.editor.loadFailed")}</Alert>;
  return (
    <EditorProvider eventId={eventId} catalogue={state.catalogue} readOnly={readOnly} reload={reload}>
      {children(root, state.catalogue)}
    </EditorProvider>
  );
};

const TreeEditor = ({ root, catalogue }: { root: TreeNode; catalogue: Catalogue }) => {
  const [selectedId, setSelectedId] = useState(root.id);
  const prices = useMemo(() => basePrices(root, catalogue.priceRules), [root, catalogue.priceRules]);
  const ineffective = useMemo(
    () => elementsWithIneffectiveRules(root, catalogue.priceRules),
    [root, catalogue.priceRules],
  );
  const selected = findNode(root, selectedId) ?? root;
  return (
    <Stack direction={{ xs: "column", lg: "row" }} spacing={2} sx={{ alignItems: "flex-start" }}>
      <Box sx={{ flex: 1, minWidth: 0, width: "100%" }}>
        <TreePanel
          root={root}
          prices={prices}
          ineffective={ineffective}
          selectedId={selected.id}
          onSelect={setSelectedId}
        />
      </Box>
      <Box sx={{ flex: 1.2, minWidth: 0, width: "100%" }}>
        <NodePanel key={selected.id} root={root} node={selected} price={prices.get(selected.id)} />
      </Box>
    </Stack>
  );
};

/** The Configuration tab: the tree editor, the event's promotion codes and the price preview. */
export const ConfigurationTab = ({
  eventId,
  rootNodeId,
  readOnly,
}: {
  eventId: Identifier;
  rootNodeId: number;
  readOnly: boolean;
}) => (
  <CatalogueLoader eventId={eventId} rootNodeId={rootNodeId} readOnly={readOnly}>
    {(root, catalogue) => (
      <>
        <TreeEditor root={root} catalogue={catalogue} />
        <PromotionCodes catalogue={catalogue} eventId={eventId} readOnly={readOnly} />
        <PricePreviewPanel />
      </>
    )}
  </CatalogueLoader>
);

const PromotionCodes = ({
  catalogue,
  eventId,
  readOnly,
}: {
  catalogue: Catalogue;
  eventId: Identifier;
  readOnly: boolean;
}) => {
  const { reload } = useEditor();
  return (
    <RowsPanel
      title="admin.editor.promotionCodes.title"
      resource="promotion-codes"
      eventId={eventId}
      rows={catalogue.promotionCodes}
      fields={[
        { source: "name", label: "admin.editor.promotionCodes.name", isRequired: true },
        { source: "value", label: "admin.editor.promotionCodes.value", isRequired: true },
      ]}
      describe={(code) => code.value}
      readOnly={readOnly}
      emptyText="admin.editor.promotionCodes.empty"
      addLabel="admin.editor.promotionCodes.add"
      onChanged={reload}
    />
  );
};
