SELECT (SELECT json_build_object('rating', t1."rating") FROM "review" AS t1 WHERE t1."movie_id" = $1::uuid AND t1."user_id" = $2::text LIMIT 1);
