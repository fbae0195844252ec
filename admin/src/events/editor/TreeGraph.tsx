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
        // What a screen reader calls a node ("node" in English whatever the language, by xyflow).
        domAttributes: { "aria-roledescription": translate("admin.editor.graph.node") },
      };
    });
    const titles = new Map(
      layout.map(({ node }) => [node.id, node.configuration.title || translate("admin.editor.untitled")]),
    );
    // A link is named by the elements it joins (xyflow's own name is "Edge from 12 to 13", ids no one sees).
    const edges: Edge[] = layout.flatMap(({ node }) =>
      node.parentId === null
        ? []
        : [
            {
              id: `${node.parentId}-${node.id}`,
              source: String(node.parentId),
              target: String(node.id),
              ariaLabel: translate("admin.editor.graph.edge", {
                parent: titles.get(node.parentId) ?? "",
                child: titles.get(node.id),
              }),
            },
          ],
    );
    return { nodes, edges };
  }, [root, catalogue.priceRules, translate, locale, theme]);
  // xyflow's words, in the back office's language; nothing here selects, moves or deletes, so the nodes' description
  // says the graph is read only instead of xyflow's "Press enter or space to select a node".
  const ariaLabelConfig = useMemo(
    () => ({
      "node.a11yDescription.default": translate("admin.editor.graph.readOnly"),
      "node.a11yDescription.keyboardDisabled": translate("admin.editor.graph.readOnly"),
      "controls.ariaLabel": translate("admin.editor.graph.controls"),
      "controls.zoomIn.ariaLabel": translate("admin.editor.graph.zoomIn"),
      "controls.zoomOut.ariaLabel": translate("admin.editor.graph.zoomOut"),
      "controls.fitView.ariaLabel": translate("admin.editor.graph.fitView"),
    }),
    [translate],
  );
  // The graph is named on xyflow's own container (role=application), not wrapped in role=img: an image's content is
  // presentational, and this one holds focusable nodes and the zoom buttons (axe nested-interactive). The nodes stay
  // focusable: Tab walks them and xyflow pans the focused one into view. The links are not stops of their own.
  return (
    <div style={{ height: 560 }}>
      <ReactFlow
        aria-label={translate("admin.editor.graph.label")}
        ariaLabelConfig={ariaLabelConfig}
        nodes={nodes}
        edges={edges}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        edgesFocusable={false}
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
