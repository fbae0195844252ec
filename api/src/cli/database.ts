// The command-line tools' database (npm run db:migrate, db:seed, user:create): the one the server would use
// (DATA_DIR, DATABASE_URL, DB_DRIVER, DATABASE_AUTH_TOKEN), migrated to the latest schema.
import { createDatabase, type Database } from "@ticketing/db";
import { type EnvConfig, loadConfig } from "../env.ts";

export async function openCliDatabase(): Promise<{ config: EnvConfig; database: Database }> {
  const config = loadConfig();
  const database = createDatabase({
    url: config.databaseUrl,
    driver: config.dbDriver,
    authToken: config.databaseAuthToken,
  });
  await database.migrate();
  return { config, database };
}
