-- Approximate prices in USD, EUR and GBP (Settings → Currency): UGX for one unit, and the day the
-- rates were set. The shop always charges UGX; the operator updates this row as rates move.
INSERT INTO "system_settings" ("setting_key", "setting_value")
VALUES ('exchange_rates', '{"USD":3700,"EUR":4250,"GBP":4850,"setOn":"2026-11-24"}')
ON CONFLICT ("setting_key") DO NOTHING;
