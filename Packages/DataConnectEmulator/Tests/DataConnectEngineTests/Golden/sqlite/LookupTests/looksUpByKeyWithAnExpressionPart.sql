SELECT dataconnect_embed((SELECT json_object('rating', t1."rating") FROM "review" AS t1 WHERE t1."movie_id" = ?1 AND t1."user_id" = ?2 LIMIT 1));
