-- wrk script: POST /api/encode with a 1 KB JSON body of mixed text.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local piece = "引き割り a+b&c=d/é?x#y "
local input = string.rep(piece, math.floor(1000 / #piece))
wrk.body = '{"input":"' .. input .. '","set":"component"}'

function done(summary, latency, requests)
  io.write(string.format("body %d bytes; %d requests, %d errors (status %d)\n",
    #wrk.body, summary.requests,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
  io.write(string.format("requests/s %.0f; latency p50 %.2f ms, p99 %.2f ms\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
