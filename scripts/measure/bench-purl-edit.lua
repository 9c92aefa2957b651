-- wrk script of bench-purl.sh: edits through the API, each a PUT of another redirect
-- record at its version 1 (If-Match: "1"), with the token in $PURL_TOKEN.
--   wrk ... -s bench-purl-edit.lua URL -- N [START]   (START: the first edit's number)
-- Prints one line: EDITS edits/s errors.
local count, n = 0, 1000000
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

function init(args)
  n = tonumber(args[1] or n)
  -- Each thread edits its own run of names (threads set thread_id in setup).
  count = tonumber(args[2] or 0) + (thread_id or 0) * 100000
end

function request()
  count = count + 1
  local i = math.floor(count / 97) * 100 + count % 97
  local body = '{"type":"redirect","target":"https://example.org/r/' .. i .. '/moved.html"}'
  return wrk.format("PUT", "/-/api/purls/r/" .. i, {
    ["Authorization"] = "Bearer " .. os.getenv("PURL_TOKEN"),
    ["If-Match"] = '"1"',
    ["Content-Type"] = "application/json",
  }, body)
end

function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout + summary.errors.status
  io.write(string.format("EDITS %.0f %d %d\n",
    (summary.requests - errors) / (summary.duration / 1e6), errors, latency:percentile(99)))
end
