SELECT (SELECT json_build_object('id', replace(CAST(t1."id" AS text), '-', ''), 'title', t1."title") FROM "movie" AS t1 WHERE t1."id" = $1::uuid LIMIT 1);
