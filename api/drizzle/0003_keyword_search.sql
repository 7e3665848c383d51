-- Keyword search of the complaint and work-order lists (code, theme, reporter name) with
-- trigram indexes, so `ilike '%…%'` does not scan a million rows. The extension lives in
-- schema public (database-wide), whatever the connection's search_path.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
--> statement-breakpoint
CREATE INDEX complain_name_trgm_idx ON complain USING gin (name public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX complain_code_trgm_idx ON complain USING gin (complain_code public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX event_order_name_trgm_idx ON event_order USING gin (name public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX event_order_code_trgm_idx ON event_order USING gin (event_code public.gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX person_name_trgm_idx ON person USING gin (name public.gin_trgm_ops);
