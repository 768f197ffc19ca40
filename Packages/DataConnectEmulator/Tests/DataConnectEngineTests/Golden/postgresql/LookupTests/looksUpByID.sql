SELECT (SELECT json_build_object('id', encode(uuid_send(t1."id"), 'hex'), 'title', t1."title") FROM "movie" AS t1 WHERE t1."id" = $1::uuid LIMIT 1);
