SELECT dataconnect_embed((SELECT json_object('id', t1."id", 'title', t1."title") FROM "movie" AS t1 WHERE t1."id" = ?1 LIMIT 1));
