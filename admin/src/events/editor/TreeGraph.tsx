// The graph view of the tree (docs/specification.md §2.2 "also a graph view"): @xyflow/react, loaded lazily by
// EventEdit so the main bundle does not carry it.
import "@xyflow/react/dist/style.css";
import { useTheme } from "@mui/material";
import { formatMoney } from "@ticketing/shared/money";
import { Background, Controls, type Edge, type Node, ReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import { type Identifier, useLocaleState, useTranslate } from "react-admin";
import { CatalogueLoader } from "./ConfigurationTab.tsx";
import type { Catalogue } from "./EditorContext.tsx";
import { graphLayout } from "./graphLayout.ts";
import { basePrices, type TreeNode } from "./tree.ts";

const Graph = ({ root, catalogue }: { root: TreeNode; catalogue: Catalogue }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const theme = useTheme();
  const { nodes, edges } = useMemo(() => {
    const prices = basePrices(root, catalogue.priceRules);
    const layout = graphLayout(root);
    const nodes: Node[] = layout.map(({ node, x, y }) => {
      const price = prices.get(node.id);
      const category = translate(`admin.editor.categories.${node.configuration.category}`);
      return {
        id: String(node.id),
        position: { x, y },
        data: {
          label: `${node.configuration.title || translate("admin.editor.untitled")}\n${category}${price === undefined ? "" : ` · ${formatMoney(price, locale)}`}`,
        },
        style: {
          whiteSpace: "pre-line",
          background: theme.palette.background.paper,
          color: theme.palette.text.primary,
          borderColor: theme.palette.divider,
          width: 180,
        },
        draggable: false,
        connectable: false,
      };
    });
    const edges: Edge[] = layout.flatMap(({ node }) =>
      node.parentId === null
        ? []
        : [{ id: `${node.parentId}-${node.id}`, source: String(node.parentId), target: String(node.id) }],
    );
    return { nodes, edges };
  }, [root, catalogue.priceRules, translate, locale, theme]);
  return (
    <div style={{ height: 560 }} role="img" aria-label={translate("admin.editor.graph.label")}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        colorMode={theme.palette.mode}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
};

const TreeGraph = ({ eventId, rootNodeId }: { eventId: Identifier; rootNodeId: number }) => (
  <CatalogueLoader eventId={eventId} rootNodeId={rootNodeId} readOnly>
    {(root, catalogue) => <Graph root={root} catalogue={catalogue} />}
  </CatalogueLoader>
);

export default TreeGraph;
