-- wrk script: POSTs JSON bodies, cycling through the lines of the file named by BENCH_BODIES, to the path
-- in BENCH_PATH. Requests are formatted once in init, so the request loop does no string work.
-- done() prints one machine-readable line for bench.py.
local requests = {}
local next_index = 1

function init(args)
  local path = os.getenv("BENCH_PATH") or "/"
  local file = assert(io.open(os.getenv("BENCH_BODIES"), "r"))
  local headers = { ["Content-Type"] = "application/json" }
  for line in file:lines() do
    if #line > 0 then
      requests[#requests + 1] = wrk.format("POST", path, headers, line)
    end
  end
  file:close()
  assert(#requests > 0, "no bodies in " .. os.getenv("BENCH_BODIES"))
end

function request()
  local r = requests[next_index]
  next_index = next_index % #requests + 1
  return r
end

function done(summary, latency, requests_)
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_us=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%d p99_us=%d mean_us=%.1f\n",
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.mean))
end
