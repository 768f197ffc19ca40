SELECT (SELECT coalesce(json_group_array(json_object('name', t1."name")), '[]') FROM (SELECT t1."name", t1."name" AS _o0 FROM "People" AS t1 ORDER BY _o0 ASC NULLS LAST LIMIT 1) AS t1);
