import { createDatabase } from "@ticketing/db";
import { loadConfig } from "../env.ts";

const config = loadConfig();
const database = createDatabase({
  url: config.databaseUrl,
  driver: config.dbDriver,
  authToken: config.databaseAuthToken,
});
await database.migrate();
await database.close();
console.log(`Migrated ${config.databaseUrl}`);
