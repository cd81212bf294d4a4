-- insert_context --
INSERT INTO context (id, name, config) VALUES (%(id)s, %(name)s, %(config)s)
RETURNING id, name, config, config_version, created_at, updated_at

-- list_contexts --
-- Keyset page: rows after the cursor's (created_at, id); an unknown cursor gives none.
SELECT id, name, created_at FROM context
WHERE %(after)s::uuid IS NULL
   OR (created_at, id) > (SELECT created_at, id FROM context WHERE id = %(after)s::uuid)
ORDER BY created_at, id
LIMIT %(limit)s

-- get_context --
SELECT id, name, config, config_version, created_at, updated_at FROM context WHERE id = %(id)s

-- get_context_for_update --
SELECT id, name, config, config_version, created_at, updated_at FROM context WHERE id = %(id)s
FOR UPDATE

-- update_context_config --
UPDATE context SET config = %(config)s, config_version = config_version + 1, updated_at = now()
WHERE id = %(id)s
RETURNING config_version

-- upsert_principal --
INSERT INTO principal (context_id, id, subject) VALUES (%(context_id)s, %(id)s, %(subject)s)
ON CONFLICT (context_id, subject) DO UPDATE SET subject = EXCLUDED.subject
RETURNING id

-- insert_principal_grant --
INSERT INTO principal_grant (context_id, principal_id, capability, scope_prefix)
VALUES (%(context_id)s, %(principal_id)s, %(capability)s, %(scope_prefix)s)
ON CONFLICT DO NOTHING

-- insert_key --
INSERT INTO api_key (context_id, id, principal_id, secret_hash, capabilities, scope_prefix,
                     expires_at)
VALUES (%(context_id)s, %(id)s, %(principal_id)s, %(secret_hash)s, %(capabilities)s,
        %(scope_prefix)s, %(expires_at)s)
RETURNING created_at

-- list_keys --
SELECT k.id, p.subject, k.capabilities, k.scope_prefix, k.expires_at, k.revoked_at,
       k.last_used_at, k.created_at
FROM api_key k JOIN principal p ON p.context_id = k.context_id AND p.id = k.principal_id
WHERE k.context_id = %(context_id)s
  AND (%(after)s::uuid IS NULL
       OR (k.created_at, k.id) > (SELECT a.created_at, a.id FROM api_key a
                                  WHERE a.context_id = %(context_id)s AND a.id = %(after)s::uuid))
ORDER BY k.created_at, k.id
LIMIT %(limit)s

-- revoke_key --
-- The time is read in a CTE: Citus refuses now() inside COALESCE in an UPDATE.
WITH t AS (SELECT now() AS at)
UPDATE api_key SET revoked_at = coalesce(revoked_at, t.at)
FROM t
WHERE context_id = %(context_id)s AND id = %(id)s
RETURNING id, revoked_at

-- authenticate_key --
SELECT k.context_id, k.id, k.principal_id, k.secret_hash, k.capabilities, k.scope_prefix,
       k.expires_at, k.revoked_at, p.subject,
       coalesce((SELECT array_agg(g.capability || '|' || g.scope_prefix)
                 FROM principal_grant g
                 WHERE g.context_id = k.context_id AND g.principal_id = k.principal_id),
                '{}') AS principal_grants
FROM api_key k JOIN principal p ON p.context_id = k.context_id AND p.id = k.principal_id
WHERE k.id = %(id)s

-- principal_grants_for_key --
SELECT k.capabilities, k.scope_prefix, k.revoked_at, k.expires_at, p.subject,
       coalesce((SELECT array_agg(g.capability || '|' || g.scope_prefix)
                 FROM principal_grant g
                 WHERE g.context_id = k.context_id AND g.principal_id = k.principal_id),
                '{}') AS principal_grants
FROM api_key k JOIN principal p ON p.context_id = k.context_id AND p.id = k.principal_id
WHERE k.context_id = %(context_id)s AND k.id = %(id)s

-- list_context_configs --
SELECT id, name, config FROM context ORDER BY created_at, id
