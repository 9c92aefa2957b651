-- wrk script of bench-purl.sh: GET requests for names of the generated records.
--   wrk ... -s bench-purl.lua URL -- MODE N
-- MODE: hot (one name), random (redirect names drawn at random from the N), partial
-- (partial prefixes with a path and query appended), negotiated (negotiated names with
-- Accept: text/turtle). Prints one line: RESULT requests/s p50_us p99_us errors.
local mode, n = "hot", 1000000

function init(args)
  mode = args[1] or mode
  n = tonumber(args[2] or n)
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 100000)
end

local hundreds = function() return math.random(0, math.floor(n / 100) - 1) * 100 end

function request()
  if mode == "hot" then
    return wrk.format("GET", "/r/1")
  elseif mode == "random" then
    return wrk.format("GET", "/r/" .. (hundreds() + math.random(0, 96)))
  elseif mode == "partial" then
    local i = hundreds() + math.random(97, 98)
    return wrk.format("GET", "/p/" .. i .. "/a/b" .. math.random(0, 999) .. ".html?x=1")
  else
    return wrk.format("GET", "/n/" .. (hundreds() + 99), { Accept = "text/turtle" })
  end
end

function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout + summary.errors.status
  io.write(string.format("RESULT %.0f %d %d %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), errors))
end
