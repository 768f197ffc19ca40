SELECT dataconnect_embed((SELECT json_object('title', t1."title", 'rating', dataconnect_float(t1."rating")) FROM "movie" AS t1 WHERE t1."genre" = ?1 ORDER BY t1."rating" DESC NULLS FIRST LIMIT 1));
