import AccountTreeIcon from "@mui/icons-material/AccountTree";
import AddIcon from "@mui/icons-material/Add";
import ArrowDownwardIcon from "@mui/icons-material/ArrowDownward";
import ArrowUpwardIcon from "@mui/icons-material/ArrowUpward";
import CheckBoxIcon from "@mui/icons-material/CheckBox";
import ConfirmationNumberIcon from "@mui/icons-material/ConfirmationNumber";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import DeleteIcon from "@mui/icons-material/Delete";
import DragIndicatorIcon from "@mui/icons-material/DragIndicator";
import ExtensionIcon from "@mui/icons-material/Extension";
import FolderIcon from "@mui/icons-material/Folder";
import RadioButtonCheckedIcon from "@mui/icons-material/RadioButtonChecked";
import WarningAmberIcon from "@mui/icons-material/WarningAmber";
import WidgetsIcon from "@mui/icons-material/Widgets";
import {
  Box,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { NODE_CATEGORIES, type NodeCategory } from "@ticketing/shared/constants";
import { formatMoney } from "@ticketing/shared/money";
import { type DragEvent, type ReactElement, useState } from "react";
import { useLocaleState, useTranslate } from "react-admin";
import { ConfirmDialog, FormDialog } from "./Dialogs.tsx";
import { useEditor } from "./EditorContext.tsx";
import {
  canHaveChildren,
  type DropPosition,
  dropTarget,
  flattenTree,
  isGroupCategory,
  type MoveTarget,
  stepTarget,
  type TreeNode,
} from "./tree.ts";

export const CATEGORY_ICONS: Record<NodeCategory, ReactElement> = {
  article: <ConfirmationNumberIcon fontSize="small" />,
  option: <ExtensionIcon fontSize="small" />,
  single_choice: <RadioButtonCheckedIcon fontSize="small" />,
  multiple_choice: <CheckBoxIcon fontSize="small" />,
  complex: <WidgetsIcon fontSize="small" />,
  no_configuration: <FolderIcon fontSize="small" />,
};

/** A new element's cart: weight 1; a single choice takes at most one child; no minimum until children exist. */
const newCart = (category: NodeCategory) => ({
  weight: 1,
  rangeMin: 0,
  rangeMax: category === "single_choice" ? 1 : null,
});

const AddDialog = ({
  parent,
  category,
  onClose,
  onAdded,
}: {
  parent: TreeNode;
  category: NodeCategory;
  onClose: () => void;
  onAdded: (id: number) => void;
}) => {
  const translate = useTranslate();
  const editor = useEditor();
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (title.trim() === "") return setError(translate("ra.validation.required"));
    let nodeId: number | null = null;
    // docs/api.md: a node needs its configuration and its cart configuration first.
    const answer = await editor.run(async () => {
      const { eventId, dataProvider } = editor;
      const { data: configuration } = await dataProvider.create("node-configurations", {
        data: { eventId, category, title: title.trim() },
      });
      const { data: cart } = await dataProvider.create("node-cart-configurations", {
        data: { eventId, ...newCart(category) },
      });
      const { data: node } = await dataProvider.create("nodes", {
        data: {
          eventId,
          parentId: parent.id,
          configurationId: configuration.id,
          cartConfigurationId: cart.id,
          order: parent.children.length,
        },
      });
      nodeId = node.id as number;
    }, "admin.editor.tree.added");
    if (answer === true) {
      onClose();
      if (nodeId !== null) onAdded(nodeId);
    } else if (answer) setError(Object.values(answer).join(" "));
  };
  return (
    <FormDialog
      title={translate("admin.editor.tree.addTitle", {
        kind: translate(`admin.editor.categories.${category}`),
        parent: parent.configuration.title || translate("admin.editor.untitled"),
      })}
      readOnly={false}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextField
        autoFocus
        required
        label={translate("admin.editor.node.title")}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        error={error !== null}
        helperText={error}
      />
    </FormDialog>
  );
};

const positionOf = (event: DragEvent<HTMLElement>, node: TreeNode): DropPosition => {
  const box = event.currentTarget.getBoundingClientRect();
  const ratio = (event.clientY - box.top) / Math.max(box.height, 1);
  if (!canHaveChildren(node.configuration.category)) return ratio < 0.5 ? "before" : "after";
  if (node.parentId === null) return "inside";
  return ratio < 0.25 ? "before" : ratio > 0.75 ? "after" : "inside";
};

/**
 * The tree as an indented list: select a row to edit it; add, move (drag and drop, or up/down buttons for
 * keyboards), duplicate, delete (with its subtree, after confirmation).
 */
export const TreePanel = ({
  root,
  prices,
  ineffective,
  selectedId,
  onSelect,
}: {
  root: TreeNode;
  prices: Map<number, number>;
  /** the priced elements on which a price rule has no effect: marked beside their price */
  ineffective: ReadonlySet<number>;
  selectedId: number;
  onSelect: (id: number) => void;
}) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const editor = useEditor();
  const { readOnly } = editor;
  const [menu, setMenu] = useState<{ anchor: HTMLElement; parent: TreeNode } | null>(null);
  const [adding, setAdding] = useState<{ parent: TreeNode; category: NodeCategory } | null>(null);
  const [deleting, setDeleting] = useState<TreeNode | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<{ id: number; position: DropPosition } | null>(null);
  const rows = flattenTree(root);
  const titleOf = (node: TreeNode) => node.configuration.title || translate("admin.editor.untitled");

  const move = (node: TreeNode, target: MoveTarget | null) =>
    target && editor.run(() => editor.dataProvider.moveNode(node.id, target), "admin.editor.tree.moved");

  const onDrop = (event: DragEvent<HTMLElement>, node: TreeNode) => {
    event.preventDefault();
    const position = positionOf(event, node);
    const draggedId = dragged;
    setDragged(null);
    setOver(null);
    if (draggedId === null) return;
    const draggedNode = rows.find((row) => row.id === draggedId);
    const target = dropTarget(root, draggedId, node.id, position);
    if (draggedNode && target) void move(draggedNode, target);
  };

  return (
    <Box>
      <List
        dense
        aria-label={translate("admin.editor.tree.label")}
        sx={{ border: 1, borderColor: "divider", borderRadius: 1 }}
      >
        {rows.map((node) => {
          const title = titleOf(node);
          const isRoot = node.parentId === null;
          const price = prices.get(node.id);
          const position = over?.id === node.id ? over.position : null;
          // the drop indicator: a line above or below the row, or an outline for "inside"
          const indicator =
            position === "inside"
              ? "inset 0 0 0 2px var(--mui-palette-primary-main, #1976d2)"
              : position === "before"
                ? "inset 0 2px 0 var(--mui-palette-primary-main, #1976d2)"
                : position === "after"
                  ? "inset 0 -2px 0 var(--mui-palette-primary-main, #1976d2)"
                  : "none";
          return (
            <ListItem
              key={node.id}
              disablePadding
              draggable={!readOnly && !isRoot}
              onDragStart={(event: DragEvent<HTMLElement>) => {
                event.dataTransfer.effectAllowed = "move";
                event.dataTransfer.setData("text/plain", String(node.id));
                setDragged(node.id);
              }}
              onDragEnd={() => {
                setDragged(null);
                setOver(null);
              }}
              onDragOver={(event: DragEvent<HTMLElement>) => {
                if (dragged === null) return;
                const position = positionOf(event, node);
                if (!dropTarget(root, dragged, node.id, position)) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = "move";
                if (over?.id !== node.id || over.position !== position) setOver({ id: node.id, position });
              }}
              onDragLeave={() => setOver((current) => (current?.id === node.id ? null : current))}
              onDrop={(event: DragEvent<HTMLElement>) => onDrop(event, node)}
              sx={{ boxShadow: indicator, opacity: dragged === node.id ? 0.5 : 1 }}
            >
              <ListItemButton
                selected={node.id === selectedId}
                onClick={() => onSelect(node.id)}
                sx={{ pl: 1 + node.depth * 3, minWidth: 0 }}
              >
                {!readOnly && !isRoot && (
                  <DragIndicatorIcon
                    fontSize="small"
                    sx={{ color: "text.disabled", mr: 0.5, cursor: "grab" }}
                    aria-hidden
                  />
                )}
                <ListItemIcon sx={{ minWidth: 32 }} aria-hidden>
                  {isRoot ? <AccountTreeIcon fontSize="small" /> : CATEGORY_ICONS[node.configuration.category]}
                </ListItemIcon>
                <ListItemText
                  primary={title}
                  secondary={
                    isGroupCategory(node.configuration.category)
                      ? translate(`admin.editor.categories.${node.configuration.category}`)
                      : undefined
                  }
                />
                {ineffective.has(node.id) && (
                  <Tooltip title={translate("admin.editor.tree.ineffectiveRule", { title })}>
                    <WarningAmberIcon
                      fontSize="small"
                      color="warning"
                      role="img"
                      aria-label={translate("admin.editor.tree.ineffectiveRule", { title })}
                      aria-hidden={false}
                      sx={{ ml: 1 }}
                    />
                  </Tooltip>
                )}
                {price !== undefined && (
                  <Typography
                    variant="body2"
                    sx={{ ml: 1, whiteSpace: "nowrap" }}
                    aria-label={translate("admin.editor.tree.priceOf", { title })}
                  >
                    {formatMoney(price, locale)}
                  </Typography>
                )}
              </ListItemButton>
              {/* The row's buttons follow its title and price in the flow (not MUI's absolutely placed
                  secondaryAction, which the price ran under): a narrow panel wraps the title instead. */}
              {!readOnly && (
                <Box sx={{ display: "flex", flex: "none", alignItems: "center", pr: 1 }}>
                  {canHaveChildren(node.configuration.category) && (
                    <Tooltip title={translate("admin.editor.tree.addIn", { title })}>
                      <IconButton
                        size="small"
                        aria-label={translate("admin.editor.tree.addIn", { title })}
                        onClick={(event) => setMenu({ anchor: event.currentTarget, parent: node })}
                      >
                        <AddIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  {!isRoot && (
                    <>
                      <IconButton
                        size="small"
                        aria-label={translate("admin.editor.moveUpNamed", { name: title })}
                        disabled={!stepTarget(root, node.id, -1)}
                        onClick={() => move(node, stepTarget(root, node.id, -1))}
                      >
                        <ArrowUpwardIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={translate("admin.editor.moveDownNamed", { name: title })}
                        disabled={!stepTarget(root, node.id, 1)}
                        onClick={() => move(node, stepTarget(root, node.id, 1))}
                      >
                        <ArrowDownwardIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={translate("admin.editor.tree.duplicate", { title })}
                        onClick={() =>
                          editor.run(() => editor.dataProvider.duplicateNode(node.id), "admin.editor.tree.duplicated")
                        }
                      >
                        <ContentCopyIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={translate("admin.editor.deleteNamed", { name: title })}
                        onClick={() => setDeleting(node)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </>
                  )}
                </Box>
              )}
            </ListItem>
          );
        })}
      </List>
      <Menu anchorEl={menu?.anchor} open={menu !== null} onClose={() => setMenu(null)}>
        {menu &&
          NODE_CATEGORIES.filter(
            // options go under articles and option groups; articles not under an article
            (category) => !(category === "article" && menu.parent.configuration.category === "article"),
          ).map((category) => (
            <MenuItem
              key={category}
              onClick={() => {
                setAdding({ parent: menu.parent, category });
                setMenu(null);
              }}
            >
              <ListItemIcon>{CATEGORY_ICONS[category]}</ListItemIcon>
              {translate(`admin.editor.add.${category}`)}
            </MenuItem>
          ))}
      </Menu>
      {adding && (
        <AddDialog
          parent={adding.parent}
          category={adding.category}
          onClose={() => setAdding(null)}
          onAdded={onSelect}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title={translate("admin.editor.deleteNamed", { name: titleOf(deleting) })}
          message={translate("admin.editor.tree.deleteMessage", { count: flattenTree(deleting).length - 1 })}
          confirmLabel={translate("ra.action.delete")}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            const done = await editor.run(
              () => editor.dataProvider.delete("nodes", { id: deleting.id, previousData: { id: deleting.id } }),
              "admin.editor.deleted",
            );
            if (done === true && deleting.id === selectedId) onSelect(root.id);
          }}
        />
      )}
    </Box>
  );
};
