import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w api` writes a new versioned migration into api/drizzle/ from the schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  casing: 'snake_case',
});
