import { openCliDatabase } from "./database.ts";

const { config, database } = await openCliDatabase();
await database.close();
console.log(`Migrated ${config.databaseUrl}`);
