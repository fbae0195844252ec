// The back office's Content-Security-Policy allows no eval (docs/decisions/0007). zod, which the shared schemas
// bring in, tries `new Function` once as it builds its first object schema to see whether it may compile parsers:
// a refused eval, reported as a policy violation on every page. Imported by main.tsx before anything that defines
// a schema, this tells zod to interpret instead.
import { config } from "zod";

config({ jitless: true });
