"""The Python peer of the emulator benchmark: an ariadne GraphQL server answering the same 20-row list with
its many-to-many relation from the same SQLite file (opened read-only).

Run: BENCH_DB=/path/dataconnect.sqlite python python_server.py --port P [--workers 2]

Each worker is a uvicorn server process (uvloop, httptools) with its own SO_REUSEPORT listening socket, so
the kernel spreads connections evenly over the workers. (`uvicorn --workers 2` shares one socket, and the
first worker to wake often accepts all of wrk's connections at once: one worker then does all the work and
the figure swings by 2x from run to run.)

The schema is shaped like the emulator's answer (`movies { id title releaseYear actors_via_MovieActor { id name } }`),
so the same query text works on both. Actors come through a DataLoader-style batch: the 20
`actors_via_MovieActor` resolvers of one request queue their movie ids, and one `IN (...)` statement
answers them all.
"""
import argparse
import asyncio
import os
import signal
import socket
import sqlite3

from ariadne import QueryType, ObjectType, make_executable_schema
from ariadne.asgi import GraphQL

TYPE_DEFS = """
enum OrderDirection { ASC DESC }
input String_Filter { eq: String }
input Movie_Filter { genre: String_Filter }
input Movie_Order { releaseYear: OrderDirection }

type Actor { id: ID! name: String! }
type Movie {
  id: ID!
  title: String!
  releaseYear: Int
  actors_via_MovieActor: [Actor!]!
}
type Query {
  movies(where: Movie_Filter, orderBy: [Movie_Order!], limit: Int): [Movie!]!
}
"""

DATABASE = os.environ.get("BENCH_DB", "dataconnect.sqlite")
_connection = None


def db():
    """This process's read-only connection, opened on first use (never inherited across fork)."""
    global _connection
    if _connection is None:
        _connection = sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True, check_same_thread=False)
    return _connection

query = QueryType()
movie = ObjectType("Movie")


@query.field("movies")
def resolve_movies(_, info, where=None, orderBy=None, limit=None):
    sql = "SELECT id, title, release_year FROM movie"
    params = []
    genre = ((where or {}).get("genre") or {}).get("eq")
    if genre is not None:
        sql += " WHERE genre = ?"
        params.append(genre)
    direction = next((o["releaseYear"] for o in (orderBy or []) if o.get("releaseYear")), None)
    if direction == "DESC":
        sql += " ORDER BY release_year DESC NULLS FIRST"
    elif direction == "ASC":
        sql += " ORDER BY release_year ASC NULLS LAST"
    if limit is not None:
        sql += " LIMIT ?"
        params.append(limit)
    return [{"id": r[0], "title": r[1], "releaseYear": r[2]} for r in db().execute(sql, params)]


class ActorLoader:
    """Collects the movie ids asked for in one event-loop turn and loads their actors in one statement."""

    def __init__(self):
        self.pending = {}
        self.scheduled = False

    def load(self, movie_id):
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.pending.setdefault(movie_id, []).append(future)
        if not self.scheduled:
            self.scheduled = True
            loop.call_soon(self.dispatch)
        return future

    def dispatch(self):
        batch, self.pending, self.scheduled = self.pending, {}, False
        ids = list(batch)
        rows = db().execute(
            "SELECT ma.movie_id, a.id, a.name FROM movie_actor AS ma JOIN actor AS a ON a.id = ma.actor_id"
            f" WHERE ma.movie_id IN ({','.join('?' * len(ids))}) ORDER BY a.id",
            ids,
        )
        actors = {movie_id: [] for movie_id in ids}
        for movie_id, actor_id, name in rows:
            actors[movie_id].append({"id": actor_id, "name": name})
        for movie_id, futures in batch.items():
            for future in futures:
                future.set_result(actors[movie_id])


@movie.field("actors_via_MovieActor")
def resolve_actors(parent, info):
    return info.context["actors"].load(parent["id"])


schema = make_executable_schema(TYPE_DEFS, query, movie)
app = GraphQL(schema, context_value=lambda request, data: {"actors": ActorLoader()}, debug=False)


def serve(port, workers):
    import uvicorn

    sockets = []
    for _ in range(workers):
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(2048)
        sockets.append(listener)
    children = []
    for mine in sockets:
        pid = os.fork()
        if pid == 0:
            for other in sockets:
                if other is not mine:
                    other.close()
            config = uvicorn.Config(app, loop="uvloop", http="httptools", log_level="warning", access_log=False)
            uvicorn.Server(config).run(sockets=[mine])
            os._exit(0)
        children.append(pid)
    for listener in sockets:
        listener.close()

    def stop(*_):
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for pid in children:
        os.waitpid(pid, 0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=2)
    arguments = parser.parse_args()
    serve(arguments.port, arguments.workers)
