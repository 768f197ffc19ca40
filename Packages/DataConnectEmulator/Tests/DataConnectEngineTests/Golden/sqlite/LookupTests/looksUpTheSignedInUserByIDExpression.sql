SELECT dataconnect_embed((SELECT json_object('id', t1."id", 'username', t1."username") FROM "user" AS t1 WHERE t1."id" = ?1 LIMIT 1));
