// The element-tree editor's price preview (issue 4); moving, duplicating and images are in catalogue.ts and
// uploaded-images.ts.
import { Hono } from "hono";
import type { AppEnv } from "../context.ts";

export const editorRoutes = new Hono<AppEnv>();
