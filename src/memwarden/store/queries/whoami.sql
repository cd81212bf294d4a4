-- whoami_key --
SELECT c.name AS context_name, k.capabilities, k.scope_prefix, k.expires_at, k.created_at
FROM api_key k JOIN context c ON c.id = k.context_id
WHERE k.context_id = %(context_id)s AND k.id = %(id)s
