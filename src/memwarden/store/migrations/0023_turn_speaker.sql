-- Who spoke a turn (domain/speaker.py): the end user its write named (`user/<id>` in the
-- scope path, or an explicit `speaker`), else its principal, as a speaker key
-- (`user:<id>`, `principal:<subject>`). A reprocess extracts the turn again as the same
-- speaker. NULL on turns written before speakers existed: they are read as their
-- principal's.
ALTER TABLE turn ADD COLUMN speaker text;
